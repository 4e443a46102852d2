package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// DefaultHistoryCapacity is how many executions an Executor keeps.
const DefaultHistoryCapacity = 1000

// ExecutorOption configures an Executor.
type ExecutorOption func(*Executor)

// WithLogger sets the logger; the default discards. Every event carries
// "component":"tools", which the shell prints as [tools] (seed 002 §10).
func WithLogger(l zerolog.Logger) ExecutorOption {
	return func(e *Executor) { e.log = l.With().Str("component", "tools").Logger() }
}

// WithHistoryCapacity bounds the execution history: the oldest executions
// are dropped beyond n. 0 turns the history off (the running total and the
// metrics are still kept).
func WithHistoryCapacity(n int) ExecutorOption {
	return func(e *Executor) { e.hist.capacity = max(n, 0) }
}

// Executor runs tools by name (FR-2.1.4): lookup, validation, dry run,
// timeout, cancellation, panic recovery, output cap, history, metrics, logs.
// It is safe for concurrent use.
type Executor struct {
	reg         *Registry
	log         zerolog.Logger
	concurrency int // bound of ExecuteCalls; see WithConcurrency

	mu      sync.Mutex // guards hist, total, seq, metrics
	hist    ring
	total   int64
	seq     int64
	metrics map[string]*Metrics

	exports exportCache // schema exports, keyed by registry version (schema.go)
}

// NewExecutor returns an executor over reg.
func NewExecutor(reg *Registry, opts ...ExecutorOption) *Executor {
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
		if _, ok := e.reg.Get(name); !ok {
			return e.Execute(ctx, name, ec, nil) // the unknown tool is the first problem
		}
		return e.reject(name, ec, nil, Result{Status: StatusFailed, Error: err.Error(), ErrorKind: KindValidation})
	}
	return e.Execute(ctx, name, ec, args)
}

// reject records and logs a call refused before its tool was looked up.
func (e *Executor) reject(name string, ec ExecutionContext, args Args, r Result) Result {
	ec = ec.withDefaults()
	_, known := e.reg.Get(name)
	return e.finish(name, known, ec, args, time.Now(), r)
}

// DecodeArgs decodes the arguments of a call: a JSON object, numbers kept as
// json.Number so that 42 and 42.0 stay apart. Empty input and null mean no
// arguments. Anything else (an array, a string, trailing data, malformed
// JSON) is an error whose text starts "Invalid JSON arguments: ".
func DecodeArgs(raw []byte) (Args, error) {
	trimmed := bytes.Trim(raw, " \t\r\n") // JSON's whitespace, not Unicode's
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return Args{}, nil
	}
	if what := jsonKind(trimmed[0]); what != "" {
		return nil, fmt.Errorf("Invalid JSON arguments: expected an object, got %s", what)
	}
	dec := json.NewDecoder(bytesReader(trimmed))
	dec.UseNumber()
	var args Args
	if err := dec.Decode(&args); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("Invalid JSON arguments: %w (at byte %d)", err, se.Offset)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("Invalid JSON arguments: unexpected end of input: %w", io.ErrUnexpectedEOF)
		}
		return nil, fmt.Errorf("Invalid JSON arguments: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("Invalid JSON arguments: unexpected data after the object (at byte %d)", dec.InputOffset())
	}
	return args, nil
}

// jsonKind names the JSON value that starts with c, when it is valid JSON
// but not an object; "" otherwise (an object, or malformed input for the
// decoder to describe).
func jsonKind(c byte) string {
	switch {
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	}
	return ""
}

// Execute runs the named tool and returns its result, which is always
// complete: Status set, DurationMS measured, the execution recorded and
// logged. A failure of any kind (unknown tool, invalid arguments, the tool's
// own error, a panic, the deadline) is a failed Result, never a panic.
func (e *Executor) Execute(ctx context.Context, name string, ec ExecutionContext, args Args) Result {
	ec = ec.withDefaults()
	start := time.Now()
	t, ok := e.reg.Get(name)
	var r Result
	if ok {
		r = e.run(ctx, t, name, ec, args)
	} else {
		r = Result{Status: StatusFailed, Error: "Unknown tool: " + name, ErrorKind: KindUnknownTool}
	}
	return e.finish(name, ok, ec, args, start, r)
}

// finish measures, completes, records and logs a result.
func (e *Executor) finish(name string, known bool, ec ExecutionContext, args Args, start time.Time, r Result) Result {
	end := time.Now()
	d := end.Sub(start)
	r.DurationMS = float64(d) / float64(time.Millisecond)
	r = settle(r)
	e.record(known, Execution{ToolName: name, Parameters: args, Context: ec, Result: r, StartedAt: start, CompletedAt: end, DurationMS: r.DurationMS}, d)
	e.logDone(name, r)
	return r
}

// settle fills in what a tool may leave out: the status and, for a
// failure, its kind.
func settle(r Result) Result {
	if r.Status == "" {
		r.Status = StatusSuccess
		if !r.Success {
			r.Status = StatusFailed
		}
	}
	if !r.Success && r.ErrorKind == KindNone {
		r.ErrorKind = KindExecution
	}
	return r
}

// run is the pipeline after lookup: validation, building a lazy tool, dry
// run, deadline, the call itself, the output cap.
func (e *Executor) run(ctx context.Context, t Tool, name string, ec ExecutionContext, args Args) Result {
	e.logStart(name, ec, args)
	if ctx.Err() != nil {
		return deadlineResult(ctx, ec.Timeout)
	}
	valid, verr := Validate(t.Parameters(), args)
	if verr != nil {
		verr.Tool = name
		return Result{Status: StatusFailed, Error: verr.Message, ErrorKind: KindValidation,
			Metadata: map[string]any{"parameter": verr.Path, "received": verr.Received}}
	}
	inst := t
	lz, lazy := t.(*lazyTool)
	if lazy {
		// The build gets the context's whole timeout of its own: a tool's
		// CallTimeout is only known once it is built.
		bctx, cancel := context.WithTimeout(ctx, ec.Timeout)
		built, err := lz.get(bctx)
		ended := bctx.Err() != nil
		cancel()
		if err != nil {
			if ended {
				return deadlineResult(ctx, ec.Timeout)
			}
			return factoryResult(name, err)
		}
		inst = built
	} else {
		lz = nil
	}
	timeout := ec.Timeout
	if !ec.DryRun {
		if d, ok := inst.(Deadliner); ok {
			own, perr := callTimeout(d, ec, args)
			if perr != nil {
				e.releaseInstance(name, lz, inst)
				return e.panicResult(name, perr.value, perr.stack)
			}
			if own > 0 {
				timeout = own
			}
		}
	}
	r := e.call(ctx, &job{e: e, name: name, t: inst, lz: lz, ec: ec, args: valid, dry: ec.DryRun}, timeout)
	if r.Success {
		r = capOutput(r, ec.MaxOutputSize)
	}
	return r
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
		b = fmt.Appendf(nil, "%v", map[string]any(args))
	}
	return "Would run " + name + " with " + string(b)
}

// deadlineResult is the result of a call whose context ended: cancelled when
// the caller cancelled, timed out otherwise.
func deadlineResult(parent context.Context, timeout time.Duration) Result {
	if err := parent.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return Result{Status: StatusCancelled, Error: "Tool execution cancelled", ErrorKind: KindCancelled}
	}
	return Result{Status: StatusTimedOut, Error: "Tool timed out after " + formatSeconds(timeout), ErrorKind: KindTimeout}
}

// formatSeconds writes a timeout as the seed does: 120s, 1.5s.
func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return fmt.Sprintf("%gs", d.Seconds())
}
