package fsutil

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WalkOptions say which entries Walk visits. The zero value visits
// everything but .git.
type WalkOptions struct {
	// Gitignore honours .gitignore files (the tree's own and its parents' up
	// to the repository root) and .git/info/exclude. As in git and ripgrep,
	// they apply only inside a git repository: a .git in the root or above.
	Gitignore bool
	// SkipHidden skips files and directories whose names start with a dot
	// (ripgrep's default). The root itself is always walked.
	SkipHidden bool
	// MaxDepth bounds the depth of the entries visited (1 = the root's own
	// entries); 0 means no bound.
	MaxDepth int
}

// WalkFunc receives each entry that is not a directory: its absolute path,
// its path relative to the root (slash-separated) and its entry. Returning
// fs.SkipAll stops the walk without error; any other error stops it and is
// returned by Walk.
type WalkFunc func(path, rel string, d fs.DirEntry) error

// Walk visits the non-directory entries under t, directory by directory in
// lexical order (the order of `rg --sort path`), never following symbolic
// links and always skipping .git. Ignored directories are pruned before they
// are read, which is what keeps a search of a big tree fast. Unreadable
// directories are skipped. Walk stops with ctx's error when ctx ends. Its
// directories are listed, and its .gitignore files read, through t's root
// when it has one, so that a directory swapped for a link during the walk
// cannot take it outside.
func (t *Target) Walk(ctx context.Context, opts WalkOptions, fn WalkFunc) error {
	w := &walker{ctx: ctx, opts: opts, fn: fn, t: t}
	if opts.Gitignore {
		w.stack = parentIgnores(t.Path)
		w.gitignore = w.stack != nil
	}
	err := w.dir("", 0)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

type walker struct {
	ctx       context.Context
	opts      WalkOptions
	fn        WalkFunc
	t         *Target   // the directory walked
	gitignore bool      // inside a repository and asked to honour .gitignore
	stack     []*Ignore // ignore files in force, outermost first; nil entries allowed
}

// dir walks the directory rel ("" for the root).
func (w *walker) dir(rel string, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	entries, err := w.t.ReadDir(rel)
	if err != nil {
		return nil // unreadable: skipped, as ripgrep does (it only warns)
	}
	path := w.t.HostPath(rel)
	pushed := false
	if w.gitignore {
		if ig := loadIgnore(w.t, joinRel(rel, ".gitignore"), path); ig != nil {
			w.stack = append(w.stack, ig)
			pushed = true
		}
	}
	defer func() {
		if pushed {
			w.stack = w.stack[:len(w.stack)-1]
		}
	}()
	for _, d := range entries {
		name := d.Name()
		if name == ".git" {
			continue
		}
		if w.opts.SkipHidden && strings.HasPrefix(name, ".") {
			continue
		}
		childPath := filepath.Join(path, name)
		childRel := joinRel(rel, name)
		isDir := d.IsDir()
		if w.gitignore && w.ignored(childPath, isDir) {
			continue
		}
		if isDir {
			if w.opts.MaxDepth > 0 && depth+1 >= w.opts.MaxDepth {
				continue
			}
			if err := w.dir(childRel, depth+1); err != nil {
				return err
			}
			continue
		}
		if err := w.fn(childPath, childRel, d); err != nil {
			return err
		}
	}
	return nil
}

// joinRel joins a slash-separated relative path and a name.
func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// ignored asks the ignore files in force, innermost first; the first that
// has an opinion decides (a deeper .gitignore overrides a shallower one).
func (w *walker) ignored(path string, isDir bool) bool {
	for i := len(w.stack) - 1; i >= 0; i-- {
		ig := w.stack[i]
		if ig == nil || !Within(path, ig.Base) || path == ig.Base {
			continue
		}
		rel := filepath.ToSlash(path[len(ig.Base):])
		rel = strings.TrimPrefix(rel, "/")
		switch ig.Match(rel, isDir) {
		case 1:
			return true
		case -1:
			return false
		}
	}
	return false
}

// parentIgnores finds the git repository that holds root and returns the ignore
// files that apply to root from above: .git/info/exclude, then the
// .gitignore of every directory from the repository's root down to root's
// parent. It returns nil when root is not inside a repository.
func parentIgnores(root string) []*Ignore {
	repo := ""
	for dir := root; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			repo = dir
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
	// A non-nil, possibly empty, slice marks "inside a repository".
	stack := make([]*Ignore, 0, 4)
	stack = append(stack, LoadIgnore(filepath.Join(repo, ".git", "info", "exclude"), repo))
	var chain []string
	for dir := filepath.Dir(root); Within(dir, repo) && root != repo; dir = filepath.Dir(dir) {
		chain = append(chain, dir)
		if dir == repo {
			break
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		stack = append(stack, LoadIgnore(filepath.Join(chain[i], ".gitignore"), chain[i]))
	}
	return stack
}
