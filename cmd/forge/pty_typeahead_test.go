//go:build linux || darwin

package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// What is typed while the model answers is neither echoed into its
// answer (escape sequences least of all) nor lost: it waits for the next
// prompt, where a line typed with Enter runs as the next prompt. An
// approval question asked meanwhile reads only what is typed after it:
// the "y" and "a" typed ahead answer nothing. A paste typed ahead is one,
// whatever its lines.
func TestInteractiveTypeAhead(t *testing.T) {
	gate := make(chan struct{})
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Match: func(*llmtest.Request) bool { <-gate; return true },
			ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "echo hi"}`)}}},
		{Text: "Refused."},
		{Text: "Queued answer."},
		{Text: "Last."},
	}})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=ask")
	tm.expect(`forge> *$`)
	tm.send("run it\r")
	tm.expect(`Thinking…`)
	if raw := tm.rawOutput(); strings.LastIndex(raw, "\x1b[?2004h") < strings.LastIndex(raw, "\x1b[?2004l") {
		t.Errorf("bracketed paste is off while the line runs: %q", raw[max(0, len(raw)-200):])
	}
	tm.send("yes all\x1b[Z of it\r")
	tm.send("and more " + bracketed("one\rtwo\r"))
	time.Sleep(300 * time.Millisecond) // the bytes reach forge before the question
	close(gate)
	tm.expect(`(?s)Allow Bash\?.*echo hi.*\n\? *$`)
	time.Sleep(300 * time.Millisecond) // an answer typed ahead would show by now
	if s := tm.screen(); strings.Contains(s, "denied") || !strings.HasSuffix(strings.TrimRight(s, " "), "\n?") {
		t.Fatalf("the question took an answer typed before it:\n%s", s)
	}
	tm.send("n")
	// The first line typed ahead runs at the prompt (Shift+Tab in it
	// changed the mode), the second waits in the next prompt's line.
	tm.expect(`(?s)denied by you.*Refused\..*forge \[[a-z-]+\]> yes all of it\n.*Queued answer\..*forge \[[a-z-]+\]> and more \[pasted 2 lines, 8 bytes\] *$`)
	if got := lastUserText(t, srv); got != "yes all of it" {
		t.Errorf("the model got %q for the line typed ahead", got)
	}
	screen := tm.screen()
	if strings.Contains(screen, "^[") || strings.Contains(screen, "[Z") {
		t.Errorf("an escape sequence typed during a turn printed raw:\n%s", screen)
	}
	if i := strings.Index(screen, "Allow Bash?"); strings.Contains(screen[:i], "yes all") {
		t.Errorf("what was typed during the turn was echoed into it:\n%s", screen[:i])
	}
	tm.send("\r")
	tm.expect(`(?s)Last\..*forge \[[a-z-]+\]> *$`)
	if got := lastUserText(t, srv); strings.TrimSuffix(got, "\n") != "and more one\ntwo" {
		t.Errorf("the model got %q for the second line typed ahead", got)
	}
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
}
