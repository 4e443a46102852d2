package builtin

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/forgehq/forge/builtin/internal/capture"
	"github.com/forgehq/forge/internal/proc"
	"github.com/forgehq/forge/internal/tools"
)

// A foreground command that reaches its time limit is stopped by Bash
// itself, a moment before the executor's deadline, so that Bash's result,
// with the output the command printed, reaches the executor first: the
// executor's own answer at the deadline has no output.

// Bounds of the moment before the deadline at which Bash stops a command.
const (
	minCutMargin = 100 * time.Millisecond
	maxCutMargin = 500 * time.Millisecond
	// maxCutDrain bounds how long the output still in the pipe is read once
	// the command has been told to stop.
	maxCutDrain = 50 * time.Millisecond
	// executorSlack is how much earlier than the timeout the deadline of a
	// call may be when the executor set it: the time between the executor's
	// start and Execute's.
	executorSlack = 50 * time.Millisecond
)

// callLimit is the time limit of a foreground call: the timeout (the
// executor's deadline, which it set a moment ago), or a caller's deadline
// that is clearly earlier.
func (b *bashTool) callLimit(ctx context.Context, ec tools.ExecutionContext, args tools.Args) time.Duration {
	limit := b.CallTimeout(ec, args)
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl); left < limit-executorSlack {
			limit = max(left.Round(time.Millisecond), time.Millisecond)
		}
	}
	return limit
}

// cutMargin is how long before its deadline a call of that limit stops the
// command itself: a tenth of the limit, within bounds, and at most half.
func cutMargin(limit time.Duration) time.Duration {
	return min(max(limit/10, minCutMargin), maxCutMargin, limit/2)
}

// cutTimer fires when the command must be stopped: cutMargin before ctx's
// deadline.
func cutTimer(ctx context.Context, limit time.Duration) *time.Timer {
	wait := limit - cutMargin(limit)
	if dl, ok := ctx.Deadline(); ok {
		wait = time.Until(dl) - cutMargin(limit)
	}
	return time.NewTimer(max(wait, 0))
}

// timedOut stops a command that reached its time limit and returns the
// output it printed until then: its process group is sent SIGTERM at once
// (and SIGKILL after the grace, in the background: the result must not
// wait), what is still in the pipe is read briefly, and the text ends with
// a line that says where it was cut.
func (b *bashTool) timedOut(g *proc.Group, sink *switchWriter, out *capture.Spill, drained <-chan struct{},
	limit time.Duration, start time.Time) tools.Result {
	go proc.Terminate(g.Pgid, b.shells.killGrace())
	drain := min(cutMargin(limit)/4, maxCutDrain)
	_ = g.Out.SetReadDeadline(time.Now().Add(drain))
	select {
	case <-drained:
	case <-time.After(drain + maxCutDrain): // the deadline ends the copy; do not hang if it did not
	}
	sink.set(io.Discard)
	out.Close()

	msg := "Tool timed out after " + formatSeconds(limit)
	if out.Total() > 0 {
		text := out.String()
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += fmt.Sprintf("[Output cut here: the command was still running when it timed out after %s.]", formatSeconds(limit))
		if note := out.FileNote(); note != "" {
			text += "\n" + note
		}
		msg = text + "\n\n" + msg
	}
	r := tools.Fail(msg, "exit_code", -1, "bytes", out.Total(), "truncated", out.Truncated(), "pgid", g.Pgid,
		"duration_ms", time.Since(start).Milliseconds(), "timed_out", true)
	if p := out.Path(); p != "" {
		r = r.WithMeta("output_file", p)
	}
	r.Status, r.ErrorKind = tools.StatusTimedOut, tools.KindTimeout
	return r
}

// formatSeconds writes a duration as the executor's timeout message does:
// 120s, 1.5s.
func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return fmt.Sprintf("%gs", d.Seconds())
}
