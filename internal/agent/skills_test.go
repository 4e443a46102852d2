package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

// A skill with allowed-tools narrows the rest of the prompt that loads
// it, and only that prompt; a skill without any narrows nothing.
func TestSkillNarrowsTheRestOfThePrompt(t *testing.T) {
	if SkillToolName != builtin.SkillToolName {
		t.Fatalf("the agent knows the Skill tool as %q, builtin names it %q", SkillToolName, builtin.SkillToolName)
	}
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Skill", Arguments: []byte(`{"skill":"free"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "Skill", Arguments: []byte(`{"skill":"pdf"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "Write", Arguments: []byte(`{"file_path":"x.txt","content":"x"}`)}}},
		{Text: "done"},
		{Text: "next"},
	}})
	if err := h.reg.Register(builtin.NewSkillTool([]builtin.SkillDef{
		{Name: "free", Summary: "Anything", Body: "Do anything."},
		{Name: "pdf", Summary: "PDF forms", Body: "Fill the form.", Dir: "/skills/pdf"},
	})); err != nil {
		t.Fatal(err)
	}
	scope, err := permission.NewScope([]string{"Read", "Skill"}, h.dir, "")
	if err != nil {
		t.Fatal(err)
	}
	h.cfg.SkillScopes = map[string]*permission.Scope{"pdf": scope}
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.run(context.Background(), "fill it")
	reqs := h.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, want := range []bool{true, true, false, false} {
		if got := slices.Contains(reqs[i].ToolNames(), "Write"); got != want {
			t.Errorf("request %d offers Write: %v, want %v (%v)", i+1, got, want, reqs[i].ToolNames())
		}
	}
	res := h.results()
	if last := res[len(res)-1]; last.Status == StatusSuccess || !strings.Contains(last.Output, "Denied") {
		t.Errorf("Write after the skill: %+v", last)
	}
	if n := h.countEvents(EventNotice); n != 1 {
		t.Errorf("%d notices, want the one about the skill", n)
	}
	h.run(context.Background(), "again")
	if req := h.lastRequest(); !slices.Contains(req.ToolNames(), "Write") {
		t.Errorf("the next prompt is still narrowed: %v", req.ToolNames())
	}
}

// With many agents, the Task tool's description stays small: past its
// cap the agents are named only, and each is still in the enum.
func TestTaskListIsCapped(t *testing.T) {
	var profiles []Profile
	for i := range 150 {
		profiles = append(profiles, Profile{Name: fmt.Sprintf("agent-%03d", i), Description: strings.Repeat("word ", 30)})
	}
	d := taskDescriptorFor(profiles)
	if len(d.Description) > maxTaskList+2048 {
		t.Errorf("description of %d bytes", len(d.Description))
	}
	if !strings.Contains(d.Description, "- and, by name only: ") || !strings.Contains(d.Description, "agent-149") {
		t.Errorf("the agents past the cap are not named:\n%s", d.Description[len(d.Description)-300:])
	}
	enum := d.Parameters[len(d.Parameters)-1].Enum
	if len(enum) != 151 {
		t.Errorf("enum of %d names", len(enum))
	}
}

// A custom command's !`command` runs as a Bash call of the model's would:
// the scope and the policy decide it, and its output comes back; the
// conversation does not get the call.
func TestShell(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{{Text: "ok"}}})
	h.cfg.Policy = h.policy(permission.Config{Allow: []string{"Bash(echo:*)"}})
	a := New(h.cfg)
	conv := &Conversation{}
	var events []Event
	out, ok := a.Shell(context.Background(), conv, "echo hi", func(e Event) { events = append(events, e) })
	if !ok || !strings.Contains(out, "hi") {
		t.Errorf("echo: %v %q", ok, out)
	}
	out, ok = a.Shell(context.Background(), conv, "rm -rf /tmp/nothing-here", func(e Event) { events = append(events, e) })
	if ok || !strings.Contains(out, "Denied") {
		t.Errorf("rm: %v %q", ok, out)
	}
	if len(conv.Messages) != 0 {
		t.Errorf("the conversation got %d messages", len(conv.Messages))
	}
	var results int
	for _, e := range events {
		if e.Type == EventToolResult {
			results++
		}
	}
	if results != 2 {
		t.Errorf("%d results among %d events", results, len(events))
	}
}
