//go:build unix

package app

import (
	"os"
	"syscall"
)

// inode is fi's inode number; 0 when the system gives none.
func inode(fi os.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
