package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/forgehq/forge/internal/proc"
)

// Timings of forge's exit.
const (
	// exitGrace is how long the processes still running when forge exits
	// get between SIGTERM and SIGKILL.
	exitGrace = 500 * time.Millisecond
	// windDown is how long forge waits, after SIGTERM or SIGHUP, for the
	// shell to return by itself (restoring the terminal, closing the
	// registry) before it exits anyway.
	windDown = 2 * time.Second
)

// guarded runs a forge entry point so that nothing the tools
// started outlives forge: forge becomes the subreaper of its descendants
// (proc.StartGuard), and when the entry point returns, or SIGTERM or SIGHUP
// arrives, every descendant still alive is ended. On those signals the
// entry point's context is cancelled and forge exits with 128+signal.
// SIGINT is the shell's: it cancels the running tool, and the entry point
// returns.
func guarded(ctx context.Context, args []string, entry func(context.Context, []string) int, stderr io.Writer) int {
	guard := proc.StartGuard(exitGrace)
	if err := guard.Err(); err != nil {
		fmt.Fprintf(stderr, "forge: warning: %v; processes that leave their group may outlive forge\n", err)
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	return supervise(ctx, args, entry, guard, sigs, stderr)
}

// cleaner ends the processes forge started (proc.Guard).
type cleaner interface {
	Cleanup() error
}

// supervise runs entry, and cleans up after it returns or when a signal
// comes on sigs; it returns the exit status.
func supervise(ctx context.Context, args []string, entry func(context.Context, []string) int,
	guard cleaner, sigs <-chan os.Signal, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- entry(ctx, args) }()
	var code int
	select {
	case code = <-done:
	case sig := <-sigs:
		cancel()
		// End the tools' processes now: the interactive shell may exit the
		// process by itself soon after it restored the terminal.
		cleanup(guard, stderr)
		select {
		case <-done:
		case <-time.After(windDown):
		}
		code = 128 + signalNumber(sig)
	}
	cleanup(guard, stderr)
	return code
}

func cleanup(guard cleaner, stderr io.Writer) {
	if err := guard.Cleanup(); err != nil {
		fmt.Fprintf(stderr, "forge: could not end every process the tools started: %v\n", err)
	}
}

// signalNumber is sig's number (15 for SIGTERM), for the exit status.
func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return 1
}
