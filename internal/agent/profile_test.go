package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

// scope makes a permission scope for the harness's working directory.
func (h *harness) scope(rules ...string) *permission.Scope {
	h.t.Helper()
	s, err := permission.NewScope(rules, h.dir, "")
	if err != nil {
		h.t.Fatal(err)
	}
	return s
}

// The Task tool names the custom subagents, with their descriptions; one
// picked by subagent_type runs with its own system prompt, its own tools
// only, and its model; an unknown one is an error naming the known ones.
func TestCustomSubagent(t *testing.T) {
	parent := &llmtest.When{System: "You are a test.", Tool: TaskToolName}
	reviewer := &llmtest.When{System: "You review Go code."}
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{Turns: []llmtest.Turn{
		{When: parent, ToolCalls: []llmtest.ToolCall{
			scriptCall(TaskToolName, `{"description": "review", "prompt": "Review a.go", "subagent_type": "reviewer"}`),
			scriptCall(TaskToolName, `{"description": "nobody", "prompt": "x", "subagent_type": "nobody"}`),
		}},
		{When: reviewer, ToolCalls: []llmtest.ToolCall{
			scriptCall("Read", `{"file_path": "a.go"}`),
			scriptCall("Glob", `{"pattern": "*"}`),
		}},
		{When: reviewer, Text: "a.go looks fine."},
		{When: parent, Text: "Reviewed."},
	}})
	h.withTask()
	h.cfg.Subagents = []Profile{
		{Name: "reviewer", Description: "Reviews Go code for bugs", System: "You review Go code.", Tools: h.scope("Read", "Grep"), ModelName: "small-model"},
		{Name: "writer", Description: "Writes docs", Tools: h.scope("Write")},
	}
	h.file("a.go", "package a\n")
	d := h.run(context.Background(), "review a.go")
	if d.Reason != ReasonStop || d.Text != "Reviewed." {
		t.Fatalf("done %+v", d)
	}
	reqs := h.srv.Requests()
	first := reqs[0]
	var task *llm.ToolSpec
	for i := range first.Tools {
		if first.Tools[i].Name == TaskToolName {
			task = &first.Tools[i]
		}
	}
	if task == nil || !strings.Contains(task.Description, "reviewer: Reviews Go code for bugs") ||
		!strings.Contains(string(schemaJSON(t, task.InputSchema)), `"enum":["general-purpose","reviewer","writer"]`) {
		t.Fatalf("the Task tool offered: %+v", task)
	}
	var sub []llmtest.Request
	for _, r := range reqs {
		if strings.HasPrefix(r.System, "You review Go code.") {
			sub = append(sub, r)
		}
	}
	if len(sub) != 2 {
		t.Fatalf("%d requests of the reviewer", len(sub))
	}
	if names := sub[0].ToolNames(); !slices.Equal(names, []string{"Grep", "Read"}) && !slices.Equal(names, []string{"Read", "Grep"}) {
		t.Errorf("the reviewer was offered %v", names)
	}
	if sub[0].Model != "small-model" || strings.Contains(sub[0].System, "You are a test.") {
		t.Errorf("the reviewer's request: model %q, system %q", sub[0].Model, sub[0].System)
	}
	if res := resultsOf(sub[1]); len(res) != 2 || !strings.Contains(res[0], "package a") || !strings.Contains(res[1], "only these tools") {
		t.Errorf("the reviewer's results %q", res)
	}
	res := resultsOf(h.lastRequest())
	if len(res) != 2 || res[0] != "a.go looks fine." || !strings.Contains(res[1], `unknown subagent_type "nobody": use one of general-purpose, reviewer, writer`) {
		t.Errorf("the parent's results %q", res)
	}
	h.assertValid()
}

// A custom subagent with a tool that changes things may use it, but the
// parent's policy and the person still decide: nobody to ask, no write.
func TestCustomSubagentStillAsks(t *testing.T) {
	parent := &llmtest.When{System: "You are a test.", Tool: TaskToolName}
	writer := &llmtest.When{System: "You write."}
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{When: parent, ToolCalls: []llmtest.ToolCall{
			scriptCall(TaskToolName, `{"description": "write", "prompt": "Write x", "subagent_type": "writer"}`)}},
		{When: writer, ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "x.txt", "content": "new"}`)}},
		{When: writer, ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "x.txt", "content": "newer"}`)}},
		{When: writer, Text: "Done."},
		{When: parent, Text: "ok"},
	}})
	h.withTask()
	ap := &fakeApprover{answers: []Answer{Reject, AllowOnce}}
	h.cfg.Approver = ap
	h.cfg.Subagents = []Profile{{Name: "writer", System: "You write.", Tools: h.scope("Write")}}
	d := h.run(context.Background(), "write x")
	if d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	if len(ap.asked) != 2 {
		t.Fatalf("asked %d times", len(ap.asked))
	}
	if b, err := os.ReadFile(filepath.Join(h.dir, "x.txt")); err != nil || string(b) != "newer" {
		t.Errorf("x.txt: %q %v", b, err)
	}
}

// A scope (a custom command's allowed-tools) narrows the tools offered,
// and refuses a call outside it even for a tool it names.
func TestScopeNarrowsTools(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			scriptCall("Bash", `{"command": "git push"}`),
			scriptCall("Write", `{"file_path": "y.txt", "content": "x"}`),
		}},
		{Text: "Could not."},
	}})
	h.withTask()
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.cfg.Scope = h.scope("Read", "Bash(git diff:*)")
	d := h.run(context.Background(), "push")
	if d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	if names := h.srv.Requests()[0].ToolNames(); !slices.Equal(names, []string{"Bash", "Read"}) && !slices.Equal(names, []string{"Read", "Bash"}) {
		t.Errorf("offered %v", names)
	}
	res := resultsOf(h.lastRequest())
	if len(res) != 2 || !strings.Contains(res[0], "only these tools may be used here: Read, Bash(git diff:*)") ||
		!strings.Contains(res[1], "only these tools") {
		t.Errorf("results %q", res)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "y.txt")); err == nil {
		t.Error("y.txt was written")
	}
}

func schemaJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A scope is checked on the arguments that run: a PreToolUse hook's
// rewrite cannot take a call outside it.
func TestScopeAfterHookRewrite(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Bash", `{"command": "git diff"}`)}},
		{Text: "done"},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.cfg.Scope = h.scope("Bash(git diff:*)")
	h.file("keep.txt", "x")
	h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Matcher: "Bash",
		Command: `echo '{"hookSpecificOutput": {"updatedInput": {"command": "rm keep.txt"}}}'`})
	h.run(context.Background(), "diff")
	res := h.results()
	if len(res) != 1 || res[0].Status != StatusDenied || !strings.Contains(res[0].Output, "only these tools may be used here: Bash(git diff:*)") {
		t.Errorf("results %+v", res)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "keep.txt")); err != nil {
		t.Errorf("the rewritten call ran: %v", err)
	}
}

// Task calls run side by side only for subagents that cannot change
// anything: those of a profile with tools that write run one at a time,
// in order, so that two of them cannot lose each other's edits.
func TestWritingSubagentsRunInOrder(t *testing.T) {
	parent := &llmtest.When{System: "You are a test.", Tool: TaskToolName}
	writer := func(topic string, turn llmtest.Turn) llmtest.Turn {
		turn.When = &llmtest.When{System: "You write.", Any: topic}
		return turn
	}
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{When: parent, ToolCalls: []llmtest.ToolCall{
			scriptCall(TaskToolName, `{"description": "a", "prompt": "Write alpha", "subagent_type": "writer"}`),
			scriptCall(TaskToolName, `{"description": "b", "prompt": "Write beta", "subagent_type": "writer"}`),
		}},
		writer("alpha", llmtest.Turn{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "a.txt", "content": "a"}`)}}),
		writer("beta", llmtest.Turn{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "b.txt", "content": "b"}`)}}),
		writer("alpha", llmtest.Turn{Text: "wrote alpha"}),
		writer("beta", llmtest.Turn{Text: "wrote beta"}),
		{When: parent, Text: "ok"},
	}})
	h.withTask()
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.cfg.Subagents = []Profile{
		{Name: "writer", System: "You write.", Tools: h.scope("Read", "Write")},
		{Name: "reader", System: "You read.", Tools: h.scope("Read", "Grep")},
	}
	r := &run{a: New(h.cfg)}
	for _, c := range []struct {
		args string
		want bool
	}{
		{`{"prompt": "x", "subagent_type": "writer"}`, false},
		{`{"prompt": "x", "subagent_type": "reader"}`, true},
		{`{"prompt": "x"}`, true},
		{`{"prompt": "x", "subagent_type": "nobody"}`, true},
	} {
		if got := r.concurrent(r.prepare(llm.ToolCall{ID: "1", Name: TaskToolName, Arguments: []byte(c.args)})); got != c.want {
			t.Errorf("%s: concurrent %v", c.args, got)
		}
	}
	if d := h.run(context.Background(), "write"); d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	var order []string
	for _, req := range h.srv.Requests() {
		if strings.HasPrefix(req.System, "You write.") {
			order = append(order, req.Messages[0].Text)
		}
	}
	if got := strings.Join(order, ", "); got != "Write alpha, Write alpha, Write beta, Write beta" {
		t.Errorf("the subagents' requests came in as %s", got)
	}
}
