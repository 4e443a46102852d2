//go:build unix && !linux

package fsutil

import "golang.org/x/sys/unix"

// dirWalkFlags open a directory on the way to a file only to look beneath
// it.
const dirWalkFlags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
