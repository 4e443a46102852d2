package repl

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
)

// interrupts turns Ctrl-C (SIGINT) into the cancellation of the line that
// is running, for a whole session: one signal handler rather than one per
// line, which a 10,000-line script would feel. A Ctrl-C while no line runs
// is remembered (idle).
type interrupts struct {
	mu     sync.Mutex
	cancel context.CancelFunc // the running line's, if any
	idle   atomic.Bool
	stop   func()
}

// watchInterrupts starts watching for Ctrl-C; stop ends it.
func watchInterrupts() *interrupts {
	w := &interrupts{}
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				w.mu.Lock()
				if w.cancel != nil {
					w.cancel()
				} else {
					w.idle.Store(true)
				}
				w.mu.Unlock()
			case <-done:
				return
			}
		}
	}()
	w.stop = func() {
		signal.Stop(ch)
		close(done)
	}
	return w
}

// line returns the context of one line, which Ctrl-C cancels, and the
// function that ends it.
func (w *interrupts) line(ctx context.Context) (context.Context, func()) {
	if w == nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	return ctx, func() {
		w.mu.Lock()
		w.cancel = nil
		w.mu.Unlock()
		cancel()
	}
}

// interrupted reports whether a Ctrl-C came while no line ran.
func (w *interrupts) interrupted() bool { return w != nil && w.idle.Load() }
