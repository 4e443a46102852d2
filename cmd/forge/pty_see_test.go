//go:build linux || darwin

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/creack/pty"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// On a terminal the person sees the agent's work: the first lines of a
// command's output under its call, a file read summed up as its lines,
// the diff of an edit auto-edit mode made without a question, and /last
// for all of it. The prompt says the mode is not the default.
func TestInteractiveSeesTheWork(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "Counting.", ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "seq 1 12"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path": "hello.txt"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{Name: "Edit",
			Arguments: json.RawMessage(`{"file_path": "hello.txt", "old_string": "World", "new_string": "forge"}`)}}},
		{Text: "Done."},
	}})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=auto-edit")
	tm.expect(`forge \[auto-edit\]> *$`)
	tm.send("count, read and greet\r")
	// Commands still ask in auto-edit mode.
	tm.expect(`(?s)Allow Bash\?.*seq 1 12.*\? *$`)
	tm.send("y\r")
	// (The transcript keeps the spinner's frames, which the terminal
	// erased: [^\n]* before a line.)
	tm.expect(`(?s)✓ Bash\(seq 1 12\)\n  ⎿ 1\n    2\n    3\n    4\n    … \+8 lines \(/last shows all\)\n` +
		`[^\n]*✓ Read\(hello\.txt\) · 1 line\n` +
		`[^\n]*✓ Edit\(hello\.txt\) \+1 −1\n  ⎿ @@ -1 \+1 @@\n    -Hello, World!\n    \+Hello, forge!\n` +
		`.*Done\..*forge \[auto-edit\]> *$`)
	if b, err := os.ReadFile(filepath.Join(tm.cmd.Dir, "hello.txt")); err != nil || string(b) != "Hello, forge!\n" {
		t.Errorf("hello.txt = %q, %v", b, err)
	}
	tm.send("/last\r")
	tm.expect(`(?s)✓ Edit\(hello\.txt\) \+1 −1\n--- .*hello\.txt\n\+\+\+ .*hello\.txt\n@@ -1 \+1 @@\n-Hello, World!\n\+Hello, forge!\nforge \[auto-edit\]> *$`)
	tm.send("/last 3\r")
	tm.expect(`(?s)✓ Bash\(seq 1 12\)\n1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\nforge \[auto-edit\]> *$`)
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
	if f := srv.Failures(); len(f) > 0 {
		t.Errorf("the fake provider failed: %v", f)
	}
}

// An edit the person approved after the question showed its diff is
// summed up by its counts under its call (the diff was just seen), and
// /last shows its whole diff with them, as for an edit made unasked.
func TestInteractiveLastAfterApprovedEdit(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Edit",
			Arguments: json.RawMessage(`{"file_path": "hello.txt", "old_string": "World", "new_string": "forge"}`)}}},
		{Text: "Done."},
	}})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL())
	tm.expect(`forge> *$`)
	tm.send("greet\r")
	tm.expect(`(?s)Allow Edit\?.*\? *$`)
	tm.send("y\r")
	tm.expect(`(?s)✓ Edit\(hello\.txt\) \+1 −1\n.*Done\..*forge> *$`)
	if strings.Contains(tm.screen()[strings.LastIndex(tm.screen(), "✓ Edit"):], "⎿") {
		t.Errorf("the diff the question showed is shown again:\n%s", tm.screen())
	}
	tm.send("/last\r")
	tm.expect(`(?s)✓ Edit\(hello\.txt\) \+1 −1\n--- .*hello\.txt\n\+\+\+ .*hello\.txt\n@@ -1 \+1 @@\n-Hello, World!\n\+Hello, forge!\nforge> *$`)
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
}

// While a slow command runs, its last lines and the time it has taken
// show, redrawn in place; once it is over, they make way for its preview.
// Ctrl-C keeps what a command printed, on the screen and for the model.
func TestInteractiveLiveOutput(t *testing.T) {
	slow := `for i in 1 2 3; do echo line$i; sleep 1; done`
	args, err := json.Marshal(map[string]string{"command": slow})
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: args}}},
		{Text: "Counted."},
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "echo compiled 3 of 9; sleep 30"}`)}}},
		{Text: "It got to 3 of 9."},
	}})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=yolo")
	tm.expect(`forge \[yolo\]> *$`)
	tm.send("count slowly\r")
	tm.expect(`(?s)[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash\(for i in 1 2 3; do echo line\$i; sleep 1; done\) · 0s\n    line1`)
	tm.expect(`(?s)· [12]s\n    line1\n    line2`)
	tm.expect(`(?s)✓ Bash\(for i in 1 2 3; do echo line\$i; sleep 1; done\)\n  ⎿ line1\n    line2\n    line3\n.*Counted\..*forge \[yolo\]> *$`)

	tm.send("build it\r")
	tm.expect(`(?s)Bash\(echo compiled 3 of 9; sleep 30\) · 0s\n    compiled 3 of 9`)
	tm.send("\x03")
	tm.expect(`(?s)⊘ Bash\(echo compiled 3 of 9; sleep 30\): cancelled\n  ⎿ compiled 3 of 9\n.*forge \[yolo\]> *$`)
	tm.send("how far did it get?\r")
	tm.expect(`(?s)It got to 3 of 9\..*forge \[yolo\]> *$`)
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	got := ""
	for _, r := range last.Results() {
		got += r.Content
	}
	if !strings.Contains(got, "cancelled") || !strings.Contains(got, "What it printed before it was cancelled:\ncompiled 3 of 9") {
		t.Errorf("the model was told %q", got)
	}
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
	if f := srv.Failures(); len(f) > 0 {
		t.Errorf("the fake provider failed: %v", f)
	}
}

// Once the conversation passes half of the model's window, the prompt
// says how full it is.
func TestInteractiveContextGauge(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "A short answer.", Usage: &llmtest.Usage{Input: 20_000, Output: 100}},
		{Text: "A long one.", Usage: &llmtest.Usage{Input: 31_000, Output: 500}},
	}})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_CONTEXT_WINDOW=50000",
		"FORGE_APPROVAL=plan")
	tm.expect(`forge \[plan\]> *$`)
	tm.send("first\r")
	tm.expect(`(?s)A short answer\..*forge \[plan\]> *$`)
	tm.send("second\r")
	tm.expect(`(?s)A long one\..*forge \[plan, 63% context\]> *$`)
	tm.send("/clear\r")
	tm.expect(`(?s)New conversation\..*forge \[plan\]> *$`)
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
}

// The running call's live lines follow a resize: after the terminal is
// made narrower, they are erased over every row they wrapped onto and
// drawn again to the new width.
func TestInteractiveLiveAreaResize(t *testing.T) {
	command := `for i in 1 2 3 4 5 6 7 8 9 10; do echo "line $i of a command whose output is rather wide for a narrow terminal"; sleep 0.3; done`
	args, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		t.Fatal(err)
	}
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: args}}},
		{Text: "Printed."},
	}})
	tm, _ := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=yolo")
	tm.expect(`forge \[yolo\]> *$`)
	tm.send("print\r")
	tm.expect(`line 2 of a command`)
	mark := len(tm.rawOutput())
	if err := pty.Setsize(tm.ptmx, &pty.Winsize{Rows: 40, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	tm.expect(`line 4 of a`)
	after := tm.rawOutput()[mark:]
	// The first redraw at 40 columns goes up over the rows the wide lines
	// (up to 97 cells: 3 rows each at 40) now take; every line drawn from
	// there fits 40 columns.
	first := -1
	for _, m := range regexp.MustCompile(`\x1b\[(\d+)A`).FindAllStringSubmatchIndex(after, -1) {
		if n, _ := strconv.Atoi(after[m[2]:m[3]]); n >= 5 {
			first = m[1]
			break
		}
	}
	if first < 0 {
		t.Fatalf("after the resize the live area did not go up over its wrapped rows: %q", after)
	}
	for _, l := range regexp.MustCompile(`[\r\n]`).Split(after[first:], -1) {
		l = ansi.ReplaceAllString(l, "")
		if w := utf8.RuneCountInString(l); w > 40 {
			t.Errorf("a live line of %d cells on a 40-column terminal: %q", w, l)
		}
	}
	tm.expect(`(?s)Printed\..*forge \[yolo\]> *$`)
	tm.send("\x04")
	tm.wait()
}
