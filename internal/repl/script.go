package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// ScriptOptions configure a scripted session.
type ScriptOptions struct {
	// FailFast stops at the first line that fails.
	FailFast bool
	// MaxLine is the longest line accepted; 0 means 64 MiB.
	MaxLine int
	// NoSignals leaves Ctrl-C alone (tests, which share the process).
	NoSignals bool
}

// Script runs the lines of in, one by one: no prompt, no echo, no history,
// and a tool's question is answered by the next line. The status is 0 when
// every line succeeded, 1 otherwise, and 130 when Ctrl-C cancelled a line
// or came between lines.
func Script(ctx context.Context, in io.Reader, d Dispatcher, opts ScriptOptions) int {
	lr := newLineReader(in, opts.MaxLine)
	ask := func(_ context.Context, question string) (string, error) {
		line, err := lr.next()
		if err != nil {
			return "", fmt.Errorf("no answer to %q: %w", question, err)
		}
		return line, nil
	}
	var w *interrupts
	if !opts.NoSignals {
		w = watchInterrupts()
		defer w.stop()
	}
	failed := false
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		var tl *lineTooLongError
		if errors.As(err, &tl) {
			d.ReportError("usage", tl.Error())
			failed = true
			if opts.FailFast {
				break
			}
			continue
		}
		if err != nil {
			d.ReportError("input", "cannot read input: "+err.Error())
			return exitFailed
		}
		lctx, done := w.line(ctx)
		code, quit := d.Dispatch(lctx, line, ask)
		done()
		if code == exitCancelled || w.interrupted() {
			return exitCancelled
		}
		if code != exitOK {
			failed = true
			if opts.FailFast {
				break
			}
		}
		if quit || ctx.Err() != nil {
			break
		}
	}
	if failed {
		return exitFailed
	}
	return exitOK
}
