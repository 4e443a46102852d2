package tools

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
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

	// out is the tool's result, written by the job's goroutine before it
	// sends false on done; the deadline or the caller's cancellation sends
	// true. done is buffered for both, so no sender ever blocks, and is
	// kept across reuse. The result stays in the job rather than in the
	// channel so that the goroutine's frames stay small: a fresh goroutine
	// starts with a small stack, and growing it costs more than the rest of
	// a fast call.
	out      Result
	returned bool
	done     chan bool
}

// run executes the job and delivers its result.
func (j *job) run() {
	defer j.deliver()
	j.exec()
	j.returned = true
}

// exec runs the tool, or its dry run. It is a function of its own so that
// run's frame, under every frame of the tool, stays small.
//
//go:noinline
func (j *job) exec() {
	if j.dry {
		j.dryRun(&j.out)
		return
	}
	j.out = j.t.Execute(j.ctx, j.ec, j.args)
}

// deliver, deferred by run, turns a panic into a failed result of kind
// KindPanic, releases the instance and tells the caller.
func (j *job) deliver() {
	if p := recover(); p != nil || !j.returned {
		j.fail(p)
	}
	j.e.releaseInstance(j.name, j.lz, j.t)
	j.done <- false
}

// fail records why the tool gave no result: a panic, or runtime.Goexit
// (no panic, but no result either). It is a function of its own to keep
// deliver's frame small.
//
//go:noinline
func (j *job) fail(p any) {
	if p != nil {
		j.out = j.e.panicResult(j.name, p, debug.Stack())
		return
	}
	j.out = Result{Status: StatusFailed, Error: "Execution error: the tool exited without a result", ErrorKind: KindPanic}
}

// dryRun writes to r what the tool would do.
func (j *job) dryRun(r *Result) {
	var text string
	if dr, ok := j.t.(DryRunner); ok {
		text = dr.DryRun(j.ec, j.args)
	} else {
		text = genericDryRun(j.name, j.args)
	}
	*r = Result{Success: true, Status: StatusDryRun, Output: "[Dry Run] " + text}
}

// jobPool recycles jobs (and their channels) of calls that finished before
// their deadline; an abandoned job is left to the garbage collector, since
// its goroutine may still write to it.
var jobPool = sync.Pool{New: func() any { return &job{done: make(chan bool, 2)} }}

// call runs j until deadline (timeout after the call's start, for the
// message) and writes its result to r, or the deadline's result when the
// deadline (or the caller's cancellation) comes first.
//
// The common path is kept apart from the deadline's, with no temporaries:
// this frame is under every frame of a short-lived caller's goroutine,
// whose small stack would otherwise grow on every call.
func (e *Executor) call(parent context.Context, j *job, deadline time.Time, timeout time.Duration, r *Result) {
	ctx := e.watch.start(parent, deadline, j.done)
	j.ctx = ctx
	go j.run()
	ended := <-j.done
	stopped := e.watch.stop(ctx)
	if !ended && stopped {
		// The tool answered, and nothing else was sent: the job can serve again.
		*r = j.out
		j.recycle()
		return
	}
	e.ended(j, ended, timeout, r)
}

// ended writes the result of a call whose context ended, by its deadline
// or its caller, before or as the tool answered. The job is not reused: a
// wake-up is in its channel, or its goroutine may still write.
//
//go:noinline
func (e *Executor) ended(j *job, wokeFirst bool, timeout time.Duration, r *Result) {
	answered := !wokeFirst
	if wokeFirst {
		select {
		case <-j.done: // the tool answered at the same moment
			answered = true
		default:
		}
	}
	*r = Result{}
	if answered {
		*r = j.out
		if r.Success && !wokeFirst {
			return // it made it: the end came after the answer
		}
		// The tool may have given up because its context ended: say so the
		// executor's way whatever the tool said, so the message does not
		// depend on who noticed the deadline first; the tool's own words
		// are kept as detail.
		if r.Error != "" {
			*r = r.WithMeta("detail", r.Error)
		}
	}
	markDeadline(j.ctx.Err(), timeout, r)
}

// recycle clears a finished job and puts it back in the pool.
func (j *job) recycle() {
	done := j.done
	*j = job{}
	j.done = done
	jobPool.Put(j)
}

// newJob takes a job from the pool and fills it for one call.
func newJob(e *Executor, en *entry, t Tool, ec *ExecutionContext, args Args) *job {
	j := jobPool.Get().(*job)
	j.e, j.name, j.t, j.lz, j.ec, j.args, j.dry = e, en.name, t, en.lazy, *ec, args, ec.DryRun
	return j
}

// markDeadline turns r into the deadline's failure, keeping its output and
// metadata.
func markDeadline(err error, timeout time.Duration, r *Result) {
	d := deadlineResult(err, timeout)
	r.Success, r.Status, r.ErrorKind, r.Error = false, d.Status, d.ErrorKind, d.Error
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
