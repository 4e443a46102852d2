package builtin

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/proc"
	"github.com/forgehq/forge/internal/tools"
)

// bashPresenter shows a Bash call with its command, and a command that ran
// and failed as a failed execution with its exit code and a hint.
type bashPresenter struct{}

func (bashPresenter) Present(args tools.Args, res tools.Result) tools.Presentation {
	p := tools.Presentation{Purpose: strings.TrimSpace(args.String("description"))}
	if cmd := args.String("command"); cmd != "" {
		p.Details = []tools.Detail{{Label: "Command", Value: cmd}}
	}
	code, ran := exitCodeOf(res.Metadata)
	if res.Status != tools.StatusFailed || !ran {
		return p
	}
	summary := proc.ExitSummary(code, true)
	// The error ends with the exit-code sentence for the model's sake; the
	// person's panel gives it a line of its own.
	msg := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(res.Error), summary))
	p.Failure = &tools.Failure{Error: msg, Summary: summary, Hint: proc.ExitHint(res.Error, code, true), Exit: fmt.Sprintf("exit %d", code)}
	if sig, ok := res.Metadata["signal"].(string); ok && sig != "" {
		p.Failure.Exit = "killed by " + sig
	}
	return p
}

// exitCodeOf reads the exit_code metadata of a command that ran.
func exitCodeOf(md map[string]any) (int, bool) {
	switch v := md["exit_code"].(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	}
	return 0, false
}
