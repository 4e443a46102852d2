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

// WithLogger sets the logger; the default discards.
func WithLogger(l zerolog.Logger) ExecutorOption { return func(e *Executor) { e.log = l } }

// WithHistoryCapacity bounds the execution history; 0 turns it off.
func WithHistoryCapacity(n int) ExecutorOption { return func(e *Executor) { e.capacity = n } }

// Executor runs tools by name (FR-2.1.4): lookup, validation, dry run,
// timeout, cancellation, panic recovery, output cap, history, metrics, logs.
type Executor struct {
	reg      *Registry
	log      zerolog.Logger
	capacity int

	mu      sync.Mutex
	history []Execution
	total   int64
	metrics map[string]*Metrics

	exports exportCache // schema exports, keyed by registry version (schema.go)
}

// NewExecutor returns an executor over reg.
func NewExecutor(reg *Registry, opts ...ExecutorOption) *Executor {
	e := &Executor{reg: reg, log: zerolog.Nop(), capacity: DefaultHistoryCapacity, metrics: map[string]*Metrics{}}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Registry returns the registry the executor runs tools from.
func (e *Executor) Registry() *Registry { return e.reg }

// ExecuteJSON decodes raw (a JSON object, numbers kept exact) and executes.
// Malformed JSON is a failed result of kind validation, not an error.
func (e *Executor) ExecuteJSON(ctx context.Context, name string, ec ExecutionContext, raw json.RawMessage) Result {
	args, err := DecodeArgs(raw)
	if err != nil {
		r := Fail(err.Error())
		r.ErrorKind = KindValidation
		return r
	}
	return e.Execute(ctx, name, ec, args)
}

// DecodeArgs decodes a JSON object into Args, keeping numbers as json.Number.
// Empty input is an empty object.
func DecodeArgs(raw []byte) (Args, error) {
	// TODO(core): reject trailing data, non-objects, duplicate keys? with clear messages.
	if len(raw) == 0 {
		return Args{}, nil
	}
	var args Args
	dec := json.NewDecoder(bytesReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil {
		return nil, fmt.Errorf("Invalid JSON arguments: %v", err)
	}
	if args == nil {
		args = Args{}
	}
	return args, nil
}

// Execute runs the named tool.
func (e *Executor) Execute(ctx context.Context, name string, ec ExecutionContext, args Args) Result {
	ec = ec.withDefaults()
	start := time.Now()
	res := e.run(ctx, name, ec, args)
	end := time.Now()
	res.DurationMS = float64(end.Sub(start).Microseconds()) / 1000
	e.record(Execution{ToolName: name, Parameters: args, Context: ec, Result: res, StartedAt: start, CompletedAt: end, DurationMS: res.DurationMS})
	return res
}

func (e *Executor) run(ctx context.Context, name string, ec ExecutionContext, args Args) Result {
	t, ok := e.reg.Get(name)
	if !ok {
		r := Fail("Unknown tool: " + name)
		r.ErrorKind = KindUnknownTool
		return r
	}
	e.log.Info().Str("component", "tools").Msg("Executing tool: " + name)
	valid, verr := Validate(t.Parameters(), args)
	if verr != nil {
		verr.Tool = name
		r := Fail(verr.Message, "parameter", verr.Path, "received", verr.Received)
		r.ErrorKind = KindValidation
		e.logResult(name, r)
		return r
	}
	if ec.DryRun {
		var text string
		if dr, ok := t.(DryRunner); ok {
			text = "[Dry Run] " + dr.DryRun(ec, valid)
		} else {
			b, _ := json.Marshal(valid)
			text = fmt.Sprintf("[Dry Run] Would execute %s with %s", name, b)
		}
		r := OK(text)
		r.Status = StatusDryRun
		return r
	}
	timeout := ec.Timeout
	if d, ok := t.(Deadliner); ok {
		if own := d.CallTimeout(ec, args); own > 0 {
			timeout = own
		}
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				r := Fail(fmt.Sprintf("Execution error: %v", p))
				r.ErrorKind = KindPanic
				done <- r
			}
		}()
		done <- t.Execute(cctx, ec, valid)
	}()
	var r Result
	select {
	case r = <-done:
	case <-cctx.Done():
		r = e.deadlineResult(ctx, timeout)
	}
	if r.Status == "" {
		r.Status = StatusSuccess
		if !r.Success {
			r.Status = StatusFailed
		}
	}
	e.logResult(name, r)
	return r
}

func (e *Executor) deadlineResult(parent context.Context, timeout time.Duration) Result {
	if parent.Err() != nil && !errors.Is(parent.Err(), context.DeadlineExceeded) {
		r := Fail("Tool execution cancelled")
		r.Status, r.ErrorKind = StatusCancelled, KindCancelled
		return r
	}
	r := Fail(fmt.Sprintf("Tool timed out after %s", formatSeconds(timeout)))
	r.Status, r.ErrorKind = StatusTimedOut, KindTimeout
	return r
}

func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return fmt.Sprintf("%gs", d.Seconds())
}

func (e *Executor) logResult(name string, r Result) {
	if r.Success {
		e.log.Info().Str("component", "tools").Msg("Tool " + name + " succeeded")
		return
	}
	e.log.Warn().Str("component", "tools").Msg("Tool " + name + " failed: " + r.Error)
}

func (e *Executor) record(x Execution) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.total++
	x.Seq = e.total
	m := e.metrics[x.ToolName]
	if m == nil {
		m = &Metrics{}
		e.metrics[x.ToolName] = m
	}
	m.Calls++
	if !x.Result.Success {
		m.Failures++
	}
	if x.Result.Status == StatusTimedOut {
		m.Timeouts++
	}
	d := x.CompletedAt.Sub(x.StartedAt)
	m.Total += d
	if d > m.Max {
		m.Max = d
	}
	if e.capacity <= 0 {
		return
	}
	if len(e.history) >= e.capacity {
		copy(e.history, e.history[1:])
		e.history = e.history[:len(e.history)-1]
	}
	e.history = append(e.history, x)
}

// Executions returns the recorded executions, oldest first.
func (e *Executor) Executions() []Execution {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]Execution(nil), e.history...)
}

// TotalExecutions counts every execution since the executor was made or
// last cleared, including those the bounded history has dropped.
func (e *Executor) TotalExecutions() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.total
}

// ClearExecutions forgets the history and the running total.
func (e *Executor) ClearExecutions() {
	e.mu.Lock()
	e.history, e.total = nil, 0
	e.mu.Unlock()
}

// Metrics returns a copy of the per-tool metrics.
func (e *Executor) Metrics() map[string]Metrics {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]Metrics, len(e.metrics))
	for k, v := range e.metrics {
		out[k] = *v
	}
	return out
}
