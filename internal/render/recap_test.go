package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

func TestRecap(t *testing.T) {
	read := llm.ToolCall{ID: "c1", Name: "Read", Arguments: json.RawMessage(`{"limit": 5, "file_path": "main.go"}`)}
	broken := llm.ToolCall{ID: "c2", Name: "Read", Arguments: json.RawMessage(`{"file_path": `)}
	order := func(tool string) []string { return []string{"file_path", "limit"} }
	long := strings.Repeat("answer line\n", 9) + "last"
	conv := []llm.Message{
		{Role: llm.RoleUser, Text: "first prompt, not shown"},
		{Role: llm.RoleAssistant, Text: "first answer"},
		{Role: llm.RoleUser, Text: "explain this error:\npanic: boom\n  main.go:8\n  main.go:3"},
		{Role: llm.RoleAssistant, Text: "Let me look.", ToolCalls: []llm.ToolCall{read, broken}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: "package main"}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c2", Content: "invalid"}},
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
● Read(main.go)
● Read
answer line
answer line
answer line
answer line
answer line
answer line
… 4 more lines

forge> thanks ^[[31mxxxxxxxxxxxxxxxxxxx…
You're welcome.`
	if got != want {
		t.Errorf("recap:\n%s\nwant:\n%s", got, want)
	}
}

// A conversation resumed after a compaction says so, and shows the prompt
// the summary was joined to; an empty conversation recaps to nothing.
func TestRecapAfterCompaction(t *testing.T) {
	conv := []llm.Message{
		{Role: llm.RoleUser, Text: "[The earlier part of this conversation was compacted into this summary.]\n\nSUMMARY\n\n---\n\nand the tests?"},
		{Role: llm.RoleAssistant, Text: "They pass."},
	}
	got := Recap(conv, RecapOptions{Exchanges: 3, Prompt: "> "})
	want := "(the conversation before was compacted into a summary)\n> and the tests?\nThey pass."
	if got != want {
		t.Errorf("recap:\n%s\nwant:\n%s", got, want)
	}
	if got := Recap(nil, RecapOptions{Exchanges: 2}); got != "" {
		t.Errorf("empty conversation: %q", got)
	}
}
