package builtin

import (
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// The approval modes trust these declarations: a tool wrongly declared
// read-only would run without asking.
func TestReadOnlyDeclarations(t *testing.T) {
	reg := tools.NewRegistry()
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"Read": true, "Glob": true, "Grep": true, "WebFetch": true, "WebSearch": true,
		"calculator": true, "task_completion": true, "ask_question": true, "converse": true,
		"BashOutput": true,
		"Write":      false, "Edit": false, "NotebookEdit": false, "Bash": false, "KillShell": false,
	}
	for _, name := range reg.ListNames() {
		ro, known := want[name]
		if !known {
			t.Errorf("%s: no expectation: decide whether it changes anything", name)
			continue
		}
		tl, _ := reg.Get(name)
		if got := tools.IsReadOnly(tl); got != ro {
			t.Errorf("IsReadOnly(%s) = %v, want %v", name, got, ro)
		}
		if got := tools.Describe(tl).ReadOnly; got != ro {
			t.Errorf("Describe(%s).ReadOnly = %v, want %v", name, got, ro)
		}
	}
}
