// Package ratelimit limits how often a tool may be called across the process
// (configuration tools.<Name>.rate).
//
// A limited tool is a decorator: it forwards every method, including the
// optional interfaces of package tools (DryRunner, Deadliner, LoopBreaker,
// Initializer, io.Closer), and takes a token from a shared
// golang.org/x/time/rate limiter before each Execute. A call over the limit
// waits for its token when the token comes before the call's deadline, and
// otherwise fails at once with KindRateLimited and a message that says when
// to retry, so that an agent is never left blocked on a token it cannot get.
package ratelimit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"golang.org/x/time/rate"

	"github.com/forgehq/forge/internal/tools"
)

// Limit is one tool's rate: PerSecond calls per second on average, with
// bursts of up to Burst calls.
type Limit struct {
	PerSecond float64 `json:"per_second"`
	Burst     int     `json:"burst"`
}

// Check reports what is wrong with l, or nil.
func (l Limit) Check() error {
	if math.IsNaN(l.PerSecond) || math.IsInf(l.PerSecond, 0) || l.PerSecond <= 0 {
		return fmt.Errorf("per_second must be a positive number, got %v", l.PerSecond)
	}
	if l.Burst < 0 {
		return fmt.Errorf("burst must not be negative, got %d", l.Burst)
	}
	return nil
}

// burst is the bucket size: Burst, or the number of calls of one second
// (at least 1) when Burst is not set.
func (l Limit) burst() int {
	if l.Burst > 0 {
		return l.Burst
	}
	return max(1, int(math.Ceil(l.PerSecond)))
}

// NewLimiter returns the limiter for l.
func (l Limit) NewLimiter() *rate.Limiter {
	return rate.NewLimiter(rate.Limit(l.PerSecond), l.burst())
}

// Tool is a tools.Tool whose Execute is rate limited.
type Tool struct {
	inner tools.Tool
	lim   *rate.Limiter
	now   func() time.Time // for tests; time.Now otherwise
}

// Wrap returns t limited by lim. Several tools may share one limiter. A tool
// that is already limited is wrapped again (limits then compose); use Unwrap
// to avoid it.
func Wrap(t tools.Tool, lim *rate.Limiter) *Tool {
	return &Tool{inner: t, lim: lim, now: time.Now}
}

// Unwrap returns the limited tool.
func (t *Tool) Unwrap() tools.Tool { return t.inner }

// Limit returns the limit of the tool's limiter.
func (t *Tool) Limit() Limit { return Limit{PerSecond: float64(t.lim.Limit()), Burst: t.lim.Burst()} }

// Name forwards to the wrapped tool.
func (t *Tool) Name() string { return t.inner.Name() }

// Description forwards to the wrapped tool.
func (t *Tool) Description() string { return t.inner.Description() }

// Category forwards to the wrapped tool.
func (t *Tool) Category() tools.Category { return t.inner.Category() }

// Parameters forwards to the wrapped tool.
func (t *Tool) Parameters() []tools.Parameter { return t.inner.Parameters() }

// Execute takes a token, waiting for it while the call's deadline allows,
// then runs the wrapped tool.
func (t *Tool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	if err := t.wait(ctx); err != nil {
		var rl *LimitedError
		if errors.As(err, &rl) {
			r := tools.Fail(rl.Error(), "retry_after_ms", rl.RetryAfter.Milliseconds())
			r.ErrorKind = tools.KindRateLimited
			return r
		}
		// The caller gave up while waiting. The executor normally reports
		// this from its own context first; this result is for callers that
		// hold the tool directly, and agrees with the executor's.
		if errors.Is(err, context.DeadlineExceeded) {
			r := tools.Fail(fmt.Sprintf("Rate limit for %s: the deadline passed while waiting for a turn", t.Name()))
			r.Status, r.ErrorKind = tools.StatusTimedOut, tools.KindTimeout
			return r
		}
		r := tools.Fail("Tool execution cancelled")
		r.Status, r.ErrorKind = tools.StatusCancelled, tools.KindCancelled
		return r
	}
	return t.inner.Execute(ctx, ec, args)
}

// LimitedError says that a call was refused because its token would come
// after its deadline.
type LimitedError struct {
	Tool       string
	RetryAfter time.Duration
}

func (e *LimitedError) Error() string {
	return fmt.Sprintf("Rate limit for %s exceeded: retry in %s", e.Tool, formatRetry(e.RetryAfter))
}

// formatRetry rounds d up to a tenth of a second (never "0s": the caller
// must wait a little): 1.2s, 0.1s, 3s.
func formatRetry(d time.Duration) string {
	tenths := int64(math.Ceil(float64(d) / float64(100*time.Millisecond)))
	if tenths < 1 {
		tenths = 1
	}
	if tenths%10 == 0 {
		return fmt.Sprintf("%ds", tenths/10)
	}
	return fmt.Sprintf("%d.%ds", tenths/10, tenths%10)
}

// wait reserves a token and sleeps until it is due. Unlike rate.Limiter.Wait,
// whose error only says that the deadline would pass, it knows the delay and
// can say when to retry.
func (t *Tool) wait(ctx context.Context) error {
	now := t.now()
	r := t.lim.ReserveN(now, 1)
	if !r.OK() { // burst 0: no call can ever pass
		return &LimitedError{Tool: t.Name(), RetryAfter: time.Duration(float64(time.Second) / math.Max(float64(t.lim.Limit()), 1e-9))}
	}
	delay := r.DelayFrom(now)
	if delay <= 0 {
		return nil
	}
	if dl, ok := ctx.Deadline(); ok && now.Add(delay).After(dl) {
		r.CancelAt(now)
		return &LimitedError{Tool: t.Name(), RetryAfter: delay}
	}
	timer := time.NewTimer(delay)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		r.Cancel() // give the token back to the callers still waiting
		return ctx.Err()
	}
}

// DryRun forwards to the wrapped tool, or describes the call as the executor
// does for tools without their own description. A dry run takes no token.
func (t *Tool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	if dr, ok := t.inner.(tools.DryRunner); ok {
		return dr.DryRun(ec, args)
	}
	b, _ := json.Marshal(args)
	return fmt.Sprintf("Would execute %s with %s", t.Name(), b)
}

// CallTimeout forwards to the wrapped tool; 0 means the context's timeout.
func (t *Tool) CallTimeout(ec tools.ExecutionContext, raw tools.Args) time.Duration {
	if d, ok := t.inner.(tools.Deadliner); ok {
		return d.CallTimeout(ec, raw)
	}
	return 0
}

// IsLoopBreaking forwards to the wrapped tool.
func (t *Tool) IsLoopBreaking() bool { return tools.IsLoopBreaking(t.inner) }

// Present forwards to the wrapped tool.
func (t *Tool) Present(args tools.Args, res tools.Result) tools.Presentation {
	return tools.Present(t.inner, args, res)
}

// InputSchema passes the inner tool's own schema on (tools.SchemaTool).
func (t *Tool) InputSchema() json.RawMessage { return tools.InputSchemaOf(t.inner) }

// ValidateArgs checks args as the inner tool would be checked.
func (t *Tool) ValidateArgs(args tools.Args) *tools.ValidationError {
	_, verr := tools.ValidateFor(t.inner, args)
	return verr
}

// IsReadOnly forwards to the wrapped tool.
func (t *Tool) IsReadOnly() bool { return tools.IsReadOnly(t.inner) }

// Egress forwards to the wrapped tool: a rate limit must not hide where
// its calls send data.
func (t *Tool) Egress(ec tools.ExecutionContext, args tools.Args) tools.Egress {
	return tools.EgressOf(t.inner, ec, args)
}

// Init forwards to the wrapped tool.
func (t *Tool) Init(ctx context.Context) error {
	if in, ok := t.inner.(tools.Initializer); ok {
		return in.Init(ctx)
	}
	return nil
}

// Close forwards to the wrapped tool.
func (t *Tool) Close() error {
	if c, ok := t.inner.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// The decorator must keep every optional behaviour of the tool it wraps.
var (
	_ tools.Tool        = (*Tool)(nil)
	_ tools.DryRunner   = (*Tool)(nil)
	_ tools.Deadliner   = (*Tool)(nil)
	_ tools.LoopBreaker = (*Tool)(nil)
	_ tools.Initializer = (*Tool)(nil)
	_ io.Closer         = (*Tool)(nil)
)
