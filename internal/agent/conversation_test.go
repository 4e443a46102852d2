package agent

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

func call(id, name string) llm.ToolCall {
	return llm.ToolCall{ID: id, Name: name, Arguments: json.RawMessage(`{}`)}
}

func result(id string) llm.Message { return toolMessage(call(id, "Read"), "ok", false) }

func TestRepair(t *testing.T) {
	user := llm.Message{Role: llm.RoleUser, Text: "go"}
	asked := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("a", "Read"), call("b", "Read")}}
	text := llm.Message{Role: llm.RoleAssistant, Text: "done"}
	tests := []struct {
		name  string
		in    []llm.Message
		want  []llm.Message
		notes int
	}{
		{"valid stays", []llm.Message{user, asked, result("a"), result("b"), text}, nil, 0},
		{"missing result is cancelled", []llm.Message{user, asked, result("a")},
			[]llm.Message{user, asked, result("a"), toolMessage(call("b", "Read"), cancelledResult, true)}, 1},
		{"cut off before any result", []llm.Message{user, asked, user},
			[]llm.Message{user, asked, toolMessage(call("a", "Read"), cancelledResult, true), toolMessage(call("b", "Read"), cancelledResult, true), user}, 2},
		{"orphan result dropped", []llm.Message{user, result("z"), text}, []llm.Message{user, text}, 1},
		{"second result dropped", []llm.Message{user, asked, result("a"), result("a"), result("b")},
			[]llm.Message{user, asked, result("a"), result("b")}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Conversation{Messages: append([]llm.Message(nil), tt.in...)}
			notes := c.Repair()
			if len(notes) != tt.notes {
				t.Errorf("notes %q, want %d", notes, tt.notes)
			}
			want := tt.want
			if want == nil {
				want = tt.in
			}
			if !reflect.DeepEqual(c.Messages, want) {
				t.Errorf("repaired to\n%+v\nwant\n%+v", c.Messages, want)
			}
			if again := c.Repair(); len(again) != 0 {
				t.Errorf("a repaired conversation needs repair again: %q", again)
			}
		})
	}
}

// TestValidMeansNothingToRepair: on many conversations made of a few
// calls, results and texts, valid says true only where Repair changes
// nothing, and a repaired conversation with distinct call IDs is valid.
func TestValidMeansNothingToRepair(t *testing.T) {
	parts := []llm.Message{
		{Role: llm.RoleUser, Text: "go"},
		{Role: llm.RoleAssistant, Text: "done"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("a", "Read")}},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("a", "Read"), call("b", "Read")}},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call("c", "Read"), call("c", "Glob")}},
		result("a"), result("b"), result("c"),
		{Role: llm.RoleTool},
	}
	// Every conversation of up to 5 parts: 9^5 of them.
	var walk func(msgs []llm.Message)
	walk = func(msgs []llm.Message) {
		c := &Conversation{Messages: append([]llm.Message(nil), msgs...)}
		valid := c.valid()
		notes := c.Repair()
		if valid && (len(notes) > 0 || !reflect.DeepEqual(c.Messages, msgs)) {
			t.Fatalf("valid, but repaired (%q):\n%+v", notes, msgs)
		}
		distinct := true
		for _, m := range c.Messages {
			if len(m.ToolCalls) == 2 && m.ToolCalls[0].ID == m.ToolCalls[1].ID {
				distinct = false
			}
		}
		if distinct && !c.valid() {
			t.Fatalf("repaired, but not valid:\n%+v\nfrom\n%+v", c.Messages, msgs)
		}
		if len(msgs) == 5 {
			return
		}
		for _, p := range parts {
			walk(append(msgs, p))
		}
	}
	walk(nil)
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
