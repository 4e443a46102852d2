//go:build unix

package fsutil

import (
	"errors"
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// readFlags open a file for reading without waiting for a FIFO's writer
// and without making a terminal the process's controlling terminal.
const readFlags = os.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY

// dirFlags open a directory for listing, and fail at once on anything else.
const dirFlags = os.O_RDONLY | unix.O_NONBLOCK | unix.O_DIRECTORY

// noWaitReader returns a reader of f that calls read(2) directly: the file
// was opened non-blocking, so a stream with nothing to read answers EAGAIN,
// which becomes ErrWouldBlock. os.File.Read would instead park the goroutine
// until data comes, which for /proc/kmsg may be never.
func noWaitReader(f *os.File) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	r := &rawReader{f: f, rc: rc}
	r.readFD = r.read // made once: a method value per Read would allocate
	return r
}

// rawReader is noWaitReader's reader; like the file, it is not for
// concurrent use.
type rawReader struct {
	f      *os.File
	rc     syscall.RawConn
	readFD func(fd uintptr) bool

	// The arguments and results of the read in progress.
	p   []byte
	n   int
	err error
}

// read does one read(2), retried on EINTR, and never waits for readiness.
func (r *rawReader) read(fd uintptr) bool {
	for {
		r.n, r.err = unix.Read(int(fd), r.p)
		if r.err != unix.EINTR {
			return true
		}
	}
}

func (r *rawReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	r.p = p
	err := r.rc.Read(r.readFD)
	r.p = nil
	switch {
	case err != nil:
		return 0, err
	case errors.Is(r.err, unix.EAGAIN):
		return 0, ErrWouldBlock
	case r.err != nil:
		return 0, &os.PathError{Op: "read", Path: r.f.Name(), Err: r.err}
	case r.n == 0:
		return 0, io.EOF
	}
	return r.n, nil
}
