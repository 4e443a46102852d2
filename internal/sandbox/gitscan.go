package sandbox

import (
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// A git control directory under a writable root is code waiting to run:
// git obeys its configuration (core.fsmonitor, core.hooksPath, filters,
// the pager) and its hooks when the person, a prompt or an editor runs
// git there, outside the sandbox. So the sandbox keeps the ones that
// exist when a command starts read-only, and sets aside the ones a
// command creates (gitGuard). A control entry is a .git (directory, the
// file of a worktree, or a link), or a directory that is a bare
// repository, which git uses when run inside it. A writable root itself
// can be made a bare repository too: one that is not one when first
// scanned is set aside when it becomes one; one that is stays writable,
// since keeping it read-only would keep the whole root so.

// maxScanDirs bounds the directories scanned under one writable root
// before each command; a larger tree is scanned that far.
const maxScanDirs = 20000

// skipDirs are trees of dependencies and caches, often tens of thousands
// of directories, that nobody runs git in: not scanned.
var skipDirs = map[string]bool{"node_modules": true, ".venv": true, "venv": true, "__pycache__": true,
	".tox": true, ".mypy_cache": true, ".pytest_cache": true, ".gradle": true}

// ctimeSlack allows for the coarse clock the kernel stamps changes with.
const ctimeSlack = time.Second

// gitScan is one writable root as a command found it: the directories
// scanned and the control entries in them.
type gitScan struct {
	root     string
	dirs     map[string]bool
	controls map[string]bool
	complete bool // false when maxScanDirs stopped it
	// rootGit: the root was a bare repository when scanned, or the
	// person made it one (adopt); it is not in controls.
	rootGit bool
}

// scanGit scans root, not following links nor entering control
// directories or skipDirs.
func scanGit(root string) *gitScan {
	s := &gitScan{root: root, dirs: map[string]bool{}, controls: map[string]bool{}, complete: true}
	if ents, err := readDir(root); err == nil {
		s.rootGit = isGitDir(root, ents)
	}
	for _, c := range s.walk(root, maxScanDirs) {
		s.controls[c] = true
	}
	return s
}

// adopt keeps the control entry p, found by changes, as the person's:
// read-only from then on, or, the root, left as it is.
func (s *gitScan) adopt(p string) {
	if p == s.root {
		s.rootGit = true
		return
	}
	s.controls[p] = true
}

// walk scans dir and below into s.dirs, until s holds budget
// directories, and returns the control entries it found.
func (s *gitScan) walk(dir string, budget int) []string {
	var found []string
	stack := []string{dir}
	for len(stack) > 0 {
		if len(s.dirs) >= budget {
			s.complete = false
			break
		}
		d := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ents, err := readDir(d)
		if err != nil {
			continue
		}
		s.dirs[d] = true
		if d != s.root && isGitDir(d, ents) {
			found = append(found, d)
			continue
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			switch {
			case e.Name() == ".git":
				found = append(found, p)
			case e.Type().IsDir() && !skipDirs[e.Name()]:
				stack = append(stack, p)
			}
		}
	}
	return found
}

// changes are the control entries that appeared since t, not yet in
// s.controls: only the directories whose status changed since then (a
// new entry, a rename) are read again, and new ones scanned. ctime, not mtime: a command can set a directory's
// mtime back, never its ctime.
func (s *gitScan) changes(t time.Time) []string {
	var found []string
	t = t.Add(-ctimeSlack)
	known := make([]string, 0, len(s.dirs))
	for d := range s.dirs {
		known = append(known, d)
	}
	for _, d := range known {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() || !changedSince(fi, t) {
			continue
		}
		ents, err := readDir(d)
		if err != nil {
			continue
		}
		switch {
		case d == s.root:
			// Its HEAD is set aside; what else it holds is still looked at.
			if !s.rootGit && isGitDir(d, ents) {
				found = append(found, d)
			}
		case !s.controls[d] && isGitDir(d, ents):
			found = append(found, d)
			continue
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			switch {
			case e.Name() == ".git":
				// A known one is read-only, but a link cannot be
				// mounted over: a new link in its place is new.
				if !s.controls[p] || e.Type()&fs.ModeSymlink != 0 && linkChanged(p, t) {
					found = append(found, p)
				}
			case e.Type().IsDir() && !skipDirs[e.Name()] && !s.dirs[p]:
				found = append(found, s.walk(p, len(s.dirs)+maxScanDirs)...)
			}
		}
	}
	return found
}

// linkChanged says the link p was made or changed at or after t.
func linkChanged(p string, t time.Time) bool {
	fi, err := os.Lstat(p)
	return err == nil && changedSince(fi, t)
}

// readDir lists a directory unsorted.
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// isGitDir says the entries of dir make it a repository git would use
// when run in it: HEAD, objects and refs.
func isGitDir(dir string, ents []fs.DirEntry) bool {
	var head, objects, refs, common bool
	for _, e := range ents {
		switch e.Name() {
		case "HEAD":
			head = !e.IsDir()
		case "objects":
			objects = searchable(dir, e)
		case "refs":
			refs = searchable(dir, e)
		case "commondir":
			// A worktree's git directory: git looks for objects and refs,
			// and the configuration, where the file points.
			common = !e.IsDir()
		}
	}
	return head && (common || objects && refs)
}

// searchable says git would take the entry e of dir for a directory of
// a repository: git only asks that it can search it, which a link
// passes, and so does an executable file. A link counts whatever it
// points to now, since its target can appear later without dir
// changing; it is never followed.
func searchable(dir string, e fs.DirEntry) bool {
	switch {
	case e.IsDir() || e.Type()&fs.ModeSymlink != 0:
		return true
	case e.Type().IsRegular():
		fi, err := os.Lstat(filepath.Join(dir, e.Name()))
		return err == nil && fi.Mode().Perm()&0o111 != 0
	}
	return false
}
