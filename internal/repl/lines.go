package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
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

// LineAsker answers questions with the next lines of in: a tool's question
// in forge run or forge -c, whose standard input is otherwise unused. When
// show is set (in is a terminal), the question is written to w first.
func LineAsker(in io.Reader, w io.Writer, show bool) func(context.Context, string) (string, error) {
	var lr *lineReader
	return func(_ context.Context, question string) (string, error) {
		if lr == nil {
			lr = newLineReader(in, 0)
		}
		switch {
		case show && strings.HasSuffix(question, " "):
			fmt.Fprint(w, question) // answered on its line
		case show:
			fmt.Fprintln(w, question)
		}
		line, err := lr.next()
		if err != nil {
			return "", fmt.Errorf("no answer to %q: %w", question, err)
		}
		return line, nil
	}
}
