package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// Agent.Call puts a caller's single call through the policy and the
// approver as the model's calls go, without a model, and tells a refusal
// from a failure of the tool.
func TestCallTakesThePipeline(t *testing.T) {
	tests := []struct {
		name     string
		mode     permission.Mode
		approver Approver
		tool     string
		args     string
		want     tools.Status
		kind     tools.ErrorKind
		says     string
		asked    int
	}{
		{"a read runs", permission.ModeAsk, nil, "Read", `{"file_path":"a.txt"}`, tools.StatusSuccess, "", "hello", 0},
		{"an edit nobody approves", permission.ModeAsk, nil, "Write", `{"file_path":"b.txt","content":"x"}`, tools.StatusFailed, tools.KindDenied, "nobody can give it here (the client cannot be asked)", 0},
		{"an edit refused", permission.ModeAsk, &fakeApprover{answers: []Answer{Reject}}, "Write", `{"file_path":"b.txt","content":"x"}`, tools.StatusFailed, tools.KindDenied, "the person refused", 1},
		{"an edit approved", permission.ModeAsk, &fakeApprover{answers: []Answer{AllowOnce}}, "Write", `{"file_path":"b.txt","content":"x"}`, tools.StatusSuccess, "", "b.txt", 1},
		{"an edit in auto-edit", permission.ModeAutoEdit, nil, "Write", `{"file_path":"b.txt","content":"x"}`, tools.StatusSuccess, "", "b.txt", 0},
		{"plan mode refuses an edit", permission.ModePlan, &fakeApprover{answers: []Answer{AllowOnce}}, "Write", `{"file_path":"b.txt","content":"x"}`, tools.StatusFailed, tools.KindDenied, "Denied", 0},
		{"bad arguments", permission.ModeAsk, nil, "Read", `{"file_path":7}`, tools.StatusFailed, tools.KindValidation, "file_path", 0},
		{"an unknown tool", permission.ModeAsk, nil, "Nope", `{}`, tools.StatusFailed, tools.KindUnknownTool, "Nope", 0},
		{"not the agent's own tools", permission.ModeAsk, nil, "TodoWrite", `{"todos":[]}`, tools.StatusFailed, tools.KindUnknownTool, "TodoWrite", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, llmtest.OpenAI, llmtest.Script{})
			h.file("a.txt", "hello\n")
			cfg := h.cfg
			cfg.Model, cfg.Approver, cfg.Unasked = nil, tt.approver, "the client cannot be asked"
			cfg.Policy.SetMode(tt.mode)
			var events []EventType
			res := New(cfg).Call(context.Background(), "c1", tt.tool, []byte(tt.args), func(e Event) { events = append(events, e.Type) })
			text := res.Display()
			if res.Status != tt.want || res.ErrorKind != tt.kind || !strings.Contains(text, tt.says) {
				t.Errorf("Call = %s %q %q, want %s %q saying %q", res.Status, res.ErrorKind, text, tt.want, tt.kind, tt.says)
			}
			if f, ok := tt.approver.(*fakeApprover); ok && len(f.asked) != tt.asked {
				t.Errorf("asked %d times, want %d", len(f.asked), tt.asked)
			}
			if len(events) < 2 || events[0] != EventToolCall || events[len(events)-1] != EventToolResult {
				t.Errorf("events %v, want a call first and its result last", events)
			}
		})
	}
}
