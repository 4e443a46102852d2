package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

const twoTodos = `{"todos": [
	{"content": "Add the flag", "status": "completed", "activeForm": "Adding the flag"},
	{"content": "Write the test", "status": "in_progress", "activeForm": "Writing the test"}]}`

// eventRecorder is a Recorder that keeps the event records it is given.
type eventRecorder struct {
	recorder
	kinds []string
	data  []any
}

func (r *eventRecorder) Record(kind string, data any) error {
	r.kinds, r.data = append(r.kinds, kind), append(r.data, data)
	return nil
}

// The task list is kept, shown and recorded; a model that stops with items
// left is reminded of them once, never in a loop.
func TestTodoListAndReminder(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{scriptCall(TodoToolName, twoTodos)}},
				{Text: "Stopping here."},
			}})
			rec := &eventRecorder{}
			h.conv.Log = rec
			d := h.run(context.Background(), "add a flag")
			if d.Reason != ReasonStop || d.Text != "Stopping here." {
				t.Fatalf("done %+v", d)
			}
			if n := len(h.srv.Requests()); n != 3 {
				t.Fatalf("%d requests, want the call, the stop and one after the reminder", n)
			}
			last := h.lastRequest()
			reminder := last.Messages[len(last.Messages)-1].Text
			if !strings.Contains(reminder, "[in_progress] Write the test") || strings.Contains(reminder, "Add the flag") {
				t.Errorf("reminder %q", reminder)
			}
			if m := h.conv.Messages[len(h.conv.Messages)-2]; !IsReminder(m) || IsReminder(h.conv.Messages[0]) {
				t.Errorf("the reminder %+v is not told from a prompt", m)
			}
			if h.countEvents(EventTodo) != 1 || len(h.conv.Todos) != 2 || h.conv.Todos[1].ActiveForm != "Writing the test" {
				t.Errorf("%d todo events, list %+v", h.countEvents(EventTodo), h.conv.Todos)
			}
			if len(rec.kinds) != 1 || rec.kinds[0] != TodoRecord {
				t.Fatalf("records %q", rec.kinds)
			}
			b, _ := json.Marshal(rec.data[0])
			if ts, err := DecodeTodos(b); err != nil || len(ts) != 2 || ts[0].Status != TodoCompleted {
				t.Errorf("recorded %s: %v", b, err)
			}
			if res := h.results(); res[0].Status != StatusSuccess || !strings.Contains(res[0].Output, "1 of 2 done") {
				t.Errorf("result %+v", res[0])
			}
			// The next prompt does not remind of a list it did not write.
			h.events = nil
			h.run(context.Background(), "and something else?")
			if n := len(h.srv.Requests()); n != 4 {
				t.Errorf("%d requests: a list of an earlier prompt was reminded of", n)
			}
		})
	}
}

func TestTodoWriteRefusals(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			scriptCall(TodoToolName, `{"todos": [{"content": "a", "status": "in_progress"}, {"content": "b", "status": "in_progress"}]}`),
			scriptCall(TodoToolName, `{"todos": [{"content": "a", "status": "doing"}]}`),
			scriptCall(TodoToolName, `{"todos": [{"content": "a", "status": "pending"}]}`),
		}},
		{Text: "ok"},
	}})
	h.run(context.Background(), "go")
	res := h.results()
	if res[0].Status != StatusFailed || !strings.Contains(res[0].Output, "2 items are in_progress") {
		t.Errorf("two in progress: %+v", res[0])
	}
	if res[1].Status != StatusFailed || !strings.Contains(res[1].Output, "Invalid value for todos[0].status: must be one of") {
		t.Errorf("unknown status: %+v", res[1])
	}
	if res[2].Status != StatusSuccess || len(h.conv.Todos) != 1 || h.conv.Todos[0].ActiveForm != "" {
		t.Errorf("without activeForm: %+v, %+v", res[2], h.conv.Todos)
	}
}

// A subagent keeps no task list: it is not offered one, and cannot touch
// its parent's.
func TestSubagentHasNoTodoList(t *testing.T) {
	a := New(Config{Executor: newHarness(t, llmtest.OpenAI, llmtest.Script{}).exec, depth: 1})
	for _, n := range a.ToolNames() {
		if n == TodoToolName {
			t.Fatal("a subagent is offered TodoWrite")
		}
	}
	if _, ok := a.ownTool(TodoToolName); ok {
		t.Error("a subagent serves TodoWrite")
	}
}

// A task list read back from a session log: whatever the record holds,
// a list or an error, never a panic; a list written reads back the same.
func FuzzDecodeTodos(f *testing.F) {
	f.Add([]byte(`[{"content":"a","status":"pending","activeForm":"doing a"}]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"content":"a"}`))
	f.Add([]byte(`[{"content":1}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := DecodeTodos(data)
		if err != nil {
			return
		}
		b, err := json.Marshal(ts)
		if err != nil {
			t.Fatal(err)
		}
		again, err := DecodeTodos(b)
		if err != nil || len(again) != len(ts) {
			t.Fatalf("%s read back as %v, %v", b, again, err)
		}
		_ = ts.Unfinished()
	})
}
