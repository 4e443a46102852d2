package tools

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// A tool sees its call's deadline and, once it passes, DeadlineExceeded,
// as with context.WithDeadline.
func TestWatchdogContextReportsDeadline(t *testing.T) {
	r := NewRegistry()
	tool := newTool("Coop", CategoryOther)
	type seen struct {
		deadline time.Time
		ok       bool
		err      error
	}
	got := make(chan seen, 1)
	tool.run = func(ctx context.Context, _ ExecutionContext, _ Args) Result {
		d, ok := ctx.Deadline()
		<-ctx.Done()
		got <- seen{d, ok, ctx.Err()}
		return Fail("stopped")
	}
	mustRegister(t, r, tool)
	start := time.Now()
	res := NewExecutor(r).Execute(context.Background(), "Coop", ExecutionContext{Timeout: 40 * time.Millisecond}, nil)
	if res.Status != StatusTimedOut {
		t.Fatalf("result = %+v", res)
	}
	s := <-got
	if !s.ok || s.deadline.Before(start.Add(40*time.Millisecond)) || s.deadline.After(time.Now()) {
		t.Errorf("Deadline() = %v, %v; the call started at %v with a 40ms timeout", s.deadline, s.ok, start)
	}
	if !errors.Is(s.err, context.DeadlineExceeded) {
		t.Errorf("Err() = %v, want DeadlineExceeded", s.err)
	}
}

// A parent with an earlier deadline wins, and its cancellation reaches the tool
// as Canceled.
func TestWatchdogParentDeadlineAndCancel(t *testing.T) {
	var w watchdog
	parent, cancel := context.WithTimeout(context.Background(), time.Hour)
	c := w.start(parent, time.Now().Add(2*time.Hour), nil)
	if d, _ := c.Deadline(); d.After(time.Now().Add(90 * time.Minute)) {
		t.Errorf("Deadline() = %v, want the parent's (in an hour)", d)
	}
	cancel()
	<-c.Done()
	if !errors.Is(c.Err(), context.Canceled) {
		t.Errorf("Err() = %v, want Canceled", c.Err())
	}
	w.stop(c)
	if len(w.calls) != 0 {
		t.Errorf("%d calls left in the heap", len(w.calls))
	}
}

// A short deadline that arrives while the timer waits for a long one re-arms
// it: the short call must not wait for the long one's deadline.
func TestWatchdogEarlierDeadlineRearms(t *testing.T) {
	var w watchdog
	long := w.start(context.Background(), time.Now().Add(time.Hour), nil)
	short := w.start(context.Background(), time.Now().Add(20*time.Millisecond), nil)
	select {
	case <-short.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the short deadline did not fire while a long one was armed")
	}
	if !errors.Is(short.Err(), context.DeadlineExceeded) {
		t.Errorf("short Err() = %v", short.Err())
	}
	if long.Err() != nil {
		t.Errorf("the long call ended too: %v", long.Err())
	}
	w.stop(short) // already removed by the watchdog: must be harmless
	w.stop(long)
	if len(w.calls) != 0 {
		t.Errorf("%d calls left in the heap", len(w.calls))
	}
}

// Calls started and stopped from many goroutines, some expiring, leave the
// heap consistent and every expired call ended.
func TestWatchdogConcurrent(t *testing.T) {
	var w watchdog
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			d := time.Hour
			if i%4 == 0 {
				d = time.Duration(i%7+1) * time.Millisecond
			}
			c := w.start(context.Background(), time.Now().Add(d), nil)
			if d < time.Hour {
				select {
				case <-c.Done():
				case <-time.After(10 * time.Second):
					t.Errorf("call %d: deadline %v did not fire", i, d)
				}
			}
			w.stop(c)
		})
	}
	wg.Wait()
	if len(w.calls) != 0 {
		t.Errorf("%d calls left in the heap", len(w.calls))
	}
}

// Contexts a tool derives from its call's context end with the call's own
// error: DeadlineExceeded at the watchdog's deadline, not Canceled.
func TestWatchdogDerivedContextsSeeDeadlineExceeded(t *testing.T) {
	var w watchdog
	c := w.start(context.Background(), time.Now().Add(20*time.Millisecond), nil)
	derived, cancel := context.WithCancel(c)
	defer cancel()
	timed, cancelTimed := context.WithTimeout(c, time.Hour)
	defer cancelTimed()
	for name, ctx := range map[string]context.Context{"WithCancel": derived, "WithTimeout": timed} {
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: the derived context did not end at the deadline", name)
		}
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			t.Errorf("%s: Err() = %v, want DeadlineExceeded", name, ctx.Err())
		}
	}
	w.stop(c)
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Errorf("stop after the deadline changed Err() to %v", c.Err())
	}
}

// A parent's deadline reaches the tool as DeadlineExceeded, and AfterFunc's
// stop reports whether it stopped the function in time.
func TestWatchdogParentErrorAndAfterFunc(t *testing.T) {
	var w watchdog
	parent, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	c := w.start(parent, time.Now().Add(time.Hour), nil)
	ran := make(chan struct{})
	c.AfterFunc(func() { close(ran) })
	stop := c.AfterFunc(func() { t.Error("a stopped AfterFunc ran") })
	if !stop() {
		t.Error("stop() = false before the context ended")
	}
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("AfterFunc did not run when the parent's deadline passed")
	}
	if !errors.Is(c.Err(), context.DeadlineExceeded) {
		t.Errorf("Err() = %v, want the parent's DeadlineExceeded", c.Err())
	}
	late := make(chan struct{})
	if c.AfterFunc(func() { close(late) })() {
		t.Error("stop() = true for a function registered after the end")
	}
	<-late // registered after the end: runs at once
	w.stop(c)
}
