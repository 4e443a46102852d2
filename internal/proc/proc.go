// Package proc starts and ends the processes of forge's tools. Bash, plugin
// tools and stdio MCP servers all start their processes through it, and
// forge's exit ends them all.
//
// # Process groups
//
// A command starts as the leader of a session and process group of its own
// (Start, GroupAttr), so that a timeout or a cancellation ends everything
// the command started, its background children too (Terminate: SIGTERM,
// then SIGKILL after a grace), and so that forge waits for the command to
// exit rather than for its output pipe to close.
//
// # Forge's exit
//
// A process group does not hold a command that calls setsid (it leaves the
// group) or double-forks (its parent exits, and it is reparented). So forge
// also keeps hold of the process tree (Guard): at start it becomes the
// child subreaper of its descendants (Linux, prctl PR_SET_CHILD_SUBREAPER),
// so that an orphan among them is reparented to forge instead of init; at
// exit it walks the parent links of /proc from its own pid and ends every
// live descendant, SIGTERM then SIGKILL after a grace, again and again
// until none is left (EndDescendants). Signals go through pid file
// descriptors, checked against the process's start time, so that a reused
// pid is never signalled.
//
// As a subreaper forge must reap the orphans that die, or they stay zombies
// until it exits. It cannot wait for any child (wait4(-1)): that would also
// take the exit status of a child os/exec started, whose Cmd.Wait would
// then fail. os/exec holds a pid file descriptor for each child it starts,
// from the clone until the child is reaped; the reaper (on SIGCHLD) only
// reaps a zombie child that forge holds no pid file descriptor for. Where
// pidfds are not available (Linux before 5.4) os/exec waits by pid, and
// zombie orphans are only reaped by Cleanup at exit.
//
// # Environment
//
// The processes of tools do not inherit the variables of forge's
// environment that look like secrets (API keys, tokens, passwords) unless
// the configuration passes them on by name (Environ).
package proc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// Shell returns the shell commands run in: bash when it is installed, else
// the system's shell (/bin/sh; cmd.exe on Windows).
func Shell() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return defaultShell
}

// shellFlag is the option that makes shell run a command string.
func shellFlag(shell string) string {
	if b := strings.ToLower(filepath.Base(shell)); b == "cmd" || b == "cmd.exe" {
		return "/C"
	}
	return "-c"
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
	// reported is the command's exit as a confinement's first process
	// reported it (StartConfined), before that process itself exited.
	reported *Exit
}

// Start runs `shell -c command` in dir, in a new process group (and, on
// Unix, a new session), with standard input empty (/dev/null) and its
// output going to g.Out. env is the command's whole environment; nil means
// forge's own without its secrets (Environ(os.Environ(), nil)).
func Start(shell, command, dir string, env []string) (*Group, error) {
	return StartConfined(shell, command, dir, env, nil)
}

// StartConfined is Start with the command confined by c (a sandbox); nil
// confines nothing. The confinement's first process leads the group and
// may outlive the command while what the command left behind runs: Done
// is closed as soon as it reports the command's exit with processes left
// (else once it has exited too), and Exit is the command's, not its own.
func StartConfined(shell, command, dir string, env []string, c Confiner) (*Group, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create output pipe: %w", err)
	}
	cmd := exec.Command(shell, shellFlag(shell), command)
	cmd.Dir = dir
	if env == nil {
		env = Environ(os.Environ(), nil)
	}
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = pw, pw // an *os.File: no copying goroutine inside exec
	cmd.SysProcAttr = GroupAttr()
	status, err := confine(cmd, c)
	if err != nil {
		pr.Close()
		pw.Close()
		return nil, err
	}
	err = cmd.Start()
	status.started()
	if err != nil {
		status.close()
		pr.Close()
		pw.Close()
		return nil, err
	}
	// Only the children hold the write end now: the pipe reaches EOF when
	// the last of them closes it.
	pw.Close()
	g := &Group{Pgid: cmd.Process.Pid, Out: pr, cmd: cmd, done: make(chan struct{})}
	exited := make(chan struct{})
	go func() {
		g.err = cmd.Wait()
		g.state = cmd.ProcessState
		close(exited)
	}()
	go func() {
		ex, more, ok := status.wait()
		if ok {
			g.reported = &ex
		}
		if !more {
			<-exited // the first process is exiting too: wait, so that the group is gone
		}
		close(g.done)
	}()
	return g, nil
}

// Done is closed when the command has exited: the leader (the shell) has
// exited and been reaped, or a confinement reported the command's exit.
func (g *Group) Done() <-chan struct{} { return g.done }

// Exit describes how the command ended; call it after Done.
func (g *Group) Exit() Exit {
	<-g.done
	if g.reported != nil {
		return *g.reported
	}
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
	if name, ok := signalOf(st); ok {
		return Exit{Code: -1, Signal: name}
	}
	return Exit{Code: st.ExitCode()}
}
