package plugin

import (
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestPresentFailedProgram(t *testing.T) {
	p := &Plugin{m: &Manifest{Name: "wc"}}
	failed := tools.Fail("Plugin wc failed with exit status 127", "exit_code", 127)
	got := p.Present(nil, failed)
	if got.Failure == nil || got.Failure.Summary != "The command failed with exit code 127." ||
		got.Failure.Hint != "Check that the command and the files it names exist, then try again." ||
		got.Failure.Error != failed.Error {
		t.Errorf("presentation = %+v", got.Failure)
	}
	if got := p.Present(nil, tools.Fail("Plugin wc could not run: no such program")); got.Failure != nil {
		t.Errorf("a program that never ran has no exit status: %+v", got.Failure)
	}
}
