package tools

import (
	"container/heap"
	"context"
	"sync"
	"time"
)

// watchdog ends the contexts of calls whose deadline has passed.
//
// A context.WithDeadline per call costs a runtime timer that is created and
// stopped on every call, most of a fast call's overhead (BENCHMARKS.md,
// Core). Calls mostly finish long before their deadline, so the executor
// keeps them in one heap ordered by deadline, watched by one long-lived
// timer that is re-armed only when a call's deadline is earlier than the
// one it waits for. The zero value is ready to use.
type watchdog struct {
	mu    sync.Mutex
	calls callHeap
	timer *time.Timer
	armed time.Time // when timer fires; zero when it is not armed
}

// callCtx is the context a tool runs in: ended by its parent (with the
// parent's error), by the watchdog at the deadline (context.DeadlineExceeded,
// as a context.WithDeadline would say) or by the executor when the call is
// over (context.Canceled). It implements AfterFunc, which the context package
// uses to propagate: contexts a tool derives from it end with the same error,
// so an HTTP request or a command under a derived context sees
// DeadlineExceeded at the deadline too.
type callCtx struct {
	parent     context.Context
	deadline   time.Time
	index      int         // in watchdog.calls; -1 once removed (guarded by watchdog.mu)
	stopParent func() bool // stops the parent's propagation; nil when it cannot end (guarded by mu)
	wake       chan<- bool // told when the deadline or the parent ends the call; nil for none

	mu     sync.Mutex
	done   chan struct{} // made on first use: most calls never ask for it
	err    error
	afters map[*afterFunc]struct{}
}

// afterFunc is one function registered with callCtx.AfterFunc.
type afterFunc struct {
	once sync.Once
	f    func()
}

// closedChan is the Done channel of a context that ended before anyone asked.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func newCallCtx(parent context.Context, deadline time.Time, wake chan<- bool) *callCtx {
	c := &callCtx{parent: parent, deadline: deadline, wake: wake}
	if parent.Done() != nil {
		// The parent may end, and end c, before AfterFunc returns: the
		// stop function is published under c.mu, and end reads it there.
		stop := context.AfterFunc(parent, func() { c.end(parent.Err(), true) })
		c.mu.Lock()
		c.stopParent = stop
		c.mu.Unlock()
	}
	return c
}

// Deadline is the call's deadline, or the parent's when that is earlier.
func (c *callCtx) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done is closed when the context ends.
func (c *callCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		if c.err != nil {
			return closedChan
		}
		c.done = make(chan struct{})
	}
	return c.done
}

// Err is nil until the context ends, then why it ended.
func (c *callCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Value looks the key up in the parent.
func (c *callCtx) Value(key any) any { return c.parent.Value(key) }

// AfterFunc runs f in its own goroutine once the context ends; stop cancels
// that and reports whether it did (as context.AfterFunc).
func (c *callCtx) AfterFunc(f func()) (stop func() bool) {
	a := &afterFunc{f: f}
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		a.once.Do(func() { go f() })
		return func() bool { return false }
	}
	if c.afters == nil {
		c.afters = map[*afterFunc]struct{}{}
	}
	c.afters[a] = struct{}{}
	c.mu.Unlock()
	return func() bool {
		stopped := false
		a.once.Do(func() { stopped = true })
		c.mu.Lock()
		delete(c.afters, a)
		c.mu.Unlock()
		return stopped
	}
}

// end ends the context with err and reports whether it did: only the first
// call counts. wake sends the news to the caller waiting for the call, in
// the same critical section, so that whoever ends the context second knows
// whether a wake-up was sent.
func (c *callCtx) end(err error, wake bool) bool {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return false
	}
	c.err = err
	if c.done != nil {
		close(c.done)
	} else {
		c.done = closedChan
	}
	if wake && c.wake != nil {
		c.wake <- true // buffered for it: never blocks
	}
	afters, stopParent := c.afters, c.stopParent
	c.afters = nil
	c.mu.Unlock()
	for a := range afters {
		a.once.Do(func() { go a.f() })
	}
	if stopParent != nil {
		stopParent()
	}
	return true
}

// start returns the context of a call that must end by deadline; wake (if
// not nil) is told when the deadline or the parent ends it. The caller
// waits on that one channel for the tool's result or the end, so that no
// Done channel is made for a call whose tool never asks for one.
func (w *watchdog) start(parent context.Context, deadline time.Time, wake chan<- bool) *callCtx {
	c := newCallCtx(parent, deadline, wake)
	w.mu.Lock()
	heap.Push(&w.calls, c)
	if w.armed.IsZero() || deadline.Before(w.armed) {
		w.arm(deadline)
	}
	w.mu.Unlock()
	return c
}

// stop removes a finished call and releases its context. It reports
// whether the context was still running, that is, whether no deadline or
// parent ended it (and sent a wake-up) first.
func (w *watchdog) stop(c *callCtx) bool {
	w.mu.Lock()
	if c.index >= 0 {
		heap.Remove(&w.calls, c.index)
	}
	w.mu.Unlock()
	return c.end(context.Canceled, false)
}

// arm sets the timer to fire at t. w.mu is held.
func (w *watchdog) arm(t time.Time) {
	w.armed = t
	d := time.Until(t)
	if w.timer == nil {
		w.timer = time.AfterFunc(d, w.fire)
		return
	}
	w.timer.Reset(d)
}

// fire ends every call whose deadline has passed and re-arms the timer for
// the next one.
func (w *watchdog) fire() {
	now := time.Now()
	var due []*callCtx
	w.mu.Lock()
	for len(w.calls) > 0 && !w.calls[0].deadline.After(now) {
		due = append(due, heap.Pop(&w.calls).(*callCtx))
	}
	w.armed = time.Time{}
	if len(w.calls) > 0 {
		w.arm(w.calls[0].deadline)
	}
	w.mu.Unlock()
	for _, c := range due {
		c.end(context.DeadlineExceeded, true)
	}
}

// callHeap is a min-heap of calls by deadline (container/heap).
type callHeap []*callCtx

func (h callHeap) Len() int           { return len(h) }
func (h callHeap) Less(i, j int) bool { return h[i].deadline.Before(h[j].deadline) }
func (h callHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *callHeap) Push(x any) {
	c := x.(*callCtx)
	c.index = len(*h)
	*h = append(*h, c)
}

func (h *callHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	old[len(old)-1] = nil
	c.index = -1
	*h = old[:len(old)-1]
	return c
}
