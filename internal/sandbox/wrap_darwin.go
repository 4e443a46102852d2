package sandbox

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
)

// InitArg is the hidden first argument of the sandbox's first process on
// Linux; macOS's sandbox-exec needs none.
const InitArg = "__sandbox"

// sandboxExec is macOS's Seatbelt front end.
const sandboxExec = "/usr/bin/sandbox-exec"

// Wrap changes cmd so that sandbox-exec runs it under the policy's
// Seatbelt profile. status is not used: sandbox-exec's process is the
// command's. Untested on a Mac.
func (s *Sandbox) Wrap(cmd *exec.Cmd, status *os.File) (func(), error) {
	if s.policy.Mode == ModeOff {
		return func() {}, nil
	}
	sp, err := s.placesFor(cmd, s.guard.known())
	if err != nil {
		return nil, err
	}
	port := 0
	if addr, err := s.proxy.tcp(); err != nil {
		return nil, err
	} else if addr != "" {
		_, p, _ := net.SplitHostPort(addr)
		port, _ = strconv.Atoi(p)
		env := cmd.Env
		if env == nil {
			env = os.Environ()
		}
		cmd.Env = withProxy(env, "http://"+addr)
	}
	sb := seatbeltFor(sp, port)
	args := append([]string{sandboxExec}, sb.args()...)
	args = append(args, cmd.Path)
	cmd.Args = append(args, cmd.Args[1:]...)
	cmd.Path = sandboxExec
	return func() {}, nil
}

// Init is the sandbox's first process on Linux only.
func Init([]string) int {
	fmt.Fprintln(os.Stderr, "forge sandbox: "+InitArg+" is for Linux")
	return 125
}

// Detect says whether sandbox-exec is there.
func (s *Sandbox) Detect() (string, error) {
	if _, err := os.Stat(sandboxExec); err != nil {
		return "", errors.New("macOS's sandbox-exec is not at " + sandboxExec)
	}
	return "macOS Seatbelt (sandbox-exec; untested)", nil
}
