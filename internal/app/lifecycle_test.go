package app

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fakeGuard counts cleanups and fails them when err is set.
type fakeGuard struct {
	calls atomic.Int32
	err   error
}

func (g *fakeGuard) Cleanup() error {
	g.calls.Add(1)
	return g.err
}

func TestSuperviseReturnsEntryStatusAfterCleanup(t *testing.T) {
	g := &fakeGuard{}
	var stderr strings.Builder
	code := supervise(context.Background(), []string{"run"}, func(_ context.Context, args []string) int {
		if len(args) != 1 || args[0] != "run" {
			t.Errorf("args %q", args)
		}
		return 7
	}, g, make(chan os.Signal), &stderr)
	if code != 7 || g.calls.Load() != 1 || stderr.Len() != 0 {
		t.Errorf("code %d, cleanups %d, stderr %q", code, g.calls.Load(), stderr.String())
	}
}

func TestSuperviseSignalCancelsCleansUpAndExits128PlusSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			g := &fakeGuard{}
			sigs := make(chan os.Signal, 1)
			started := make(chan struct{})
			var cancelled atomic.Bool
			go func() { <-started; sigs <- sig }()
			code := supervise(context.Background(), nil, func(ctx context.Context, _ []string) int {
				close(started)
				<-ctx.Done()
				cancelled.Store(true)
				return 130
			}, g, sigs, &strings.Builder{})
			if want := 128 + int(sig); code != want {
				t.Errorf("code %d, want %d", code, want)
			}
			if !cancelled.Load() {
				t.Error("the entry point's context was not cancelled")
			}
			// Once at the signal, once after the entry point returned.
			if n := g.calls.Load(); n != 2 {
				t.Errorf("%d cleanups, want 2", n)
			}
		})
	}
}

// An entry point that does not return after the signal does not keep
// forge from exiting.
func TestSuperviseDoesNotWaitForeverForAStuckEntry(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	sigs <- syscall.SIGTERM
	stuck := make(chan struct{})
	defer close(stuck)
	start := time.Now()
	code := supervise(context.Background(), nil, func(context.Context, []string) int {
		<-stuck
		return 0
	}, &fakeGuard{}, sigs, &strings.Builder{})
	if code != 143 {
		t.Errorf("code %d", code)
	}
	if d := time.Since(start); d < windDown {
		t.Errorf("returned after %s, before the wind-down", d)
	}
}

func TestSuperviseReportsCleanupFailure(t *testing.T) {
	var stderr strings.Builder
	supervise(context.Background(), nil, func(context.Context, []string) int { return 0 },
		&fakeGuard{err: errors.New("processes 12 are still alive after SIGKILL")}, make(chan os.Signal), &stderr)
	if !strings.Contains(stderr.String(), "could not end every process the tools started: processes 12") {
		t.Errorf("stderr %q", stderr.String())
	}
}
