//go:build unix

package fsutil

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// readFlags open a file for reading without waiting for a FIFO's writer
// and without making a terminal the process's controlling terminal.
const readFlags = os.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY

// dirFlags open a directory for listing, and fail at once on anything else.
const dirFlags = os.O_RDONLY | unix.O_NONBLOCK | unix.O_DIRECTORY

// noWaitReader reads f with read(2) directly: the file was opened
// non-blocking, so a stream with nothing to read answers EAGAIN, which
// becomes ErrWouldBlock. os.File.Read would instead park the goroutine
// until data comes, which for /proc/kmsg may be never.
func noWaitReader(f *os.File) func([]byte) (int, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return f.Read
	}
	return func(p []byte) (int, error) {
		if len(p) == 0 {
			return 0, nil
		}
		var n int
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			for {
				n, rerr = unix.Read(int(fd), p)
				if rerr != unix.EINTR {
					return true // never wait for readiness
				}
			}
		})
		switch {
		case err != nil:
			return 0, err
		case errors.Is(rerr, unix.EAGAIN):
			return 0, ErrWouldBlock
		case rerr != nil:
			return 0, &os.PathError{Op: "read", Path: f.Name(), Err: rerr}
		case n == 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
