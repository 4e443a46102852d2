package proc

import (
	"errors"
	"os"
	"time"
)

// Guard is forge's hold on every process its tools start, for the whole
// life of forge. StartGuard, called once as forge starts, makes forge the
// subreaper of its descendants (Linux) and reaps the orphans that are
// reparented to it; Cleanup, called as forge exits (by itself or on a
// signal), ends every process still descended from forge. See the package
// documentation for the design.
type Guard struct {
	self       int
	grace      time.Duration
	err        error
	stopReaper func()
}

// StartGuard makes this process the subreaper of its descendants and starts
// reaping orphans. grace is how long Cleanup leaves processes between
// SIGTERM and SIGKILL. Call it once, early, before any tool starts a
// process; call Cleanup before exiting.
func StartGuard(grace time.Duration) *Guard {
	g := &Guard{self: os.Getpid(), grace: grace}
	g.err = BecomeSubreaper()
	g.stopReaper = startReaper(g.self)
	return g
}

// Err reports why this process could not become a subreaper; nil when it
// is one, or where there are no subreapers. The guard still works without:
// it then reaches only the processes that kept a parent within forge.
func (g *Guard) Err() error { return g.err }

// Cleanup ends every live descendant of this process (SIGTERM, then SIGKILL
// after the grace), stops the reaper and reaps the orphans that died. It
// may be called more than once (on a signal, and again once the shell has
// wound down): each call ends whatever is alive then. Where descendants
// cannot be listed (not Linux) it does nothing.
func (g *Guard) Cleanup() error {
	err := EndDescendants(g.self, g.grace)
	if errors.Is(err, errors.ErrUnsupported) {
		err = nil
	}
	g.stopReaper()
	reapOrphans(g.self, reapAllAtExit())
	return err
}
