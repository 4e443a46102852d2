//go:build !linux

package sandbox

import (
	"os"
	"path/filepath"
)

// setAside renames the control entry p out of git's sight (a bare
// repository's HEAD), and returns what it renamed to what.
func setAside(_, p string) (from, to string, err error) {
	target := p
	if filepath.Base(p) != ".git" {
		target = filepath.Join(p, "HEAD")
	}
	to = asideName(target)
	return target, to, os.Rename(target, to)
}
