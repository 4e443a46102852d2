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

// Walk visits the non-directory entries under root, directory by directory
// in lexical order (the order of `rg --sort path`), never following symbolic
// links and always skipping .git. Ignored directories are pruned before they
// are read, which is what keeps a search of a big tree fast. Unreadable
// directories are skipped. Walk stops with ctx's error when ctx ends.
func Walk(ctx context.Context, root string, opts WalkOptions, fn WalkFunc) error {
	w := &walker{ctx: ctx, opts: opts, fn: fn}
	if opts.Gitignore {
		w.stack = parentIgnores(root)
		w.gitignore = w.stack != nil
	}
	err := w.dir(root, "", 0)
	if errors.Is(err, fs.SkipAll) {
		return nil
	}
	return err
}

type walker struct {
	ctx       context.Context
	opts      WalkOptions
	fn        WalkFunc
	gitignore bool      // inside a repository and asked to honour .gitignore
	stack     []*Ignore // ignore files in force, outermost first; nil entries allowed
}

func (w *walker) dir(path, rel string, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil // unreadable: skipped, as ripgrep does (it only warns)
	}
	pushed := false
	if w.gitignore {
		if ig := LoadIgnore(filepath.Join(path, ".gitignore"), path); ig != nil {
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
		childRel := name
		if rel != "" {
			childRel = rel + "/" + name
		}
		isDir := d.IsDir()
		if w.gitignore && w.ignored(childPath, isDir) {
			continue
		}
		if isDir {
			if w.opts.MaxDepth > 0 && depth+1 >= w.opts.MaxDepth {
				continue
			}
			if err := w.dir(childPath, childRel, depth+1); err != nil {
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
