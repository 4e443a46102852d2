//go:build unix

package plugin

import (
	"os/exec"
	"syscall"
)

// setProcessGroup puts the command in a group of its own and makes
// cancellation kill the whole group, not just the direct child: a plugin
// that is a shell script running a pipeline must stop entirely.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		killGroup(cmd.Process.Pid)
		return nil
	}
}

// killGroup kills the process group led by pid, ignoring "no such process".
func killGroup(pid int) {
	if pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
