package sandbox

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// quarantineSuffix is added to the name of a control entry a command
// created (.git becomes .git.forge-quarantine), or, for a bare
// repository, to its HEAD, so that git no longer finds a repository
// there.
const quarantineSuffix = ".forge-quarantine"

// settleWait bounds how long Explain waits for the sandboxes of the
// command it explains to end: longer only when the command left
// processes running, whose changes are then told with a later command's
// result.
const settleWait = 500 * time.Millisecond

// gitGuard keeps the git control entries of the writable roots: those
// there when a command starts are read-only in its sandbox; those that
// appear while a sandboxed command runs are set aside once everything it
// started has ended, and told with a result. The roots are scanned once;
// before and after each command only the directories whose status
// changed are read again.
type gitGuard struct {
	mu      sync.Mutex
	scans   map[string]*gitScan  // by root
	checked map[string]time.Time // every change before it is accounted for
	running map[*gitWatch]bool
	told    []string // what was set aside and not yet told
}

// gitWatch is one sandboxed command: when it started, in which roots.
type gitWatch struct {
	start time.Time
	roots []string
	done  chan struct{}
}

func newGitGuard() *gitGuard {
	return &gitGuard{scans: map[string]*gitScan{}, checked: map[string]time.Time{}, running: map[*gitWatch]bool{}}
}

// prepare brings the scans of roots up to date for a command that starts
// now and returns their control entries, and the command's watch (nil
// when there is nothing to watch). An entry that appeared since the last
// check is the person's (!git init) when no sandboxed command ran
// meanwhile, and kept; else it is set aside, since a command may have
// made it.
func (g *gitGuard) prepare(roots []string) ([]string, *gitWatch) {
	if g == nil || len(roots) == 0 {
		return nil, nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	busy := len(g.running) > 0
	var controls []string
	for _, root := range roots {
		s, ok := g.scans[root]
		if !ok {
			s = scanGit(root)
			g.scans[root] = s
		} else {
			for _, p := range s.changes(g.checked[root]) {
				if busy {
					g.told = append(g.told, setAsideLine(root, p))
				} else {
					s.adopt(p)
				}
			}
		}
		g.checked[root] = now
		for c := range s.controls {
			controls = append(controls, c)
		}
	}
	w := &gitWatch{start: now, roots: roots, done: make(chan struct{})}
	g.running[w] = true
	return controls, w
}

// known are the control entries the guard knows of.
func (g *gitGuard) known() []string {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, s := range g.scans {
		for c := range s.controls {
			out = append(out, c)
		}
	}
	return out
}

// cancel forgets a watch whose command never started.
func (g *gitGuard) cancel(w *gitWatch) {
	if w == nil {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running[w] {
		delete(g.running, w)
		close(w.done)
	}
}

// watchUntil settles w once r, held open by the sandbox's first process
// until everything in the sandbox has ended, reaches its end.
func (g *gitGuard) watchUntil(w *gitWatch, r io.ReadCloser) {
	_, _ = io.Copy(io.Discard, r)
	r.Close()
	g.settle(w)
}

// settle sets aside what appeared in w's roots since it started, once.
func (g *gitGuard) settle(w *gitWatch) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.settleLocked(w)
}

// settleLocked is settle with g.mu held.
func (g *gitGuard) settleLocked(w *gitWatch) {
	if !g.running[w] {
		return // finish settled it
	}
	now := time.Now()
	for _, root := range w.roots {
		s := g.scans[root]
		if s == nil {
			continue
		}
		for _, p := range s.changes(w.start) {
			g.told = append(g.told, setAsideLine(root, p))
		}
		if now.After(g.checked[root]) {
			g.checked[root] = now
		}
	}
	delete(g.running, w)
	close(w.done)
}

// finish waits, at most d, for every watched command to end, settles the
// ones still running as things are, and returns what was set aside and
// not yet told: forge is about to exit.
func (g *gitGuard) finish(d time.Duration) []string {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	var waits []chan struct{}
	for w := range g.running {
		waits = append(waits, w.done)
	}
	g.mu.Unlock()
	waitAll(waits, d)
	g.mu.Lock()
	defer g.mu.Unlock()
	for w := range g.running {
		g.settleLocked(w)
	}
	out := g.told
	g.told = nil
	return out
}

// waitAll waits for every channel to close, at most d in all.
func waitAll(chans []chan struct{}, d time.Duration) {
	expired := make(chan struct{})
	timer := time.AfterFunc(d, func() { close(expired) })
	defer timer.Stop()
	for _, c := range chans {
		select {
		case <-c:
		case <-expired:
			return
		}
	}
}

// tell waits, at most settleWait, for the commands started at or after
// since to end, and returns what was set aside since it last told, as
// lines for the command's result.
func (g *gitGuard) tell(since time.Time) []string {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	var waits []chan struct{}
	for w := range g.running {
		if !w.start.Before(since) {
			waits = append(waits, w.done)
		}
	}
	g.mu.Unlock()
	waitAll(waits, settleWait)
	g.mu.Lock()
	defer g.mu.Unlock()
	out := g.told
	g.told = nil
	return out
}

// setAsideLine sets aside the control entry p under root and says what
// was done, and why, for the model and the person.
func setAsideLine(root, p string) string {
	what := "a git repository"
	if filepath.Base(p) != ".git" {
		what = "a bare git repository"
	}
	from, to, err := setAside(root, p)
	if err != nil {
		return fmt.Sprintf("[sandbox] a sandboxed command created %s at %s, whose configuration and hooks git would run outside "+
			"the sandbox, and forge could not set it aside (%v): do not run git there before reading its config", what, p, err)
	}
	return fmt.Sprintf("[sandbox] a sandboxed command created %s at %s, whose configuration and hooks git would run outside "+
		"the sandbox: forge renamed %s to %s so that git ignores it; the person can run !git init there (outside the sandbox), "+
		"or rename it back after reading its config", what, p, from, to)
}

// asideName is a free name beside p for it set aside.
func asideName(p string) string {
	name := p + quarantineSuffix
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); os.IsNotExist(err) {
			return name
		}
		name = fmt.Sprintf("%s%s-%d", p, quarantineSuffix, i)
	}
}
