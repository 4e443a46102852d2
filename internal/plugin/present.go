package plugin

import (
	"github.com/forgehq/forge/internal/proc"
	"github.com/forgehq/forge/internal/tools"
)

// Present shows a plugin whose program exited with a failure status as a
// failed execution, with the status and a hint.
func (p *Plugin) Present(_ tools.Args, res tools.Result) tools.Presentation {
	code, ok := res.Metadata["exit_code"].(int)
	if res.Status != tools.StatusFailed || !ok {
		return tools.Presentation{}
	}
	return tools.Presentation{Failure: &tools.Failure{Error: res.Error,
		Summary: proc.ExitSummary(code, true), Hint: proc.ExitHint(res.Error, code, true)}}
}
