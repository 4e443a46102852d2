package builtin

import (
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestBashPresentation(t *testing.T) {
	args := tools.Args{"command": "make test"}
	failed := tools.Fail("boom\nThe command failed with exit code 2.", "exit_code", 2)
	failed.Status = tools.StatusFailed
	p := bashPresenter{}.Present(args, failed)
	if len(p.Details) != 1 || p.Details[0] != (tools.Detail{Label: "Command", Value: "make test"}) {
		t.Errorf("details = %+v", p.Details)
	}
	if p.Failure == nil || p.Failure.Error != "boom" || p.Failure.Summary != "The command failed with exit code 2." ||
		p.Failure.Hint != "Check the command and its output, then try again." || p.Failure.Exit != "exit 2" {
		t.Errorf("failure = %+v", p.Failure)
	}
	killed := tools.Fail("half\n\nThe command was killed by signal SIGSEGV.", "exit_code", -1, "signal", "SIGSEGV")
	if p := (bashPresenter{}).Present(args, killed); p.Failure == nil || p.Failure.Exit != "killed by SIGSEGV" {
		t.Errorf("killed: %+v", p.Failure)
	}
	// A timeout or a failure before the command ran has no exit code: the
	// plain result panel, with the command.
	timedOut := tools.Result{Status: tools.StatusTimedOut, Error: "Tool timed out after 1s"}
	if p := (bashPresenter{}).Present(args, timedOut); p.Failure != nil || len(p.Details) != 1 {
		t.Errorf("timed out: %+v", p)
	}
	if p := (bashPresenter{}).Present(tools.Args{}, tools.OK("x")); p.Failure != nil || p.Details != nil {
		t.Errorf("success without a command: %+v", p)
	}
	for _, v := range []any{1, int64(1)} {
		if got, ok := exitCodeOf(map[string]any{"exit_code": v}); !ok || got != 1 {
			t.Errorf("exitCodeOf(%#v) = %d, %v", v, got, ok)
		}
	}
	if _, ok := exitCodeOf(nil); ok {
		t.Error("exitCodeOf(nil) found a code")
	}
}
