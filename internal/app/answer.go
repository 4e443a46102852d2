package app

import (
	"context"
	"io"
	"os"
	"os/signal"
	"strings"
)

// readAnswer reads a line of in, or ends with the context's error at
// Ctrl-C (the read, which nothing can stop, is left behind: forge ends).
func readAnswer(ctx context.Context, in io.Reader) (string, error) {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	got := make(chan string, 1)
	go func() { got <- readLine(in) }()
	select {
	case line := <-got:
		return line, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// readLine reads up to a newline a byte at a time, so that nothing meant
// for the shell after it is taken from the input.
func readLine(r io.Reader) string {
	var b strings.Builder
	var c [1]byte
	for b.Len() < 1024 {
		n, err := r.Read(c[:])
		if n == 1 {
			if c[0] == '\n' {
				break
			}
			b.WriteByte(c[0])
		}
		if err != nil {
			break
		}
	}
	return b.String()
}
