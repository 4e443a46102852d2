package sandbox

import (
	"os"
	"testing"
)

// TestMain lets the test binary be the sandbox's first process, as forge
// is: Wrap starts this binary with InitArg.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == InitArg {
		os.Exit(Init(os.Args[2:]))
	}
	os.Exit(m.Run())
}
