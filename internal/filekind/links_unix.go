//go:build unix

package filekind

import (
	"io/fs"
	"syscall"
)

// HardLinked reports whether the file has other names.
func HardLinked(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
