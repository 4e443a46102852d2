package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ErrInUse says another process (or another Log of this one) has the
// session open for writing; an *InUseError names it.
var ErrInUse = errors.New("session in use")

// InUseError says session ID is written by another forge: PID is that
// process (0 when its lock file does not say), Program what it runs.
type InUseError struct {
	ID      string
	PID     int
	Program string
}

func (e *InUseError) Error() string {
	who := "another forge"
	if e.PID > 0 {
		who = fmt.Sprintf("%s (pid %d)", e.Program, e.PID)
	}
	return fmt.Sprintf("session %s is in use by %s; wait for it to end or start a new session", e.ID, who)
}

// Is makes errors.Is(err, ErrInUse) hold.
func (e *InUseError) Is(target error) bool { return target == ErrInUse }

func lockPath(dir, id string) string { return filepath.Join(dir, id+".lock") }

// errLocked is what tryLock returns when another open file holds the lock.
var errLocked = errors.New("locked")

// sessionLock is a session held for writing: an advisory lock of the OS on
// ID.lock, taken on an open file, so that the kernel lets it go when the
// process ends however it ends (kill -9 included) and no lock outlives its
// holder. The file holds the holder's pid and program, for the message the
// next forge gives.
type sessionLock struct{ f *os.File }

// maxLockTries bounds the retries of a lock whose file was removed (with
// its session) between being opened and being locked.
const maxLockTries = 8

// lockSession takes the lock of session id in dir, or says who holds it.
func lockSession(dir, id string) (*sessionLock, error) {
	path := lockPath(dir, id)
	for range maxLockTries {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("lock session %s: %w", id, err)
		}
		if err := tryLock(f); err != nil {
			holder := readHolder(f)
			_ = f.Close()
			if errors.Is(err, errLocked) {
				return nil, &InUseError{ID: id, PID: holder.pid, Program: holder.program}
			}
			return nil, fmt.Errorf("lock session %s: %w", id, err)
		}
		// A Remove may have taken the file away after it was opened: the
		// lock is only good on the file that is there now.
		if same(f, path) {
			writeHolder(f)
			return &sessionLock{f: f}, nil
		}
		_ = f.Close()
	}
	return nil, fmt.Errorf("lock session %s: its lock file keeps changing", id)
}

// same says f is the file at path.
func same(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// release lets the lock go; the file stays, for the next holder.
func (l *sessionLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the file releases the lock
	l.f = nil
	return err
}

// holder is what a lock file says of the process that holds it.
type holder struct {
	pid     int
	program string
}

// maxHolder bounds what is read of a lock file.
const maxHolder = 256

// writeHolder records this process in f. A failure only costs the next
// forge's message the pid: the lock holds all the same.
func writeHolder(f *os.File) {
	line := strconv.Itoa(os.Getpid()) + " " + programName() + "\n"
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(line), 0)
	}
}

// programName is this process's program, as a word for a message.
func programName() string {
	if len(os.Args) == 0 {
		return "forge"
	}
	return cleanProgram(filepath.Base(os.Args[0]))
}

// readHolder reads what f says of its holder; a zero holder when it says
// nothing sensible (it is being written, or it was damaged).
func readHolder(f *os.File) holder {
	b, err := io.ReadAll(io.NewSectionReader(f, 0, maxHolder))
	if err != nil {
		return holder{}
	}
	pidText, program, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return holder{}
	}
	return holder{pid: pid, program: cleanProgram(program)}
}

// cleanProgram keeps a program name that is one short printable word, so
// that a lock file cannot put anything else into a message; else "forge".
func cleanProgram(s string) string {
	if s == "" || len(s) > 64 {
		return "forge"
	}
	for _, r := range s {
		if r <= ' ' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return "forge"
		}
	}
	return s
}
