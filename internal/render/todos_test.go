package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
)

var threeTodos = agent.Todos{
	{Content: "Add the --shout flag", Status: agent.TodoCompleted, ActiveForm: "Adding the flag"},
	{Content: "Write the test", Status: agent.TodoInProgress, ActiveForm: "Writing the test"},
	{Content: "Update the README", Status: agent.TodoPending},
}

func TestTodoList(t *testing.T) {
	want := "Tasks · 1 of 3 done\n  ✓ Add the --shout flag\n  ▸ Writing the test\n  ○ Update the README"
	if got := New(Options{}).TodoList(threeTodos); got != want {
		t.Errorf("TodoList:\n%s\nwant:\n%s", got, want)
	}
	if got := New(Options{}).TodoList(nil); got != "" {
		t.Errorf("an empty list: %q", got)
	}
	long := agent.Todos{{Content: strings.Repeat("word ", 12) + "\x1b[2J", Status: agent.TodoPending}}
	for _, l := range strings.Split(New(Options{Width: 30}).TodoList(long), "\n") {
		if textWidth(l) > 30 || strings.Contains(l, "\x1b") {
			t.Errorf("line %q does not fit 30 columns or is unsafe", l)
		}
	}
}

// On a terminal a TodoWrite call shows as the list it wrote; the JSON
// stream has a todo event.
func TestRunViewTodos(t *testing.T) {
	call := &agent.Call{ID: "t1", Name: agent.TodoToolName}
	l := newLiveRun(nil)
	plan := &agent.Call{ID: "p1", Name: agent.PlanToolName}
	l.send(agent.Event{Type: agent.EventToolStart, Call: call}, agent.Event{Type: agent.EventToolResult, Call: call, Result: ok("updated")},
		agent.Event{Type: agent.EventTodo, Todos: threeTodos},
		agent.Event{Type: agent.EventToolStart, Call: plan}, agent.Event{Type: agent.EventToolResult, Call: plan, Result: ok("## The plan")})
	l.v.Close()
	if got := l.screen(); strings.Contains(got, agent.TodoToolName) || strings.Contains(got, "The plan") || !strings.Contains(got, "Tasks · 1 of 3 done\n  ✓ Add the --shout flag\n  ▸ Writing the test\n") {
		t.Errorf("terminal:\n%s", got)
	}
	var out bytes.Buffer
	v := NewJSON(&out).Run(RunInfo{}, RunOptions{})
	v.Event(agent.Event{Type: agent.EventTodo, Todos: threeTodos[:1]})
	v.Event(agent.Event{Type: agent.EventTodo})
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[1] != `{"type":"todo","todos":[{"content":"Add the --shout flag","status":"completed","activeForm":"Adding the flag"}]}` ||
		lines[2] != `{"type":"todo","todos":[]}` {
		t.Errorf("json: %q", lines[1:])
	}
}

// A resumed conversation shows its task list after its last exchanges.
func TestResumedTextShowsTodos(t *testing.T) {
	got := ResumedText(ResumedView{Header: "Continuing session sess_1: 1 prompt, 2 messages.", Todos: threeTodos}, 0, false)
	if !strings.HasSuffix(got, "\nTasks · 1 of 3 done\n  ✓ Add the --shout flag\n  ▸ Writing the test\n  ○ Update the README\n") {
		t.Errorf("resumed:\n%s", got)
	}
}

// A reminder forge gave the model is not shown as one of the person's
// prompts when a conversation is resumed.
func TestRecapLeavesRemindersOut(t *testing.T) {
	msgs := []llm.Message{
		{Role: llm.RoleUser, Text: "add a flag"},
		{Role: llm.RoleAssistant, Text: "Stopping."},
		{Role: llm.RoleUser, Text: "<system-reminder>\nYour task list still has unfinished items:\n</system-reminder>"},
		{Role: llm.RoleAssistant, Text: "All done."},
	}
	got := Recap(msgs, RecapOptions{Exchanges: 1, Prompt: "forge> "})
	if strings.Contains(got, "task list") || !strings.Contains(got, "forge> add a flag") || !strings.Contains(got, "All done.") {
		t.Errorf("recap:\n%s", got)
	}
}
