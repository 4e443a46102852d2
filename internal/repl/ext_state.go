package repl

import (
	"github.com/forgehq/forge/internal/mcp"
	"github.com/forgehq/forge/internal/plugin"
	"github.com/forgehq/forge/internal/ratelimit"
)

// extState is what the extensions keep for one App: the limiters, the
// plugin manager and the MCP manager.
type extState struct {
	limits  *ratelimit.Set
	plugins *plugin.Manager
	mcp     *mcp.Manager
}

// extensions returns a's extension state, creating it empty. An App is
// used by one goroutine at a time, so no lock is needed.
func (a *App) extensions() *extState {
	if a.ext == nil {
		a.ext = &extState{}
	}
	return a.ext
}
