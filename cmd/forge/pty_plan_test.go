//go:build linux || darwin

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// Shift+Tab (ESC [ Z) at the prompt goes through ask, auto-edit and plan,
// the prompt drawn again with the mode and the line typed so far kept;
// /plan does the same in words, /mode NAME picks one.
func TestInteractiveModeKey(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=ask")
	tm.expect(`forge> *$`)
	tm.send("abc")
	tm.expect(`forge> abc$`)
	tm.send("\x1b[Z")
	tm.expect(`forge \[auto-edit\]> abc$`)
	tm.send("\x1b[Z")
	tm.expect(`forge \[plan\]> abc$`)
	tm.send("\x1b[Z")
	tm.expect(`forge> abc$`)
	tm.send("\x15/plan\r") // Ctrl-U drops the line typed
	tm.expect(`(?s)Approval mode: auto-edit \(file edits in the working directory run without asking\)\.\nforge \[auto-edit\]> *$`)
	tm.send("/mode plan\r")
	tm.expect(`(?s)Approval mode: plan \(.*\)\.\nforge \[plan\]> *$`)
	tm.send("/mode nope\r")
	tm.expect(`(?s)unknown approval mode "nope": use one of ask, auto-edit, yolo, plan.*forge \[plan\]> *$`)
	tm.send("/mode\r")
	tm.expect(`(?s)Approval mode: plan \(the agent only reads, then proposes a plan for you to approve\)\.\nforge \[plan\]> *$`)
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
}

// A plan put to the person: rendered, sent back with a comment, then
// approved with auto-edit, and carried out with the task list ticking.
func TestInteractivePlanApproval(t *testing.T) {
	todos := func(status string) json.RawMessage {
		return json.RawMessage(`{"todos": [{"content": "Write hello.txt", "status": "` + status + `", "activeForm": "Writing hello.txt"}]}`)
	}
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path": "hello.txt"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "ExitPlanMode", Arguments: json.RawMessage(`{"plan": "## Greeting\n\n1. Write **greet.txt**"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "ExitPlanMode", Arguments: json.RawMessage(`{"plan": "## Greeting\n\n1. Write **hello.txt**"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "TodoWrite", Arguments: todos("in_progress")}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "Write", Arguments: json.RawMessage(`{"file_path": "hello.txt", "content": "Hello, forge!\n"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "TodoWrite", Arguments: todos("completed")}}},
		{Text: "Done."},
	}})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=plan")
	tm.expect(`forge \[plan\]> *$`)
	tm.send("greet in a file\r")
	tm.expect(`(?s)Plan\n\n## Greeting\n\n1\. Write greet\.txt\n\nApprove this plan\?\n\[y\] yes, and make the edits without asking \(auto-edit\)  \[k\] yes, and ask before each change\n  \[n\] no, keep planning \(say what to change\)\n\? *$`)
	tm.send("n")
	tm.expect(`What should change\? \(one line, Enter sends it\):\n\? *$`)
	tm.send("name it hello.txt\r")
	tm.expect(`(?s)1\. Write hello\.txt.*Approve this plan\?.*\? *$`)
	tm.send("y")
	tm.expect(`(?s)note: plan approved: the approval mode is now auto-edit\n.*Tasks · 0 of 1 done\n  ▸ Writing hello\.txt\n` +
		`.*✓ Write\(hello\.txt\).*Tasks · 1 of 1 done\n  ✓ Write hello\.txt\n.*Done\..*forge \[auto-edit\]> *$`)
	if b, err := os.ReadFile(filepath.Join(tm.cmd.Dir, "hello.txt")); err != nil || string(b) != "Hello, forge!\n" {
		t.Errorf("hello.txt = %q, %v", b, err)
	}
	reqs := srv.Requests()
	got := ""
	for _, r := range reqs[2].Results() {
		got += r.Content
	}
	if !strings.Contains(got, `they said: "name it hello.txt"`) {
		t.Errorf("the model was told %q", got)
	}
	tm.send("/todos\r")
	tm.expect(`(?s)Tasks · 1 of 1 done\n  ✓ Write hello\.txt\nforge \[auto-edit\]> *$`)
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
	if f := srv.Failures(); len(f) > 0 {
		t.Errorf("the fake provider failed: %v", f)
	}
}
