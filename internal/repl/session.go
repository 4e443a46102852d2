package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
)

// maxLineSize is the longest line a scripted session accepts (64 MiB):
// large enough for a file's content passed inline, small enough that a
// runaway producer cannot exhaust memory. A longer line is skipped with a
// clear error.
const maxLineSize = 64 << 20

// lineReader reads lines of any length up to max without a line editor:
// piped Tabs, arrows and control characters stay plain bytes.
type lineReader struct {
	r   *bufio.Reader
	max int
	n   int // lines read so far
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = maxLineSize
	}
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// lineTooLongError reports a line over the limit; the line was consumed.
type lineTooLongError struct {
	line, max int
}

func (e *lineTooLongError) Error() string {
	return fmt.Sprintf("Line %d is longer than %s and was skipped", e.line, sizeText(e.max))
}

func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// next returns the next line without its line ending (\n or \r\n). A last
// line without a newline is returned before io.EOF.
func (lr *lineReader) next() (string, error) {
	var (
		buf     []byte
		tooLong bool
		got     bool
	)
	for {
		frag, isPrefix, err := lr.r.ReadLine()
		if err != nil {
			if errors.Is(err, io.EOF) && got {
				break
			}
			return "", err
		}
		got = true
		if !tooLong {
			if len(buf)+len(frag) > lr.max {
				tooLong, buf = true, nil
			} else {
				buf = append(buf, frag...)
			}
		}
		if !isPrefix {
			break
		}
	}
	lr.n++
	if tooLong {
		return "", &lineTooLongError{line: lr.n, max: lr.max}
	}
	if n := len(buf); n > 0 && buf[n-1] == '\r' {
		buf = buf[:n-1]
	}
	return string(buf), nil
}

// runScript runs the commands of a non-interactive session, one per line:
// no prompt, no echo, no history. The status is 0 when every command
// succeeded, 1 otherwise; failFast stops at the first failure, and a tool
// cancelled with Ctrl-C ends the session with 130.
func (s *Shell) runScript(ctx context.Context, in io.Reader, failFast bool, maxLine int) int {
	lr := newLineReader(in, maxLine)
	s.ask = func(_ context.Context, question string) (string, error) {
		line, err := lr.next()
		if err != nil {
			return "", fmt.Errorf("no answer to %q: %w", question, err)
		}
		return line, nil
	}
	defer func() { s.ask = nil }()
	if !s.noSignals {
		defer s.watchInterrupts()()
	}
	failed := false
	for !s.quit {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		var tl *lineTooLongError
		if errors.As(err, &tl) {
			s.fail(ExitFailed, "usage", tl.Error())
			failed = true
			if failFast {
				break
			}
			continue
		}
		if err != nil {
			s.fail(ExitFailed, "input", "cannot read input: "+err.Error())
			return ExitFailed
		}
		code := s.Exec(ctx, line)
		if code == ExitCancelled || s.interrupted.Load() {
			return ExitCancelled
		}
		if code != ExitOK {
			failed = true
			if failFast {
				break
			}
		}
		if ctx.Err() != nil {
			break
		}
	}
	if failed {
		return ExitFailed
	}
	return ExitOK
}
