//go:build windows

package session

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// tryLock takes an exclusive lock on f without waiting. The lock covers a
// byte far past the holder's line, since a locked range cannot be read by
// others on Windows, and the next forge reads the line to name the holder.
func tryLock(f *os.File) error {
	ol := new(windows.Overlapped)
	ol.OffsetHigh = 0x7fffffff
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
		return errLocked
	}
	return err
}
