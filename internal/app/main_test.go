package app

import (
	"context"
	"os"
	"testing"
)

// TestMain lets the test binary be the first process of the sandboxes
// the tests' agents build, as forge is: the sandbox starts this binary
// with its hidden first argument, which Main handles.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		if code, ok := sandboxEntry(os.Args[1:]); ok {
			os.Exit(code)
		}
	}
	os.Exit(m.Run())
}

func sandboxEntry(args []string) (int, bool) {
	if args[0] != sandboxInitArg {
		return 0, false
	}
	return Main(context.Background(), args, os.Stdin, os.Stdout, os.Stderr, Options{}), true
}
