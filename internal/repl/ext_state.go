package repl

import (
	"sync"

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

// extStates holds each App's extState. App has no field for it (app.go
// belongs to the shell); keying by the App keeps two Apps (tests) apart.
// TODO(shell): an ext field on App would make this map unnecessary.
var extStates sync.Map // *App -> *extState

// ext returns a's extension state, creating it empty.
func (a *App) ext() *extState {
	v, _ := extStates.LoadOrStore(a, &extState{})
	return v.(*extState)
}
