//go:build unix

package fsutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// isAt reports whether f is the file at one of paths (sameAt).
func (f *File) isAt(paths []string) bool {
	fi, err := f.f.Stat()
	return err == nil && sameAt(fi, paths)
}

// sameAt reports whether fi describes the file at one of paths (absolute,
// every link resolved), each reached without following any link: every
// directory on the way is opened beneath the one before with O_NOFOLLOW,
// and the last name is looked at without following it. A link swapped
// in anywhere on a path since it was resolved makes that path miss; a
// file put in the judged file's place is some other file, and misses too.
func sameAt(fi fs.FileInfo, paths []string) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	for _, p := range paths {
		dev, ino, err := statNoFollow(p)
		if err == nil && dev == uint64(st.Dev) && ino == uint64(st.Ino) {
			return true
		}
	}
	return false
}

// statNoFollow identifies the file at the absolute path p, following no
// link on the way.
func statNoFollow(p string) (dev, ino uint64, err error) {
	p = filepath.Clean(p)
	if !filepath.IsAbs(p) {
		return 0, 0, &os.PathError{Op: "stat", Path: p, Err: syscall.EINVAL}
	}
	dir, err := unix.Open("/", dirWalkFlags, 0)
	if err != nil {
		return 0, 0, err
	}
	defer func() { _ = unix.Close(dir) }()
	names := strings.Split(strings.TrimPrefix(p, "/"), "/")
	last := names[len(names)-1]
	for _, name := range names[:len(names)-1] {
		next, err := unix.Openat(dir, name, dirWalkFlags|unix.O_NOFOLLOW, 0)
		if err != nil {
			return 0, 0, err
		}
		_ = unix.Close(dir)
		dir = next
	}
	if last == "" { // p is "/"
		last = "."
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dir, last, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, 0, err
	}
	return uint64(st.Dev), uint64(st.Ino), nil
}
