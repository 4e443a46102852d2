//go:build linux || darwin

package main

import (
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

// lastUserText is the text of the last message from the person in the
// server's last request.
func lastUserText(t *testing.T, srv *llmtest.Server) string {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the model got no request")
	}
	msgs := reqs[len(reqs)-1].Messages
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			return msgs[i].Text
		}
	}
	t.Fatal("the last request has no message from the person")
	return ""
}

func bracketed(s string) string { return "\x1b[200~" + s + "\x1b[201~" }

// A multi-line paste, Tabs and all, is one prompt: shown by its mark, sent
// whole, and nothing in it runs as a command. Bracketed paste is on while
// forge reads and off when it leaves.
func TestInteractivePasteIsOnePrompt(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "A nil map."}, {Text: "Two lines."}}})
	tm, before := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "FORGE_APPROVAL=ask")
	tm.expect(`forge> *$`)
	if raw := tm.rawOutput(); !strings.Contains(raw, "\x1b[?2004h") {
		t.Errorf("bracketed paste was not turned on: %q", raw[max(0, len(raw)-200):])
	}
	trace := "panic: assignment to entry in nil map\r\rgoroutine 1 [running]:\rmain.main()\r\t/tmp/x/main.go:8 +0x1d\rexit status 2\r/run Bash command=true\r"
	tm.send("explain this error: ")
	tm.send(bracketed(trace))
	tm.expect(`explain this error: \[pasted 7 lines, \d+ bytes\] *$`)
	tm.send("\r")
	tm.expect(`(?s)A nil map\..*forge> *$`)
	want := "explain this error: " + strings.ReplaceAll(trace, "\r", "\n")
	if got := lastUserText(t, srv); got != strings.TrimSuffix(want, "\n") && got != want {
		t.Errorf("the model got %q, want %q", got, want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests for one paste", n)
	}
	if s := tm.screen(); strings.Contains(s, "Unknown command") || strings.Contains(s, "Tool: Bash") {
		t.Errorf("a pasted line ran as a command:\n%s", s)
	}

	// A line typed in two: a trailing backslash, then Ctrl-J.
	tm.send("first\\\r")
	tm.expect(`\.\.\. *$`)
	tm.send("second\nthird\r")
	tm.expect(`(?s)Two lines\..*forge> *$`)
	if got := lastUserText(t, srv); got != "first\nsecond\nthird" {
		t.Errorf("the model got %q for a continued line", got)
	}

	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)
	raw := tm.rawOutput()
	if strings.LastIndex(raw, "\x1b[?2004l") < strings.LastIndex(raw, "\x1b[?2004h") {
		t.Errorf("bracketed paste left on at the end: %q", raw[max(0, len(raw)-200):])
	}
	if f := srv.Failures(); len(f) > 0 {
		t.Errorf("the fake provider failed: %v", f)
	}
}

// A 200 KB paste on one line is taken in at once (the line editor alone
// redraws per key, and took minutes for a tenth of it).
func TestInteractiveLongPaste(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "Long indeed."}}})
	tm, _ := startForge(t, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL())
	tm.expect(`forge> *$`)
	long := strings.Repeat("0123456789abcdef", 200<<10/16)
	start := time.Now()
	go func() { _, _ = tm.ptmx.Write([]byte(bracketed(long))) }() // blocks until forge reads
	tm.expect(`\[pasted 1 line, 200 KB\] *$`)
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a 200 KB paste took %v to be taken in", took)
	}
	tm.send("\r")
	tm.expect(`(?s)Long indeed\..*forge> *$`)
	if got := lastUserText(t, srv); got != long {
		t.Errorf("the model got %d bytes, want the %d pasted", len(got), len(long))
	}
	tm.send("\x04")
	tm.wait()
}

// rawOutput is everything forge printed, escapes included.
func (tm *terminal) rawOutput() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.out.String()
}
