package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

const planArgs = `{"plan": "1. Add the flag to main.go\n2. Test it"}`

// planApprover answers plans from a list, and every call with yes.
type planApprover struct {
	fakeApprover
	answers []PlanAnswer
	plans   []string
}

func (p *planApprover) ApprovePlan(_ context.Context, plan string) (PlanAnswer, error) {
	p.plans = append(p.plans, plan)
	a := p.answers[0]
	p.answers = p.answers[1:]
	return a, nil
}

// A mode switched between two prompts of a conversation: the next request
// offers the read-only tools and the plan tool, and says plan mode.
func TestModeSwitchInTheMiddleOfAConversation(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{{Text: "Hello."}, {Text: "A plan."}, {Text: "Back."}}})
			h.run(context.Background(), "hi")
			first := h.lastRequest()
			if !slices.Contains(first.ToolNames(), "Write") || slices.Contains(first.ToolNames(), PlanToolName) || strings.Contains(first.System, "Plan mode") {
				t.Errorf("ask mode offered %v, system %q", first.ToolNames(), first.System)
			}
			h.cfg.Policy.SetMode(permission.ModePlan)
			h.run(context.Background(), "plan the change")
			second := h.lastRequest()
			names := second.ToolNames()
			if slices.Contains(names, "Write") || slices.Contains(names, "Edit") || slices.Contains(names, "Bash") ||
				!slices.Contains(names, "Read") || !slices.Contains(names, PlanToolName) {
				t.Errorf("plan mode offered %v", names)
			}
			if !strings.Contains(second.System, "Plan mode is on") || !strings.Contains(second.System, "You are a test.") {
				t.Errorf("plan mode's system prompt %q", second.System)
			}
			h.cfg.Policy.SetMode(permission.ModeAutoEdit)
			h.run(context.Background(), "go on")
			if third := h.lastRequest(); !slices.Contains(third.ToolNames(), "Write") || strings.Contains(third.System, "Plan mode") {
				t.Errorf("back in auto-edit: %v, %q", third.ToolNames(), third.System)
			}
			h.assertValid()
		})
	}
}

// A plan approved with auto-edit is carried out in the same prompt: the
// next request offers the tools that edit, and an edit runs unasked.
func TestPlanApproved(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{scriptCall(PlanToolName, planArgs)}},
				{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "main.go", "content": "package main\n"}`)}},
				{Text: "Done."},
			}})
			h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModePlan})
			ap := &planApprover{answers: []PlanAnswer{{Choice: ApproveAutoEdit}}}
			h.cfg.Approver = ap
			d := h.run(context.Background(), "add a flag")
			if d.Reason != ReasonStop || d.Text != "Done." {
				t.Fatalf("done %+v", d)
			}
			if len(ap.plans) != 1 || ap.plans[0] != "1. Add the flag to main.go\n2. Test it" || len(ap.asked) != 0 {
				t.Errorf("plans %q, %d questions about calls", ap.plans, len(ap.asked))
			}
			if h.cfg.Policy.Mode() != permission.ModeAutoEdit {
				t.Errorf("mode %s after approval", h.cfg.Policy.Mode())
			}
			reqs := h.srv.Requests()
			if !slices.Contains(reqs[1].ToolNames(), "Write") || strings.Contains(reqs[1].System, "Plan mode") {
				t.Errorf("after approval: %v", reqs[1].ToolNames())
			}
			if res := resultsOf(reqs[1]); !strings.Contains(res[0], "approved the plan") || !strings.Contains(res[0], "auto-edit") {
				t.Errorf("the plan's result: %q", res[0])
			}
			if b, err := os.ReadFile(filepath.Join(h.dir, "main.go")); err != nil || string(b) != "package main\n" {
				t.Errorf("main.go: %q, %v", b, err)
			}
			var plan *Event
			for i := range h.events {
				if h.events[i].Type == EventPlan {
					plan = &h.events[i]
				}
			}
			if plan == nil || !strings.HasPrefix(plan.Text, "1. Add the flag") {
				t.Errorf("plan event %+v", plan)
			}
			h.assertValid()
		})
	}
}

// A plan not approved sends the model back to planning with the person's
// words; approved with "keep asking", the edits ask.
func TestPlanKeepPlanningThenApproveAsking(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall(PlanToolName, planArgs)}},
		{ToolCalls: []llmtest.ToolCall{scriptCall(PlanToolName, `{"plan": "1. Add a --shout flag"}`)}},
		{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "main.go", "content": "x"}`)}},
		{Text: "Done."},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModePlan})
	ap := &planApprover{answers: []PlanAnswer{{Choice: KeepPlanning, Comment: "call it --shout"}, {Choice: ApproveAsk}}}
	ap.fakeApprover.answers = []Answer{AllowOnce}
	h.cfg.Approver = ap
	h.run(context.Background(), "add a flag")
	reqs := h.srv.Requests()
	res := resultsOf(reqs[1])
	if !strings.Contains(res[0], `they said: "call it --shout"`) || !strings.Contains(res[0], "Plan mode stays on") {
		t.Errorf("keep planning: %q", res[0])
	}
	if !slices.Contains(reqs[1].ToolNames(), PlanToolName) || slices.Contains(reqs[1].ToolNames(), "Write") {
		t.Errorf("still planning: %v", reqs[1].ToolNames())
	}
	if h.cfg.Policy.Mode() != permission.ModeAsk || len(ap.asked) != 1 || ap.asked[0].Call.Name != "Write" {
		t.Errorf("mode %s, asked %+v", h.cfg.Policy.Mode(), ap.asked)
	}
	if h.results()[0].Status != StatusDenied || h.results()[0].Error != "keep planning: call it --shout" {
		t.Errorf("result shown %+v", h.results()[0])
	}
}

// A plan not approved without a word ends the prompt: the model is not
// sent back to guess, and the person's next prompt says what to change.
func TestPlanKeepPlanningWithoutWordsEndsThePrompt(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall(PlanToolName, planArgs)}},
		{Text: "Revised."},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModePlan})
	h.cfg.Approver = &planApprover{answers: []PlanAnswer{{Choice: KeepPlanning, Comment: "  "}}}
	d := h.run(context.Background(), "add a flag")
	if d.Reason != ReasonStop || d.Turns != 1 || len(h.srv.Requests()) != 1 {
		t.Fatalf("done %+v after %d requests, want the prompt ended after one", d, len(h.srv.Requests()))
	}
	if r := h.results()[0]; r.Status != StatusDenied || r.Error != "keep planning" {
		t.Errorf("result shown %+v", r)
	}
	h.assertValid()
	h.run(context.Background(), "split it in two steps")
	res := resultsOf(h.srv.Requests()[1])
	if len(res) != 1 || !strings.Contains(res[0], "what they want changed comes as their next message") {
		t.Errorf("the model was told %q", res)
	}
	if h.cfg.Policy.Mode() != permission.ModePlan {
		t.Errorf("mode %s, want plan", h.cfg.Policy.Mode())
	}
}

// With nobody to approve it, the plan is the run's final answer; the
// conversation goes on from it in another mode.
func TestPlanWithoutApproverEndsTheRun(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{Text: "Here is my plan.", ToolCalls: []llmtest.ToolCall{scriptCall(PlanToolName, planArgs)}},
				{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "main.go", "content": "x"}`)}},
				{Text: "Done."},
			}})
			h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModePlan})
			d := h.run(context.Background(), "add a flag")
			if d.Reason != ReasonStop || d.Text != "1. Add the flag to main.go\n2. Test it" || d.Turns != 1 {
				t.Fatalf("done %+v", d)
			}
			h.assertValid()
			h.cfg.Policy.SetMode(permission.ModeAutoEdit)
			d = h.run(context.Background(), "go ahead")
			if d.Text != "Done." {
				t.Fatalf("done %+v", d)
			}
			reqs := h.srv.Requests()
			if res := resultsOf(reqs[1]); !strings.Contains(res[0], "final answer") {
				t.Errorf("the plan's result %q", res[0])
			}
			if _, err := os.Stat(filepath.Join(h.dir, "main.go")); err != nil {
				t.Errorf("the plan was not carried out: %v", err)
			}
		})
	}
}

// Outside plan mode the plan tool is not offered, and a call of it says
// there is nothing to approve.
func TestPlanToolOutsidePlanMode(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall(PlanToolName, planArgs)}},
		{Text: "ok"},
	}})
	h.run(context.Background(), "go")
	if slices.Contains(h.srv.Requests()[0].ToolNames(), PlanToolName) {
		t.Error("ExitPlanMode offered in ask mode")
	}
	if res := h.results(); res[0].Status != StatusFailed || !strings.Contains(res[0].Output, "Plan mode is off (the approval mode is ask)") {
		t.Errorf("result %+v", res[0])
	}
}

// A dry run still shows the plan and keeps the task list: the agent's own
// tools change the run, not the world.
func TestOwnToolsRunInADryRun(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall(TodoToolName, twoTodos)}},
		{ToolCalls: []llmtest.ToolCall{scriptCall(PlanToolName, planArgs)}},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModePlan})
	h.cfg.Exec.DryRun = true
	d := h.run(context.Background(), "plan")
	if d.Text != "1. Add the flag to main.go\n2. Test it" || len(h.conv.Todos) != 2 {
		t.Errorf("done %+v, todos %+v", d, h.conv.Todos)
	}
}
