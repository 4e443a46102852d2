//go:build !unix

package fsutil

import (
	"io"
	"os"
)

// readFlags open a file for reading. Outside Unix there are no FIFOs that
// block an open.
const readFlags = os.O_RDONLY

// dirFlags open a directory for listing.
const dirFlags = os.O_RDONLY

// noWaitReader reads f as usual: the streams that wait for data are a Unix
// matter.
func noWaitReader(f *os.File) io.Reader { return f }
