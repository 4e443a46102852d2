package tools

import (
	"container/heap"
	"context"
	"sync"
	"sync/atomic"
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

// callCtx is the context a tool runs in: cancelled by its parent, by the
// executor when the call ends, or by the watchdog at the deadline, when it
// reports context.DeadlineExceeded like a context.WithDeadline would.
// Contexts derived from it are cancel contexts of the embedded one, so at
// the watchdog's deadline their Err is context.Canceled, not
// DeadlineExceeded; the executor's result says "timed out" either way.
type callCtx struct {
	context.Context // a cancel context of the caller's context
	cancel          context.CancelFunc
	deadline        time.Time
	expired         atomic.Bool
	index           int // in watchdog.calls; -1 once removed (guarded by watchdog.mu)
}

// Deadline is the call's deadline, or the parent's when that is earlier.
func (c *callCtx) Deadline() (time.Time, bool) {
	if d, ok := c.Context.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Err is context.DeadlineExceeded once the watchdog ended the call.
func (c *callCtx) Err() error {
	err := c.Context.Err()
	if err != nil && c.expired.Load() {
		return context.DeadlineExceeded
	}
	return err
}

// start returns the context of a call that must end by deadline.
func (w *watchdog) start(parent context.Context, deadline time.Time) *callCtx {
	ctx, cancel := context.WithCancel(parent)
	c := &callCtx{Context: ctx, cancel: cancel, deadline: deadline}
	w.mu.Lock()
	heap.Push(&w.calls, c)
	if w.armed.IsZero() || deadline.Before(w.armed) {
		w.arm(deadline)
	}
	w.mu.Unlock()
	return c
}

// stop removes a finished call and releases its context.
func (w *watchdog) stop(c *callCtx) {
	w.mu.Lock()
	if c.index >= 0 {
		heap.Remove(&w.calls, c.index)
	}
	w.mu.Unlock()
	c.cancel()
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
		c.expired.Store(true)
		c.cancel()
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
