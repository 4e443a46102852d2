//go:build windows

package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"
)

const defaultShell = "cmd.exe"

// GroupAttr starts the child in a new process group; Terminate ends its
// whole tree with taskkill.
func GroupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signalOf: Windows processes are not ended by signals.
func signalOf(*os.ProcessState) (string, bool) { return "", false }

// Freeze does nothing on Windows, where Terminate ends the whole tree at
// once.
func Freeze(int) {}

// Terminate ends the process tree rooted at pgid (the leader's pid): there
// is no SIGTERM on Windows, so the grace is not used and the tree is
// killed at once.
func Terminate(pgid int, _ time.Duration) error {
	if pgid <= 1 {
		return fmt.Errorf("refusing to end process %d", pgid)
	}
	if !Alive(pgid) {
		return nil
	}
	out, err := exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pgid)).CombinedOutput()
	if err != nil && Alive(pgid) {
		return fmt.Errorf("taskkill %d: %v: %s", pgid, err, out)
	}
	return nil
}

// Alive reports whether the leader is still running. Once it is gone,
// Windows offers no way to find its group's other members.
func Alive(pgid int) bool {
	p, err := os.FindProcess(pgid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}

// Members is not available on Windows.
func Members(int) ([]int, error) {
	return nil, errors.New("process groups are not listed on Windows")
}
