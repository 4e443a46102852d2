package proc

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Confiner confines a command (a sandbox): Wrap changes cmd, not yet
// started, so that what it runs is confined. status is the write end of a
// pipe the confinement's first process may report the command's exit on
// (WriteExit), for that process may outlive the command; release is
// called once cmd has started, or failed to. tools.Sandbox is one.
type Confiner interface {
	Wrap(cmd *exec.Cmd, status *os.File) (release func(), err error)
}

// WriteExit reports a command's exit on w, as a confinement's first
// process does for StartConfined; more says processes the command left
// behind still run, so that the first process goes on (else it is about
// to exit itself).
func WriteExit(w io.Writer, e Exit, more bool) error {
	rest := "alone"
	if more {
		rest = "more"
	}
	_, err := fmt.Fprintf(w, "%d %s %s\n", e.Code, rest, e.Signal)
	return err
}

// readExit reads what WriteExit wrote; false when r ended without it.
func readExit(r io.Reader) (e Exit, more, ok bool) {
	line, err := bufio.NewReader(io.LimitReader(r, 128)).ReadString('\n')
	if err != nil {
		return Exit{}, false, false
	}
	f := strings.SplitN(strings.TrimSuffix(line, "\n"), " ", 3)
	if len(f) != 3 || (f[1] != "alone" && f[1] != "more") {
		return Exit{}, false, false
	}
	n, err := strconv.Atoi(f[0])
	if err != nil {
		return Exit{}, false, false
	}
	return Exit{Code: n, Signal: f[2]}, f[1] == "more", true
}

// statusPipe is the pipe of one confined command's exit; a nil one (no
// confinement) reports nothing.
type statusPipe struct {
	r, w    *os.File
	release func()
}

// confine hands cmd to c with the write end of a new status pipe.
func confine(cmd *exec.Cmd, c Confiner) (*statusPipe, error) {
	if c == nil {
		return nil, nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("create status pipe: %w", err)
	}
	release, err := c.Wrap(cmd, w)
	if err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	return &statusPipe{r: r, w: w, release: release}, nil
}

// started closes what only the child needed.
func (s *statusPipe) started() {
	if s == nil {
		return
	}
	s.w.Close()
	if s.release != nil {
		s.release()
	}
}

// close gives up on the pipe (the command did not start).
func (s *statusPipe) close() {
	if s != nil {
		s.r.Close()
	}
}

// wait returns the command's exit once reported, and whether processes
// it left behind still run; ok is false when the pipe ended without one
// (no confinement, or its first process died first).
func (s *statusPipe) wait() (e Exit, more, ok bool) {
	if s == nil {
		return Exit{}, false, false
	}
	defer s.r.Close()
	return readExit(s.r)
}
