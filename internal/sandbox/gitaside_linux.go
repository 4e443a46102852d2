package sandbox

import (
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// setAside renames the control entry p under root out of git's sight
// (a bare repository's HEAD), and returns what it renamed to what. The
// directory holding it is reached from root without following a link,
// so a command that left a process behind cannot turn the rename onto
// another place.
func setAside(root, p string) (from, to string, err error) {
	target := p
	if filepath.Base(p) != ".git" {
		target = filepath.Join(p, "HEAD")
	}
	rel, err := filepath.Rel(root, filepath.Dir(target))
	if err != nil {
		return "", "", err
	}
	rfd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", "", err
	}
	defer unix.Close(rfd)
	dfd, err := unix.Openat2(rfd, rel, &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS})
	if err != nil {
		return "", "", fmt.Errorf("open %s: %w", filepath.Dir(target), err)
	}
	defer unix.Close(dfd)
	to = asideName(target)
	if err := unix.Renameat2(dfd, filepath.Base(target), dfd, filepath.Base(to), unix.RENAME_NOREPLACE); err != nil {
		return "", "", err
	}
	return target, to, nil
}
