package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/forgehq/forge/internal/proc"
)

// Bounds on what forge keeps of a hook's output: an answer is a line of
// JSON, a reason a few lines.
const (
	maxStdout = 1 << 20
	maxStderr = 64 << 10
)

// waitDelay is how long forge waits for the output pipes to close once the
// shell has exited or been killed: a process that left the hook's group
// may hold them.
const waitDelay = 2 * time.Second

// defaultShell runs the commands when Options.Shell names none.
const defaultShell = "/bin/sh"

// runResult is how one hook's process ended.
type runResult struct {
	exit           int // -1 when it did not exit by itself
	stdout, stderr []byte
	// stdoutCut says the hook printed more than maxStdout.
	stdoutCut bool
	timedOut  bool
	err       error // could not start, killed, cancelled
	timeout   time.Duration
}

// status says how the hook ended, for the log.
func (r runResult) status() string {
	switch {
	case r.timedOut:
		return "timed out"
	case r.err != nil:
		return r.err.Error()
	}
	return fmt.Sprint(r.exit)
}

// exec runs h's command with input on its standard input, within h's
// timeout. The command leads a session of its own (no controlling
// terminal, a process group forge can end), and whatever it started is
// killed with it when the time is up or ctx ends.
func (r *Runner) exec(ctx context.Context, h Hook, input []byte) runResult {
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	var stdout, stderr capped
	stdout.limit, stderr.limit = maxStdout, maxStderr
	shell := r.opts.Shell
	if shell == "" {
		shell = defaultShell
	}
	cmd := exec.CommandContext(ctx, shell, "-c", h.Command)
	cmd.Dir = r.opts.Dir
	if h.Dir != "" {
		cmd.Dir = h.Dir
	}
	cmd.Env = r.env
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = proc.GroupAttr()
	cmd.WaitDelay = waitDelay
	cmd.Cancel = func() error { return kill(cmd.Process.Pid) }
	err := cmd.Run()
	if cmd.Process != nil {
		// What the hook left running in its group goes with it.
		_ = proc.Terminate(cmd.Process.Pid, 0)
	}
	res := runResult{exit: -1, stdout: stdout.buf.Bytes(), stderr: stderr.buf.Bytes(), stdoutCut: stdout.cut, timeout: h.Timeout}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil && errors.Is(context.Cause(ctx), context.DeadlineExceeded):
		res.timedOut = true
	case ctx.Err() != nil:
		res.err = context.Cause(ctx)
	case err == nil || errors.Is(err, exec.ErrWaitDelay):
		res.exit = 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		res.exit = ee.ExitCode()
	default:
		res.err = err
	}
	return res
}

// kill ends the hook's shell and all it started: its group stopped first,
// so that nothing new starts meanwhile, then its descendants, also those
// that left its group (setsid), while they still hang off it, then the
// group.
func kill(pid int) error {
	proc.Freeze(pid)
	_ = proc.EndDescendants(pid, 0)
	return proc.Terminate(pid, 0)
}

// decodeRun is the answer of a finished run.
func decodeRun(event Event, res runResult) Answer {
	switch {
	case res.timedOut:
		return Answer{Err: fmt.Errorf("timed out after %s and was killed", res.timeout)}
	case res.err != nil:
		return Answer{Err: fmt.Errorf("did not run: %w", res.err)}
	}
	a := DecodeAnswer(event, res.exit, res.stdout, res.stderr)
	if res.stdoutCut {
		a.stdoutCut = true
		if res.exit == 0 && a.Err != nil {
			// The JSON answer is broken because forge cut it, not the hook.
			a.Err = errors.New("its answer is longer than 1 MiB and was cut")
		}
	}
	return a
}

// capped keeps the first limit bytes written to it and drops the rest,
// so that a hook printing without end cannot fill forge's memory.
type capped struct {
	buf   bytes.Buffer
	limit int
	cut   bool // something was dropped
}

func (c *capped) Write(p []byte) (int, error) {
	room := max(c.limit-c.buf.Len(), 0)
	c.buf.Write(p[:min(len(p), room)])
	if len(p) > room {
		c.cut = true
	}
	return len(p), nil
}
