// Package proc starts shell commands as leaders of process groups of their
// own, so that a timeout, a cancellation or forge's exit can end everything a
// command started (its background children too), and so that forge waits for
// the command to exit rather than for its output pipe to close.
package proc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Shell returns the shell commands run in: bash when it is installed, else
// /bin/sh.
func Shell() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}

// Group is a command started in a process group whose id is its pid.
type Group struct {
	// Pgid is the process group id (the leader's pid).
	Pgid int
	// Out is the read end of the pipe that receives the command's standard
	// output and standard error together. The caller reads it and closes it.
	Out *os.File

	cmd   *exec.Cmd
	done  chan struct{}
	state *os.ProcessState
	err   error
}

// Start runs `shell -c command` in dir, in a new process group, with standard
// input empty (/dev/null) and its output going to g.Out. env nil means
// forge's environment.
func Start(shell, command, dir string, env []string) (*Group, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create output pipe: %w", err)
	}
	cmd := exec.Command(shell, "-c", command)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = pw, pw // an *os.File: no copying goroutine inside exec
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, err
	}
	// Only the children hold the write end now: the pipe reaches EOF when
	// the last of them closes it.
	pw.Close()
	g := &Group{Pgid: cmd.Process.Pid, Out: pr, cmd: cmd, done: make(chan struct{})}
	go func() {
		g.err = cmd.Wait()
		g.state = cmd.ProcessState
		close(g.done)
	}()
	return g, nil
}

// Done is closed when the leader (the shell) has exited and been reaped.
func (g *Group) Done() <-chan struct{} { return g.done }

// Exit describes how the leader ended; call it after Done.
func (g *Group) Exit() Exit {
	<-g.done
	return ExitOf(g.state, g.err)
}

// Exit is how a process ended.
type Exit struct {
	Code   int    // exit status, or -1 when killed by a signal
	Signal string // e.g. "SIGKILL" when killed by a signal
}

// String says how the process ended, for messages.
func (e Exit) String() string {
	if e.Signal != "" {
		return "killed by signal " + e.Signal
	}
	return "exit code " + strconv.Itoa(e.Code)
}

// ExitOf reads an Exit from a finished process's state.
func ExitOf(st *os.ProcessState, err error) Exit {
	if st == nil {
		return Exit{Code: -1, Signal: "unknown (" + fmt.Sprint(err) + ")"}
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		name := unix.SignalName(ws.Signal())
		if name == "" {
			name = ws.Signal().String()
		}
		return Exit{Code: -1, Signal: name}
	}
	return Exit{Code: st.ExitCode()}
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
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		// The command name is in parentheses and may hold spaces: fields
		// start after the last ')'. They are: state ppid pgrp ...
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			out = append(out, pid)
		}
	}
	return out, nil
}
