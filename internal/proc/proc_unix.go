//go:build unix

package proc

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

const defaultShell = "/bin/sh"

// GroupAttr makes the child the leader of a new session, and so of a new
// process group (set it as an exec.Cmd's SysProcAttr; Terminate ends the group). A session of its own also has no controlling terminal: a
// program that opens /dev/tty to prompt (sudo, ssh, git credentials) fails
// at once instead of being stopped (SIGTTIN) as a background group of
// forge's terminal and hanging until the timeout.
func GroupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// signalOf reports the signal that ended the process, if one did.
func signalOf(st *os.ProcessState) (string, bool) {
	ws, ok := st.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return "", false
	}
	name := unix.SignalName(ws.Signal())
	if name == "" {
		name = ws.Signal().String()
	}
	return name, true
}

// Terminate ends the whole group: SIGTERM to every member, then, if any is
// still alive after grace, SIGKILL. It returns once the group is gone or
// SIGKILL was sent. Ending a group that is already gone is not an error.
func Terminate(pgid int, grace time.Duration) error {
	if pgid <= 1 {
		return fmt.Errorf("refusing to signal process group %d", pgid)
	}
	if err := syscall.Kill(-pgid, syscall.SIGTERM); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return fmt.Errorf("signal process group %d: %w", pgid, err)
	}
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !Alive(pgid) {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("kill process group %d: %w", pgid, err)
	}
	return nil
}

// Freeze stops every process of the group (SIGSTOP), so that none can
// start another while its tree is being ended: a shell between a scan of
// its children and the signal to its group could otherwise start one that
// leaves the group (setsid) and outlives both.
func Freeze(pgid int) {
	if pgid > 1 {
		_ = syscall.Kill(-pgid, syscall.SIGSTOP)
	}
}

// Alive reports whether the group has a member that is not a zombie. Zombies
// are left out because an init that does not reap orphans (as in some
// containers) would otherwise keep a dead group "alive" forever.
func Alive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	members, err := Members(pgid)
	if err != nil {
		return true // no /proc: trust kill(2)
	}
	return len(members) > 0
}

// Members lists the pids of the live (non-zombie) processes of a group, read
// from /proc. It fails where /proc is not available.
func Members(pgid int) ([]int, error) {
	all, err := processes()
	if err != nil {
		return nil, err
	}
	var out []int
	for _, p := range all {
		if p.pgid == pgid && !p.dead() {
			out = append(out, p.pid)
		}
	}
	return out, nil
}
