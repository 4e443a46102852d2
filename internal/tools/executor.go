package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// DefaultHistoryCapacity is how many executions an Executor keeps.
const DefaultHistoryCapacity = 1000

// ExecutorOption configures an Executor.
type ExecutorOption func(*Executor)

// WithLogger sets the logger; the default discards. Every event carries
// "component":"tools", which the shell prints as [tools].
func WithLogger(l zerolog.Logger) ExecutorOption {
	return func(e *Executor) { e.log = l.With().Str("component", "tools").Logger() }
}

// WithHistoryCapacity bounds the execution history: the oldest executions
// are dropped beyond n. 0 turns the history off (the running total and the
// metrics are still kept).
func WithHistoryCapacity(n int) ExecutorOption {
	return func(e *Executor) { e.hist.capacity = max(n, 0) }
}

// WithClock sets where the executor reads the time it records (an
// execution's start and end, and so its duration); the default is
// time.Now. Deadlines always run on the real clock: a fixed clock, as tests
// use for reproducible output, must not make every call time out.
func WithClock(now func() time.Time) ExecutorOption {
	return func(e *Executor) { e.now = now }
}

// Executor runs tools by name: lookup, validation, dry run,
// timeout, cancellation, panic recovery, output cap, history, metrics, logs.
// It is safe for concurrent use.
//
// Each call runs its tool on a goroutine of its own, so that the caller
// gets "Tool timed out after 1s" at the deadline even from a tool that
// ignores its context. Go cannot stop a goroutine: such a tool's goroutine
// is abandoned and its late result dropped. Well-behaved tools watch ctx.
type Executor struct {
	reg *Registry
	log zerolog.Logger
	now func() time.Time // the recorded times' clock; nil means time.Now

	mu      sync.Mutex // guards hist, total, seq, metrics
	hist    ring
	total   int64
	seq     int64
	metrics map[string]*Metrics

	exports exportCache // schema exports, keyed by registry version (schema.go)
	watch   watchdog    // ends calls at their deadline (watchdog.go)
}

// NewExecutor returns an executor over reg; a nil reg means Default().
func NewExecutor(reg *Registry, opts ...ExecutorOption) *Executor {
	if reg == nil {
		reg = Default()
	}
	e := &Executor{reg: reg, log: zerolog.Nop(), metrics: map[string]*Metrics{}}
	e.hist.capacity = DefaultHistoryCapacity
	for _, o := range opts {
		o(e)
	}
	return e
}

// Registry returns the registry the executor runs tools from.
func (e *Executor) Registry() *Registry { return e.reg }

// ExecuteJSON decodes raw (a JSON object, numbers kept exact; see DecodeArgs)
// and executes. Malformed JSON is a failed result of kind validation, not an
// error; it is recorded and logged like any other failure.
func (e *Executor) ExecuteJSON(ctx context.Context, name string, ec ExecutionContext, raw json.RawMessage) Result {
	args, err := DecodeArgs(raw)
	if err != nil {
		en := e.reg.lookup(name)
		if en == nil {
			return e.Execute(ctx, name, ec, nil) // the unknown tool is the first problem
		}
		return e.reject(name, en, ec, Result{Status: StatusFailed, Error: err.Error(), ErrorKind: KindValidation,
			Metadata: map[string]any{"rule": string(RuleJSON)}})
	}
	return e.Execute(ctx, name, ec, args)
}

// reject records and logs a call refused before its tool could run; en is
// the tool it counts against in the metrics, or nil.
func (e *Executor) reject(name string, en *entry, ec ExecutionContext, r Result) Result {
	ec.setDefaults()
	start := time.Now()
	if e.now != nil {
		start = e.now()
	}
	e.finish(name, en, &ec, nil, start, &r)
	return r
}

// Execute runs the named tool and returns its result, which is always
// complete: Status set, DurationMS measured, the execution recorded and
// logged. A failure of any kind (unknown tool, invalid arguments, the tool's
// own error, a panic, the deadline) is a failed Result, never a panic.
//
// Internally results and contexts travel by pointer: the frames of this
// path stay small, so that a fresh goroutine calling Execute (10,000 of
// them in a batch) does not have to grow its stack.
func (e *Executor) Execute(ctx context.Context, name string, ec ExecutionContext, args Args) Result {
	var r Result
	e.execute(ctx, name, &ec, args, &r)
	return r
}

func (e *Executor) execute(ctx context.Context, name string, ec *ExecutionContext, args Args, r *Result) {
	ec.setDefaults()
	start := time.Now()
	en := e.reg.lookup(name)
	recorded := start
	if e.now != nil {
		recorded = e.now()
	}
	if en != nil {
		e.run(ctx, en, ec, args, start, r)
	} else {
		*r = Result{Status: StatusFailed, Error: "Unknown tool: " + name, ErrorKind: KindUnknownTool}
	}
	e.finish(name, en, ec, args, recorded, r)
}

// finish measures, completes, records and logs a result. en is nil for a
// name that is not registered.
// start is the real start, or the injected clock's reading at the start
// when the executor has one (see WithClock).
func (e *Executor) finish(name string, en *entry, ec *ExecutionContext, args Args, start time.Time, r *Result) {
	var end time.Time
	if e.now != nil {
		end = e.now()
	} else {
		end = time.Now()
	}
	r.DurationMS = float64(end.Sub(start)) / float64(time.Millisecond)
	settle(r)
	e.record(name, en != nil, args, ec, r, start, end)
	e.logDone(name, en, r)
}

// settle fills in what a tool may leave out: the status and, for a
// failure, its kind.
func settle(r *Result) {
	if r.Status == "" {
		r.Status = StatusSuccess
		if !r.Success {
			r.Status = StatusFailed
		}
	}
	if !r.Success && r.ErrorKind == KindNone {
		r.ErrorKind = KindExecution
	}
}

// run is the pipeline after lookup: validation, building a lazy tool, dry
// run, deadline, the call itself, the output cap. It writes the result to r.
func (e *Executor) run(ctx context.Context, en *entry, ec *ExecutionContext, args Args, start time.Time, r *Result) {
	e.logStart(en, ec, args)
	if ctx.Err() != nil {
		markDeadline(ctx.Err(), ec.Timeout, r)
		return
	}
	var valid Args
	var verr *ValidationError
	if en.ownSchema {
		valid, verr = ValidateFor(en.t, args)
	} else {
		valid, verr = Validate(en.params, args)
	}
	if verr != nil {
		verr.Tool = en.name
		validationResult(verr, r)
		return
	}
	inst := en.t
	if en.lazy != nil {
		if inst = en.lazy.ready(); inst == nil {
			if inst = e.build(ctx, en, ec, r); inst == nil {
				return
			}
			start = time.Now() // the build had its own timeout: the call's deadline counts from now
		}
	}
	timeout := ec.Timeout
	if !ec.DryRun {
		if own, ok := e.ownTimeout(en, inst, ec, args, r); !ok {
			return
		} else if own > 0 {
			timeout = own
		}
	}
	e.call(ctx, newJob(e, en, inst, ec, valid), start.Add(timeout), timeout, r)
	if r.Success {
		capOutput(r, ec.MaxOutputSize)
	}
}

// validationResult writes the failed result of invalid arguments to r.
func validationResult(verr *ValidationError, r *Result) {
	*r = Result{Status: StatusFailed, Error: verr.Message, ErrorKind: KindValidation,
		Metadata: map[string]any{"parameter": verr.Path, "rule": string(verr.Rule), "received": verr.Received}}
}

// build returns the instance of a lazy tool that is not built yet (a
// singleton's first use, every call of a PerCall tool), or nil with the
// failure written to r. The build gets the context's whole timeout of its
// own: a tool's CallTimeout is only known once it is built.
func (e *Executor) build(ctx context.Context, en *entry, ec *ExecutionContext, r *Result) Tool {
	bctx, cancel := context.WithTimeout(ctx, ec.Timeout)
	built, err := en.lazy.get(bctx)
	cause := bctx.Err()
	cancel()
	switch {
	case err == nil:
		return built
	case cause != nil:
		*r = deadlineResult(cause, ec.Timeout)
	default:
		*r = factoryResult(en.name, err)
	}
	return nil
}

// ownTimeout asks a Deadliner tool for its deadline. false means it
// panicked, with the failure written to r.
func (e *Executor) ownTimeout(en *entry, inst Tool, ec *ExecutionContext, args Args, r *Result) (time.Duration, bool) {
	d, ok := inst.(Deadliner)
	if !ok {
		return 0, true
	}
	own, perr := callTimeout(d, *ec, args)
	if perr != nil {
		e.releaseInstance(en.name, en.lazy, inst)
		*r = e.panicResult(en.name, perr.value, perr.stack)
		return 0, false
	}
	return own, true
}

// releaseInstance hands a per-call instance back (closing it), logging a
// failure to close.
func (e *Executor) releaseInstance(name string, lz *lazyTool, t Tool) {
	if lz == nil {
		return
	}
	if err := lz.put(t); err != nil {
		if ev := e.log.Warn(); ev != nil {
			ev.Msg("Tool " + name + " could not be closed: " + err.Error())
		}
	}
}

// genericDryRun describes a call for tools that cannot describe their own.
func genericDryRun(name string, args Args) string {
	b, err := json.Marshal(args)
	if err != nil {
		// Not JSON (a channel, a cycle): the log's bounded rendering.
		return "Would run " + name + " with " + formatParams(args)
	}
	return "Would run " + name + " with " + string(b)
}

// deadlineResult is the result of a call whose context ended with err:
// timed out when that was a deadline (the call's own or its caller's),
// cancelled otherwise. The ended context's own error is the first cause, so
// a caller cancelling just after the deadline fired does not turn a timeout
// into a cancellation.
func deadlineResult(err error, timeout time.Duration) Result {
	if err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return Result{Status: StatusCancelled, Error: "Tool execution cancelled", ErrorKind: KindCancelled}
	}
	return Result{Status: StatusTimedOut, Error: "Tool timed out after " + formatSeconds(timeout), ErrorKind: KindTimeout}
}

// formatSeconds writes a timeout in seconds for a person: 120s, 1.5s.
func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return fmt.Sprintf("%gs", d.Seconds())
}
