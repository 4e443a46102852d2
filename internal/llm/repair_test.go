package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

func call(id, name string) ToolCall {
	return ToolCall{ID: id, Name: name, Arguments: json.RawMessage(`{}`)}
}

func result(id string) Message {
	return Message{Role: RoleTool, Result: &ToolResult{CallID: id, Name: "Read", Content: "ok"}}
}

func cancelled(id string) Message {
	return Message{Role: RoleTool, Result: &ToolResult{CallID: id, Name: "Read", Content: CancelledResult, IsError: true}}
}

func TestRepair(t *testing.T) {
	user := Message{Role: RoleUser, Text: "go"}
	asked := Message{Role: RoleAssistant, ToolCalls: []ToolCall{call("a", "Read"), call("b", "Read")}}
	text := Message{Role: RoleAssistant, Text: "done"}
	tests := []struct {
		name  string
		in    []Message
		want  []Message
		notes int
	}{
		{"valid stays", []Message{user, asked, result("a"), result("b"), text}, nil, 0},
		{"empty stays", nil, nil, 0},
		{"missing result is cancelled", []Message{user, asked, result("a")},
			[]Message{user, asked, result("a"), cancelled("b")}, 1},
		{"cut off before any result", []Message{user, asked, user},
			[]Message{user, asked, cancelled("a"), cancelled("b"), user}, 2},
		{"orphan result dropped", []Message{user, result("z"), text}, []Message{user, text}, 1},
		{"result without its body dropped", []Message{user, asked, {Role: RoleTool}, result("a"), result("b")},
			[]Message{user, asked, result("a"), result("b")}, 1},
		{"second result dropped", []Message{user, asked, result("a"), result("a"), result("b")},
			[]Message{user, asked, result("a"), result("b")}, 1},
		{"result after the next turn dropped", []Message{user, asked, result("a"), result("b"), text, result("a")},
			[]Message{user, asked, result("a"), result("b"), text}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]Message(nil), tt.in...)
			got, notes := Repair(in)
			if len(notes) != tt.notes {
				t.Errorf("notes %q, want %d", notes, tt.notes)
			}
			want := tt.want
			if want == nil {
				want = tt.in
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("repaired to\n%+v\nwant\n%+v", got, want)
			}
			if !reflect.DeepEqual(in, tt.in) {
				t.Errorf("the input was changed: %+v", in)
			}
			if _, again := Repair(got); len(again) != 0 {
				t.Errorf("a repaired conversation needs repair again: %q", again)
			}
		})
	}
}
