package ratelimit

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/forgehq/forge/internal/tools"
)

// counter is a tool that counts its calls and has every optional behaviour.
type counter struct {
	name   string
	calls  atomic.Int64
	closed atomic.Bool
	inited atomic.Bool
}

func (c *counter) Name() string                  { return c.name }
func (c *counter) Description() string           { return "counts calls" }
func (c *counter) Category() tools.Category      { return tools.CategoryOther }
func (c *counter) Parameters() []tools.Parameter { return nil }
func (c *counter) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	return tools.OK(c.calls.Add(1))
}
func (c *counter) DryRun(ec tools.ExecutionContext, args tools.Args) string { return "would count" }
func (c *counter) CallTimeout(ec tools.ExecutionContext, raw tools.Args) time.Duration {
	return 7 * time.Second
}
func (c *counter) IsLoopBreaking() bool { return true }
func (c *counter) Egress(ec tools.ExecutionContext, args tools.Args) tools.Egress {
	return tools.Egress{Hosts: []string{args.String("host")}}
}
func (c *counter) Init(ctx context.Context) error { c.inited.Store(true); return nil }
func (c *counter) Close() error                   { c.closed.Store(true); return nil }
func (c *counter) InputSchema() json.RawMessage   { return json.RawMessage(`{"type":"object"}`) }
func (c *counter) ValidateArgs(args tools.Args) *tools.ValidationError {
	if args["bad"] != nil {
		return &tools.ValidationError{Path: "bad", Rule: tools.RuleSchema, Message: "bad"}
	}
	return nil
}

// plain has none of the optional behaviours.
type plain struct{ name string }

func (p plain) Name() string                  { return p.name }
func (p plain) Description() string           { return "plain" }
func (p plain) Category() tools.Category      { return tools.CategoryOther }
func (p plain) Parameters() []tools.Parameter { return nil }
func (p plain) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	return tools.OK("ok")
}

func TestForwardsOptionalInterfaces(t *testing.T) {
	c := &counter{name: "C"}
	w := Wrap(c, rate.NewLimiter(rate.Inf, 1))
	ec := tools.NewExecutionContext("")
	if got := w.DryRun(ec, nil); got != "would count" {
		t.Errorf("DryRun = %q", got)
	}
	if got := w.CallTimeout(ec, nil); got != 7*time.Second {
		t.Errorf("CallTimeout = %v", got)
	}
	if !tools.IsLoopBreaking(w) {
		t.Error("not loop breaking")
	}
	if got := tools.EgressOf(w, ec, tools.Args{"host": "example.com"}); len(got.Hosts) != 1 || got.Hosts[0] != "example.com" {
		t.Errorf("Egress = %+v, want the wrapped tool's host", got)
	}
	if err := w.Init(context.Background()); err != nil || !c.inited.Load() {
		t.Errorf("Init: %v, inited %v", err, c.inited.Load())
	}
	if err := w.Close(); err != nil || !c.closed.Load() {
		t.Errorf("Close: %v, closed %v", err, c.closed.Load())
	}
	if dw, dc := tools.Describe(w), tools.Describe(c); dw.Name != dc.Name || dw.Description != dc.Description || dw.Category != dc.Category || !dw.LoopBreaking {
		t.Errorf("descriptor differs: %+v", tools.Describe(w))
	}

	if string(tools.Describe(w).InputSchema) != `{"type":"object"}` {
		t.Errorf("own schema not forwarded: %s", tools.Describe(w).InputSchema)
	}
	if _, verr := tools.ValidateFor(w, tools.Args{"bad": 1}); verr == nil || verr.Rule != tools.RuleSchema {
		t.Errorf("own validation not forwarded: %+v", verr)
	}

	p := Wrap(plain{name: "P"}, rate.NewLimiter(rate.Inf, 1))
	if tools.Describe(p).InputSchema != nil {
		t.Error("plain tool gained a schema")
	}
	if got := p.DryRun(ec, tools.Args{"a": 1}); got != `Would execute P with {"a":1}` {
		t.Errorf("generic DryRun = %q", got)
	}
	if p.CallTimeout(ec, nil) != 0 || p.Egress(ec, nil).Sends() || p.IsLoopBreaking() || p.Init(context.Background()) != nil || p.Close() != nil {
		t.Error("plain tool gained behaviour")
	}
}

func TestOverLimitFailsWithRetry(t *testing.T) {
	c := &counter{name: "Search"}
	w := Wrap(c, Limit{PerSecond: 0.5, Burst: 1}.NewLimiter())
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	ec := tools.NewExecutionContext("")
	if r := w.Execute(ctx, ec, nil); !r.Success {
		t.Fatalf("first call: %+v", r)
	}
	r := w.Execute(ctx, ec, nil)
	if r.Success || r.ErrorKind != tools.KindRateLimited {
		t.Fatalf("second call: %+v", r)
	}
	if !strings.HasPrefix(r.Error, "Rate limit for Search exceeded: retry in ") || !strings.HasSuffix(r.Error, "s") {
		t.Errorf("message = %q", r.Error)
	}
	if ms, _ := r.Metadata["retry_after_ms"].(int64); ms <= 0 || ms > 2000 {
		t.Errorf("retry_after_ms = %v", r.Metadata["retry_after_ms"])
	}
	if c.calls.Load() != 1 {
		t.Errorf("inner ran %d times", c.calls.Load())
	}
}

func TestWaitsWithinDeadline(t *testing.T) {
	c := &counter{name: "C"}
	// 200 per second: the second token is due in 5 ms, well within 5 s.
	w := Wrap(c, Limit{PerSecond: 200, Burst: 1}.NewLimiter())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for i := 0; i < 3; i++ {
		if r := w.Execute(ctx, tools.NewExecutionContext(""), nil); !r.Success {
			t.Fatalf("call %d: %+v", i, r)
		}
	}
	if c.calls.Load() != 3 {
		t.Errorf("calls = %d", c.calls.Load())
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	w := Wrap(&counter{name: "C"}, Limit{PerSecond: 0.01, Burst: 1}.NewLimiter())
	w.Execute(context.Background(), tools.NewExecutionContext(""), nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	r := w.Execute(ctx, tools.NewExecutionContext(""), nil) // no deadline: waits
	if r.Status != tools.StatusCancelled || r.ErrorKind != tools.KindCancelled {
		t.Errorf("result = %+v", r)
	}
}

func TestFormatRetry(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{1200 * time.Millisecond, "1.2s"},
		{1150 * time.Millisecond, "1.2s"},
		{time.Millisecond, "0.1s"},
		{0, "0.1s"},
		{3 * time.Second, "3s"},
		{59900 * time.Millisecond, "59.9s"},
	} {
		if got := formatRetry(tc.d); got != tc.want {
			t.Errorf("formatRetry(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

func TestLimitCheck(t *testing.T) {
	for _, tc := range []struct {
		l  Limit
		ok bool
	}{
		{Limit{PerSecond: 1}, true},
		{Limit{PerSecond: 0.1, Burst: 3}, true},
		{Limit{PerSecond: 0}, false},
		{Limit{PerSecond: -1}, false},
		{Limit{PerSecond: 1, Burst: -1}, false},
	} {
		if err := tc.l.Check(); (err == nil) != tc.ok {
			t.Errorf("%+v: err = %v", tc.l, err)
		}
	}
	if got := (Limit{PerSecond: 2.5}).burst(); got != 3 {
		t.Errorf("default burst = %d", got)
	}
}

func TestSetApplyThroughExecutor(t *testing.T) {
	reg := tools.NewRegistry()
	built := atomic.Int64{}
	if err := reg.RegisterLazy(tools.Descriptor{Name: "Lazy", Description: "lazy", Category: tools.CategoryOther},
		func(ctx context.Context, deps tools.Deps) (tools.Tool, error) {
			built.Add(1)
			return plain{name: "Lazy"}, nil // no CallTimeout of its own: the 1 s context applies
		}, tools.Singleton); err != nil {
		t.Fatal(err)
	}
	if err := reg.Register(&counter{name: "Free"}); err != nil {
		t.Fatal(err)
	}
	set, err := NewSet(map[string]Limit{"Lazy": {PerSecond: 0.5, Burst: 1}, "Ghost": {PerSecond: 1}})
	err = errors.Join(err, set.Apply(reg))
	if !errors.Is(err, ErrNotRegistered) || !strings.Contains(err.Error(), "Ghost") {
		t.Errorf("Apply error = %v", err)
	}
	if built.Load() != 0 {
		t.Error("Apply built the lazy tool")
	}
	// Applying twice does not wrap twice.
	_ = set.Apply(reg)
	got, _ := reg.Get("Lazy")
	lt, ok := got.(*Tool)
	if !ok {
		t.Fatalf("Lazy is %T", got)
	}
	if _, twice := lt.Unwrap().(*Tool); twice {
		t.Error("wrapped twice")
	}
	if f, _ := reg.Get("Free"); f.(*counter) == nil {
		t.Error("Free was wrapped")
	}

	ex := tools.NewExecutor(reg)
	ec := tools.NewExecutionContext("")
	ec.Timeout = time.Second
	if r := ex.Execute(context.Background(), "Lazy", ec, nil); !r.Success {
		t.Fatalf("first: %+v", r)
	}
	r := ex.Execute(context.Background(), "Lazy", ec, nil)
	if r.ErrorKind != tools.KindRateLimited || r.Status != tools.StatusFailed {
		t.Errorf("second: %+v", r)
	}
	if built.Load() != 1 {
		t.Errorf("built %d times", built.Load())
	}
	if _, err := NewSet(map[string]Limit{"X": {PerSecond: 0}}); err == nil || !strings.Contains(err.Error(), "tools.X.rate") {
		t.Errorf("NewSet error = %v", err)
	}
}

func TestWrapFactorySharesLimiter(t *testing.T) {
	set, err := NewSet(map[string]Limit{"C": {PerSecond: 0.5, Burst: 1}})
	if err != nil {
		t.Fatal(err)
	}
	f := set.WrapFactory(func(ctx context.Context, deps tools.Deps) (tools.Tool, error) { return &counter{name: "C"}, nil })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	a, _ := f(ctx, tools.Deps{})
	b, _ := f(ctx, tools.Deps{}) // a reloaded instance: same limiter
	if r := a.Execute(ctx, tools.ExecutionContext{}, nil); !r.Success {
		t.Fatal(r)
	}
	if r := b.Execute(ctx, tools.ExecutionContext{}, nil); r.ErrorKind != tools.KindRateLimited {
		t.Errorf("reloaded instance escaped the limit: %+v", r)
	}
}

func BenchmarkExecuteUnderLimit(b *testing.B) {
	w := Wrap(plain{name: "P"}, rate.NewLimiter(rate.Inf, 1))
	ctx := context.Background()
	ec := tools.NewExecutionContext("")
	for b.Loop() {
		w.Execute(ctx, ec, nil)
	}
}
