package fsutil

import "golang.org/x/sys/unix"

// dirWalkFlags open a directory on the way to a file only to look beneath
// it: O_PATH needs no permission to read the directory.
const dirWalkFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC
