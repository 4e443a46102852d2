package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
)

func TestRecap(t *testing.T) {
	read := llm.ToolCall{ID: "c1", Name: "Read", Arguments: json.RawMessage(`{"limit": 5, "file_path": "main.go"}`)}
	broken := llm.ToolCall{ID: "c2", Name: "Read", Arguments: json.RawMessage(`{"file_path": `)}
	order := func(tool string) []string { return []string{"file_path", "limit"} }
	long := strings.Repeat("answer line\n\n", 9) + "last"
	conv := []llm.Message{
		{Role: llm.RoleUser, Text: "first prompt, not shown"},
		{Role: llm.RoleAssistant, Text: "first answer"},
		{Role: llm.RoleUser, Text: "explain this error:\npanic: boom\n  main.go:8\n  main.go:3"},
		{Role: llm.RoleAssistant, Text: "Let me look.", ToolCalls: []llm.ToolCall{read, broken}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: "package main"}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c2", Content: "invalid", IsError: true}},
		{Role: llm.RoleAssistant, Text: long},
		{Role: llm.RoleUser, Text: "thanks \x1b[31m" + strings.Repeat("x", 100)},
		{Role: llm.RoleAssistant, Text: "You're welcome."},
	}
	got := Recap(conv, RecapOptions{Exchanges: 2, Width: 40, Prompt: "forge> ", ParamOrder: order})
	want := `forge> explain this error:
panic: boom
  main.go:8
… 1 more line
Let me look.
✓ Read(main.go)
✗ Read
answer line

answer line

answer line

… 13 more lines

forge> thanks ^[[31mxxxxxxxxxxxxxxxxxxx…
You're welcome.`
	if got != want {
		t.Errorf("recap:\n%s\nwant:\n%s", got, want)
	}
}

// A resumed conversation shows the person's prompts as they typed them,
// its answers rendered as the shell renders Markdown, and its calls with
// how they ended, every line within the width.
func TestRecapAsShown(t *testing.T) {
	paste := strings.Repeat("0123456789", 10_000)
	wrapped := "Before this prompt the person ran these commands in forge's shell (not through you); their output:\n" +
		"<shell-command>go test ./...</shell-command>\n<shell-output status=\"exit code 1\">\nFAIL\n</shell-output>\n\nwhy does it fail?"
	bash := func(id, cmd string) llm.ToolCall {
		return llm.ToolCall{ID: id, Name: "Bash", Arguments: json.RawMessage(`{"command": "` + cmd + `"}`)}
	}
	conv := []llm.Message{
		{Role: llm.RoleUser, Text: "explain " + paste},
		{Role: llm.RoleAssistant, Text: "## Cause\n\nThe **map** is `nil`:\n\n- make it first\n- or check it"},
		{Role: llm.RoleUser, Text: wrapped},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{bash("c1", "rm -rf build"), bash("c2", "go test ./..."),
			bash("c3", "sleep 30"), bash("c4", "go vet ./internal/agent/... ./internal/render/... ./internal/repl/...")}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: "Denied: the person refused", IsError: true}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c2", Content: "FAIL", IsError: true}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c3", Content: llm.CancelledResult, IsError: true}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c4", Content: "ok"}},
		{Role: llm.RoleAssistant, Text: "It fails because the test wants Hello, forge! and gets Hello, World!."},
	}
	opts := RecapOptions{Exchanges: 2, Width: 60, Prompt: "forge> ", ParamOrder: func(string) []string { return []string{"command"} },
		Typed: map[string]string{"explain " + paste: "explain [pasted 1 line, 100 KB]", wrapped: "why does it fail?"},
		Outcomes: map[string]CallOutcome{"c1": {Status: agent.StatusDenied, Note: "denied by you"},
			"c2": {Status: agent.StatusFailed, Exit: "exit 1"}}}
	got := Recap(conv, opts)
	want := `forge> explain [pasted 1 line, 100 KB]
## Cause

The **map** is ` + "`nil`" + `:

• make it first
• or check it

forge> why does it fail?
⊘ Bash(rm -rf build): denied by you
✗ Bash(go test ./...) · exit 1
⊘ Bash(sleep 30): cancelled
✓ Bash(go vet ./internal/agent/... ./internal/render/... ./…
It fails because the test wants Hello, forge! and gets
Hello, World!.`
	if got != want {
		t.Errorf("recap:\n%s\nwant:\n%s", got, want)
	}
	assertFits(t, got, 60)

	// In colour, as the live shell: the Markdown styled, the marks painted.
	opts.Color = true
	got = Recap(conv, opts)
	r := New(Options{Color: true})
	for _, w := range []string{r.paint(r.st.warning, "⊘"), r.paint(r.st.failure, "✗"), r.paint(r.st.success, "✓"), "\x1b[1m"} {
		if !strings.Contains(got, w) {
			t.Errorf("the coloured recap lacks %q:\n%q", w, got)
		}
	}
	if strings.Contains(got, "**") || strings.Contains(got, "^[") {
		t.Errorf("the coloured recap shows Markdown or escapes raw:\n%q", got)
	}
	assertFits(t, got, 60)
}

// A conversation resumed after a compaction says so, and shows the prompt
// the summary was joined to; an empty conversation recaps to nothing.
func TestRecapAfterCompaction(t *testing.T) {
	opened := "[The earlier part of this conversation was compacted into this summary.]\n\nSUMMARY\n\n---\n\nand the tests?"
	conv := []llm.Message{
		{Role: llm.RoleUser, Text: opened},
		{Role: llm.RoleAssistant, Text: "They pass."},
	}
	got := Recap(conv, RecapOptions{Exchanges: 3, Prompt: "> "})
	want := "(the conversation before was compacted into a summary)\n> and the tests?\nThey pass."
	if got != want {
		t.Errorf("recap:\n%s\nwant:\n%s", got, want)
	}
	got = Recap(conv, RecapOptions{Exchanges: 3, Prompt: "> ", Typed: map[string]string{opened: "and the [pasted 3 lines, 1 KB]?"}})
	if want := "(the conversation before was compacted into a summary)\n> and the [pasted 3 lines, 1 KB]?\nThey pass."; got != want {
		t.Errorf("recap of a typed prompt after a compaction:\n%s\nwant:\n%s", got, want)
	}
	if got := Recap(nil, RecapOptions{Exchanges: 2}); got != "" {
		t.Errorf("empty conversation: %q", got)
	}
}

// The text of a resumed conversation: its header, fitted, then where it
// left off; only the header when there is nothing to recap.
func TestResumedText(t *testing.T) {
	rv := ResumedView{Header: "Continuing session sess_9d8542b66d24: 2 prompts, 12 messages.",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}, {Role: llm.RoleAssistant, Text: "Hello."}},
		Recap:    RecapOptions{Exchanges: 2, Prompt: "forge> "}}
	got := ResumedText(rv, 60, false)
	want := "Continuing session sess_9d8542b66d24: 2 prompts, 12\nmessages. Where it left off:\n\nforge> hi\nHello.\n"
	if got != want {
		t.Errorf("resumed:\n%q\nwant:\n%q", got, want)
	}
	rv.Messages = nil
	if got := ResumedText(rv, 0, false); got != rv.Header {
		t.Errorf("nothing to recap: %q", got)
	}
}
