package render

import (
	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// RunInfo describes an agent run for its first event: what answers, where,
// with which tools.
type RunInfo struct {
	Version    string
	Provider   string
	Model      string
	WorkingDir string
	Tools      []string
	Approval   string
	ToolFormat string
	SessionID  string
	// Priced says the model's price is known, so usage has a cost.
	Priced bool
}

// RunOptions say how a run is shown.
type RunOptions struct {
	// ProgressToErr sends the lines about tool calls to standard error,
	// leaving standard output to the final answer (forge ask); otherwise
	// both go to standard output (the shell).
	ProgressToErr bool
	// Lookup finds a tool, for the panels of a failed call (its
	// declaration and presentation); nil shows failures plainly.
	Lookup func(name string) (tools.Tool, bool)
}

// RunView shows one agent run as its events arrive. Event is called from
// the run's goroutine; Close ends what the view still shows (a spinner).
type RunView interface {
	Event(e agent.Event)
	Close()
}
