package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/bmatcuk/doublestar/v4"
)

// Credentials kept under a name rather than a place (.env*, *.pem) are
// hidden where they are found: below the roots of Policy.NameRoots (the
// home directory, the project's parent), a few levels down, outside the
// writable directories (a project's own .env is its own; its tests read
// it). The roots are scanned once; before each command only the
// directories whose status changed are read again. A command cannot make
// one outside the writable places itself, so what appears later is the
// person's, found at the next command.

// Bounds of the name scan: how deep below a root, how many directories
// in all, how many files hidden.
const (
	nameDepth    = 4
	maxNameDirs  = 20000
	maxNameFiles = 500
)

// nameScan is one root scanned for names.
type nameScan struct {
	depth   map[string]int // directory scanned → depth below the root
	files   map[string]bool
	checked time.Time
}

// nameGuard holds the scans of a sandbox's name roots.
type nameGuard struct {
	mu    sync.Mutex
	scans map[string]*nameScan
}

func newNameGuard() *nameGuard { return &nameGuard{scans: map[string]*nameScan{}} }

// find returns the files under roots whose names match globs, bringing
// the scans up to date.
func (g *nameGuard) find(roots, globs []string) []string {
	if g == nil || len(globs) == 0 {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, root := range roots {
		s, ok := g.scans[root]
		now := time.Now()
		if !ok {
			s = &nameScan{depth: map[string]int{}, files: map[string]bool{}}
			s.walk(root, 0, globs)
			g.scans[root] = s
		} else {
			s.refresh(globs)
		}
		s.checked = now
		for f := range s.files {
			if len(out) < maxNameFiles {
				out = append(out, f)
			}
		}
	}
	return out
}

// cached are the files found at the last check, as they were.
func (g *nameGuard) cached() []string {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, s := range g.scans {
		for f := range s.files {
			out = append(out, f)
		}
	}
	return out
}

// walk scans dir, depth levels below its root, and the directories below
// it not scanned before.
func (s *nameScan) walk(dir string, depth int, globs []string) {
	type item struct {
		dir   string
		depth int
	}
	stack := []item{{dir, depth}}
	for len(stack) > 0 && len(s.depth) < maxNameDirs {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ents, err := readDir(it.dir)
		if err != nil {
			continue
		}
		s.depth[it.dir] = it.depth
		for _, e := range ents {
			p := filepath.Join(it.dir, e.Name())
			switch {
			case e.Type().IsRegular() && nameMatches(e.Name(), globs):
				s.files[p] = true
			case e.IsDir() && it.depth < nameDepth && !skipDirs[e.Name()] && !strings.HasPrefix(e.Name(), "."):
				if _, known := s.depth[p]; !known { // a known one is checked on its own
					stack = append(stack, item{p, it.depth + 1})
				}
			}
		}
	}
}

// refresh reads again the directories whose status changed since the
// last check, and forgets the files that are gone.
func (s *nameScan) refresh(globs []string) {
	since := s.checked.Add(-ctimeSlack)
	for f := range s.files {
		if fi, err := os.Lstat(f); err != nil || !fi.Mode().IsRegular() {
			delete(s.files, f)
		}
	}
	type item struct {
		dir   string
		depth int
	}
	var changed []item
	for d, depth := range s.depth {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() {
			delete(s.depth, d)
			continue
		}
		if changedSince(fi, since) {
			changed = append(changed, item{d, depth})
		}
	}
	for _, c := range changed {
		s.walk(c.dir, c.depth, globs)
	}
}

// nameMatches says a file name matches one of globs.
func nameMatches(name string, globs []string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, name); ok {
			return true
		}
	}
	return false
}
