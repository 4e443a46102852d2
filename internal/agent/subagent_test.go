package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

// withTask registers the Task tool in the harness's registry; calls from
// outside a run would spawn nothing here.
func (h *harness) withTask() {
	h.t.Helper()
	if err := h.reg.Register(NewTaskTool(nil)); err != nil {
		h.t.Fatal(err)
	}
}

// subagentTurn answers only the subagent whose prompt contains topic.
func subagentTurn(topic string, t llmtest.Turn) llmtest.Turn {
	t.When = &llmtest.When{System: "You are a subagent", Any: topic}
	return t
}

// Two Task calls in one turn run in parallel, each a fresh read-only
// conversation; each result is its subagent's report, matched to its call;
// their calls appear nested in the parent's events; their usage counts.
func TestParallelSubagents(t *testing.T) {
	for _, wire := range wires {
		parent := &llmtest.When{System: "You are a test.", Tool: TaskToolName}
		h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
			{When: parent, ToolCalls: []llmtest.ToolCall{
				scriptCall(TaskToolName, `{"description": "find alpha", "prompt": "Where is alpha defined?"}`),
				scriptCall(TaskToolName, `{"description": "find beta", "prompt": "Where is beta defined?"}`),
			}},
			subagentTurn("alpha", llmtest.Turn{ToolCalls: []llmtest.ToolCall{scriptCall("Grep", `{"pattern": "alpha"}`)}}),
			subagentTurn("beta", llmtest.Turn{ToolCalls: []llmtest.ToolCall{scriptCall("Grep", `{"pattern": "beta"}`)}}),
			subagentTurn("alpha", llmtest.Turn{Text: "alpha is in a.go, line 1."}),
			subagentTurn("beta", llmtest.Turn{Text: "beta is in b.go, line 1."}),
			{When: parent, Text: "Both found."},
		}})
		h.withTask()
		h.file("a.go", "package x // alpha\n")
		h.file("b.go", "package x // beta\n")
		d := h.run(context.Background(), "find alpha and beta")
		if d.Reason != ReasonStop || d.Text != "Both found." {
			t.Fatalf("%s: done %+v", wire, d)
		}
		last := h.lastRequest()
		res := last.Results()
		if len(res) != 2 || !strings.Contains(res[0].Content, "alpha is in a.go") || !strings.Contains(res[1].Content, "beta is in b.go") {
			t.Errorf("%s: results %+v", wire, res)
		}
		for _, req := range h.srv.Requests() {
			if strings.Contains(req.System, "You are a subagent") {
				for _, name := range req.ToolNames() {
					if name == TaskToolName || name == "Write" || name == "Bash" {
						t.Errorf("%s: a subagent was offered %s", wire, name)
					}
				}
			}
		}
		nested := 0
		for _, e := range h.events {
			if e.ParentID != "" {
				nested++
				if e.Type == EventTextDelta || e.Type == EventDone {
					t.Errorf("%s: a subagent's %s reached the parent's events", wire, e.Type)
				}
			}
		}
		if nested < 4 { // each subagent's Grep call and result, and usage
			t.Errorf("%s: %d nested events", wire, nested)
		}
		if want := int64(6 * 10); d.Usage.InputTokens != want { // six requests of 10 input tokens each
			t.Errorf("%s: usage %+v, want %d input tokens", wire, d.Usage, want)
		}
		// The requests counted are those the usage sums.
		if d.Requests != 6 || d.SubagentRequests != 6-d.Turns {
			t.Errorf("%s: %d requests, %d by subagents, %d turns; want 6 in all", wire, d.Requests, d.SubagentRequests, d.Turns)
		}
		h.assertValid()
	}
}

// A subagent that tries to change something is refused, and a subagent
// cannot start another.
func TestSubagentIsReadOnly(t *testing.T) {
	parent := &llmtest.When{System: "You are a test.", Tool: TaskToolName}
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{When: parent, ToolCalls: []llmtest.ToolCall{scriptCall(TaskToolName, `{"description": "fix it", "prompt": "Fix the typo."}`)}},
		subagentTurn("typo", llmtest.Turn{ToolCalls: []llmtest.ToolCall{
			scriptCall("Write", `{"file_path": "x.txt", "content": "changed"}`),
			scriptCall(TaskToolName, `{"description": "more", "prompt": "go deeper"}`),
		}}),
		subagentTurn("typo", llmtest.Turn{Text: "I could not write; x.txt needs 'teh' changed to 'the'."}),
		{When: parent, Text: "The subagent reported."},
	}})
	h.withTask()
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo}) // even yolo: a subagent only reads
	h.file("x.txt", "teh\n")
	d := h.run(context.Background(), "fix the typo")
	if d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	var refusals []string
	for _, e := range h.events {
		if e.Type == EventToolResult && e.ParentID != "" {
			refusals = append(refusals, e.Result.Output)
		}
	}
	if len(refusals) != 2 || !strings.Contains(refusals[0], "may only use read-only tools") ||
		!strings.Contains(refusals[1], "cannot start subagents") {
		t.Errorf("subagent results %q", refusals)
	}
	if b, err := os.ReadFile(filepath.Join(h.dir, "x.txt")); err != nil || string(b) != "teh\n" {
		t.Errorf("x.txt is now %q (%v)", b, err)
	}
	last := h.lastRequest()
	if res := last.Results(); len(res) != 1 || !strings.Contains(res[0].Content, "needs 'teh' changed") {
		t.Errorf("the parent got %+v", res)
	}
}

// A subagent spends from what is left of the prompt's budget, and what it
// spends counts toward the prompt's.
func TestSubagentBudget(t *testing.T) {
	parent := &llmtest.When{System: "You are a test.", Tool: TaskToolName}
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{When: parent, ToolCalls: []llmtest.ToolCall{scriptCall(TaskToolName, `{"description": "look", "prompt": "Look around."}`)}},
		subagentTurn("around", llmtest.Turn{ToolCalls: []llmtest.ToolCall{scriptCall("Glob", `{"pattern": "*"}`)}}),
	}})
	h.withTask()
	h.cfg.LoopDetection = false
	h.cfg.Budget = Budget{Tokens: 40} // each request uses 15
	d := h.run(context.Background(), "look")
	var task *CallResult
	for _, e := range h.events {
		if e.Type == EventToolResult && e.ParentID == "" && task == nil {
			task = e.Result
		}
	}
	if task == nil || task.Status != StatusFailed || !strings.Contains(task.Output, "did not finish") ||
		!strings.Contains(task.Output, "budget is 25") {
		t.Fatalf("Task result %+v", task)
	}
	if d.Reason != ReasonBudget || d.Usage.InputTokens+d.Usage.OutputTokens != 60 {
		t.Errorf("done %+v: want the budget reason and the subagent's 30 tokens counted", d)
	}
	h.assertValid()
}

// A Task call that its parameters refuse (no prompt) starts no subagent:
// the model gets the validation error to correct.
func TestInvalidTaskCallStartsNoSubagent(t *testing.T) {
	parent := &llmtest.When{System: "You are a test."}
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{When: parent, ToolCalls: []llmtest.ToolCall{scriptCall(TaskToolName, `{"description": "no prompt"}`)}},
		{When: parent, Text: "Corrected."},
	}})
	h.withTask()
	d := h.run(context.Background(), "delegate")
	if d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	for _, req := range h.srv.Requests() {
		if strings.Contains(req.System, "You are a subagent") {
			t.Fatal("an invalid Task call started a subagent")
		}
	}
	last := h.lastRequest()
	res := last.Results()
	if len(res) != 1 || !strings.Contains(res[0].Content, "prompt") {
		t.Errorf("results %+v, want the validation error naming prompt", res)
	}
}
