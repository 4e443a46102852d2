//go:build unix

package memory

import (
	"os"

	"golang.org/x/sys/unix"
)

// openNoWait opens path for reading without waiting for a FIFO's writer,
// without making a terminal forge's, and without following a final link.
func openNoWait(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_NOFOLLOW, 0)
}
