// Package proc starts commands as leaders of process groups of their own, so
// that a timeout, a cancellation or forge's exit can end everything a command
// started (its background children too), and so that forge waits for the
// command to exit rather than for its output pipe to close. Bash, plugin
// tools and stdio MCP servers all start their processes through it.
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
}

// Start runs `shell -c command` in dir, in forge's environment, in a new
// process group (and, on Unix, a new session), with standard input empty
// (/dev/null) and its output going to g.Out.
func Start(shell, command, dir string) (*Group, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create output pipe: %w", err)
	}
	cmd := exec.Command(shell, shellFlag(shell), command)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = pw, pw // an *os.File: no copying goroutine inside exec
	cmd.SysProcAttr = GroupAttr()
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
	if name, ok := signalOf(st); ok {
		return Exit{Code: -1, Signal: name}
	}
	return Exit{Code: st.ExitCode()}
}
