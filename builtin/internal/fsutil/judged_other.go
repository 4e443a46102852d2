//go:build !unix

package fsutil

import (
	"io/fs"
	"os"
)

// isAt reports whether f is the file at one of paths (sameAt).
func (f *File) isAt(paths []string) bool {
	fi, err := f.f.Stat()
	return err == nil && sameAt(fi, paths)
}

// sameAt reports whether fi describes the file at one of paths. Outside
// Unix the last name is looked at without following it; the directories
// on the way are not checked.
func sameAt(fi fs.FileInfo, paths []string) bool {
	for _, p := range paths {
		if pi, err := os.Lstat(p); err == nil && os.SameFile(fi, pi) {
			return true
		}
	}
	return false
}
