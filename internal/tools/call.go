package tools

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
)

// job is one run of a tool (or of its dry run) in its own goroutine.
//
// The tool runs apart from the caller so that the caller gets its answer
// at the deadline even from a tool that ignores its context. Go cannot stop
// a goroutine: such a tool's goroutine is abandoned and finishes (or not)
// on its own; its late result is dropped. This is the documented price of
// a guaranteed deadline.
type job struct {
	e    *Executor
	name string
	t    Tool
	lz   *lazyTool // set when t is a per-call or singleton instance of a lazy tool
	ctx  context.Context
	ec   ExecutionContext
	args Args
	dry  bool
	done chan Result // buffered: an abandoned job never blocks
}

// run executes the job and delivers its result, turning a panic into a
// failed result of kind KindPanic.
func (j *job) run() {
	var r Result
	defer func() {
		if p := recover(); p != nil {
			r = j.e.panicResult(j.name, p, debug.Stack())
		}
		j.e.releaseInstance(j.name, j.lz, j.t)
		j.done <- r
	}()
	if j.dry {
		var text string
		if dr, ok := j.t.(DryRunner); ok {
			text = dr.DryRun(j.ec, j.args)
		} else {
			text = genericDryRun(j.name, j.args)
		}
		r = Result{Success: true, Status: StatusDryRun, Output: "[Dry Run] " + text}
		return
	}
	r = j.t.Execute(j.ctx, j.ec, j.args)
}

// call runs j under a deadline of timeout and returns its result, or the
// deadline's result when the deadline (or the caller's cancellation) comes
// first.
func (e *Executor) call(parent context.Context, j *job, timeout time.Duration) Result {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	j.ctx = ctx
	j.done = make(chan Result, 1)
	go j.run()
	select {
	case r := <-j.done:
		if !r.Success && r.Status == "" && ctx.Err() != nil {
			// The tool gave up because its context ended: say so the
			// executor's way, keeping what the tool reported beside.
			d := deadlineResult(parent, timeout)
			r.Status, r.ErrorKind, r.Error = d.Status, d.ErrorKind, d.Error
		}
		return r
	case <-ctx.Done():
		return deadlineResult(parent, timeout)
	}
}

// panicResult logs a recovered panic with its stack at error level and
// returns the failed result the model reads.
func (e *Executor) panicResult(name string, p any, stack []byte) Result {
	if ev := e.log.Error(); ev != nil {
		ev.Bytes("stack", stack).Msg(fmt.Sprintf("Tool %s raised exception: %v", name, p))
	}
	return Result{Status: StatusFailed, Error: fmt.Sprintf("Execution error: %v", p), ErrorKind: KindPanic}
}

// recovered is a panic caught outside a job.
type recovered struct {
	value any
	stack []byte
}

// callTimeout asks a tool for its deadline, catching a panic.
func callTimeout(d Deadliner, ec ExecutionContext, raw Args) (own time.Duration, perr *recovered) {
	defer func() {
		if p := recover(); p != nil {
			own, perr = 0, &recovered{value: p, stack: debug.Stack()}
		}
	}()
	return d.CallTimeout(ec, raw), nil
}
