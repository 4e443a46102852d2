package config

import (
	"os"
	"path/filepath"
)

// ProjectDirName is the directory, at a project's root, that holds its forge
// settings, commands and agents.
const ProjectDirName = ".forge"

// FindProject returns the directory holding the project's .forge directory:
// the nearest one from dir upward, stopping at the repository's root (the
// first directory with a .git entry). Outside a repository only dir itself is
// looked at, so a stray ~/.forge never becomes every directory's project. ""
// means there is none.
func FindProject(dir string) string {
	root := repositoryRoot(dir)
	if root == "" {
		if isDir(filepath.Join(dir, ProjectDirName)) {
			return dir
		}
		return ""
	}
	for d := dir; ; d = filepath.Dir(d) {
		if isDir(filepath.Join(d, ProjectDirName)) {
			return d
		}
		if d == root || d == filepath.Dir(d) {
			return ""
		}
	}
}

// repositoryRoot is the nearest directory from dir upward with a .git entry
// (a directory, or a file in a worktree); "" when there is none.
func repositoryRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
