//go:build unix

package builtin

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// liveRecorder records what a call shows live, and when.
type liveRecorder struct {
	mu     sync.Mutex
	text   strings.Builder
	firsts []time.Time
}

func (l *liveRecorder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.text.WriteString(string(p))
	l.firsts = append(l.firsts, time.Now())
	return len(p), nil
}

func (l *liveRecorder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.text.String()
}

// A foreground command's output reaches the context's LiveOutput as it is
// printed, not when the command ends; the result still has all of it.
func TestBashLiveOutput(t *testing.T) {
	b := newTestBash(t)
	ec := testEC(t)
	live := &liveRecorder{}
	ec.LiveOutput = live
	start := time.Now()
	r := b.Execute(context.Background(), ec, bashArgs("echo first; sleep 1; echo second >&2"))
	end := time.Now()
	if !r.Success || r.Output != "first\nsecond\n" {
		t.Fatalf("result %+v", r)
	}
	if got := live.String(); got != "first\nsecond\n" {
		t.Errorf("live output %q", got)
	}
	if len(live.firsts) == 0 || live.firsts[0].Sub(start) > end.Sub(start)-500*time.Millisecond {
		t.Errorf("the first line came %v after the start, the command ended after %v: not live", live.firsts[0].Sub(start), end.Sub(start))
	}
}

// What a cancelled command printed was shown live before it was ended.
func TestBashLiveOutputCancelled(t *testing.T) {
	b := newTestBash(t)
	ec := testEC(t)
	live := &liveRecorder{}
	ec.LiveOutput = live
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for !strings.Contains(live.String(), "ready") {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	r := b.Execute(ctx, ec, bashArgs("echo ready; sleep 30"))
	if r.Success || live.String() != "ready\n" {
		t.Errorf("result %+v, live %q", r, live.String())
	}
}

// Without LiveOutput nothing changes (the common case of scripts).
func TestBashWithoutLiveOutput(t *testing.T) {
	b := newTestBash(t)
	if r := b.Execute(context.Background(), testEC(t), bashArgs("echo ok")); !r.Success || r.Output != "ok\n" {
		t.Errorf("result %+v", r)
	}
}
