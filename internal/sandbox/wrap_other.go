//go:build !linux && !darwin

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
)

// InitArg is the hidden first argument of the sandbox's first process on
// Linux.
const InitArg = "__sandbox"

var errUnsupported = errors.New("forge has no sandbox on " + runtime.GOOS)

// Wrap fails: there is no sandbox here.
func (s *Sandbox) Wrap(*exec.Cmd, *os.File) (func(), error) { return nil, errUnsupported }

// Init is the sandbox's first process on Linux only.
func Init([]string) int {
	fmt.Fprintln(os.Stderr, "forge sandbox: "+InitArg+" is for Linux")
	return 125
}

// Detect says there is no sandbox here.
func (s *Sandbox) Detect() (string, error) { return "", errUnsupported }
