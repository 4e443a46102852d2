//go:build unix

package agent

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// openNoWait opens path for reading without waiting for a FIFO's writer,
// without making a terminal forge's, and without following a final link.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_NOFOLLOW, 0)
}

// hardLinked reports whether the file has other names: a hard link made
// in the project to a file outside it (~/.ssh/id_rsa) is a regular file
// inside it by every other test.
func hardLinked(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
