//go:build unix

package mcp

import (
	"os/exec"
	"syscall"
)

// detach puts a stdio server in its own process group, so that Ctrl-C in
// the shell (meant to cancel a call) does not kill the servers too.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
