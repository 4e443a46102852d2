package agent

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

// The repair itself is tested in llm; this checks that the conversation
// takes the repaired messages and reports what changed.
func TestConversationRepair(t *testing.T) {
	asked := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "a", Name: "Read", Arguments: json.RawMessage(`{}`)}}}
	c := &Conversation{Messages: []llm.Message{{Role: llm.RoleUser, Text: "go"}, asked}}
	notes := c.Repair()
	if len(notes) != 1 {
		t.Fatalf("notes %q, want one", notes)
	}
	want := toolMessage(asked.ToolCalls[0], cancelledResult, true)
	if len(c.Messages) != 3 || !reflect.DeepEqual(c.Messages[2], want) {
		t.Errorf("repaired to %+v", c.Messages)
	}
	if again := c.Repair(); len(again) != 0 || len(c.Messages) != 3 {
		t.Errorf("a repaired conversation needs repair again: %q", again)
	}
}

func TestLoopDetector(t *testing.T) {
	a := Call{Name: "Read", Args: map[string]any{"file_path": "x", "limit": 1}}
	aReordered := Call{Name: "Read", Args: map[string]any{"limit": 1, "file_path": "x"}}
	b := Call{Name: "Grep", Args: map[string]any{"pattern": "y"}}
	c := Call{Name: "Glob", Args: map[string]any{"pattern": "*"}}
	tests := []struct {
		name  string
		calls []Call
		want  []loopVerdict
	}{
		{"fifth identical call is refused, sixth stops", []Call{a, a, a, aReordered, a, a},
			[]loopVerdict{loopRun, loopRun, loopRun, loopRun, loopWarn, loopStop}},
		{"four are fine", []Call{a, a, a, a, b}, []loopVerdict{loopRun, loopRun, loopRun, loopRun, loopRun}},
		{"A B cycle", []Call{a, b, a, b, a, b, a, b, a}, []loopVerdict{loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopWarn}},
		{"A B C cycle", []Call{a, b, c, a, b, c, a, b, c, a, b, c, a},
			[]loopVerdict{loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopWarn}},
		{"varied work passes", []Call{a, b, c, b, a, c, b, a}, []loopVerdict{loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun, loopRun}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d loopDetector
			for i, call := range tt.calls {
				if got, _ := d.check(call); got != tt.want[i] {
					t.Fatalf("call %d (%s): verdict %d, want %d", i+1, call.Name, got, tt.want[i])
				}
			}
		})
	}
	off := loopDetector{off: true}
	for range 10 {
		if v, _ := off.check(a); v != loopRun {
			t.Fatal("detection off still refused a call")
		}
	}
}
