package llmtest

import (
	"sync"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// Timers is a fake llm.AfterFunc for tests of a provider's idle timeout:
// its timers fire only when the test fires them, so that a test of a
// five-minute timeout takes no time and cannot race the clock.
type Timers struct {
	mu     sync.Mutex
	timers []*Timer
	added  chan struct{}
}

// AfterFunc is the llm.AfterFunc to give a provider.
func (ts *Timers) AfterFunc(d time.Duration, f func()) llm.Timer {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t := &Timer{d: d, f: f, armed: true}
	ts.timers = append(ts.timers, t)
	if ts.added != nil {
		close(ts.added)
		ts.added = nil
	}
	return t
}

// Wait returns the timers once at least n have been started, or what
// there is after limit.
func (ts *Timers) Wait(n int, limit time.Duration) []*Timer {
	deadline := time.After(limit)
	for {
		ts.mu.Lock()
		if len(ts.timers) >= n {
			out := append([]*Timer(nil), ts.timers...)
			ts.mu.Unlock()
			return out
		}
		if ts.added == nil {
			ts.added = make(chan struct{})
		}
		added := ts.added
		ts.mu.Unlock()
		select {
		case <-added:
		case <-deadline:
			ts.mu.Lock()
			defer ts.mu.Unlock()
			return append([]*Timer(nil), ts.timers...)
		}
	}
}

// Timer is one fake timer.
type Timer struct {
	mu     sync.Mutex
	d      time.Duration
	f      func()
	armed  bool
	resets int
}

// Stop disarms the timer.
func (t *Timer) Stop() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := t.armed
	t.armed = false
	return was
}

// Reset arms the timer again.
func (t *Timer) Reset(d time.Duration) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	was := t.armed
	t.armed, t.d = true, d
	t.resets++
	return was
}

// Duration is the wait the timer was started, or last reset, with.
func (t *Timer) Duration() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.d
}

// Armed reports whether the timer would fire.
func (t *Timer) Armed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.armed
}

// Resets is how often the timer was reset.
func (t *Timer) Resets() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.resets
}

// Fire runs the timer's function, as the clock would when its time came,
// if it is armed; it reports whether it was.
func (t *Timer) Fire() bool {
	t.mu.Lock()
	armed := t.armed
	t.armed = false
	t.mu.Unlock()
	if armed {
		go t.f()
	}
	return armed
}
