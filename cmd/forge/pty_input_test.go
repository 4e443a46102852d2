//go:build linux || darwin

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	tm.assertPasteOff()
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

// The approval question takes a single key: t refuses and reads a line of
// feedback that reaches the model; A then p allows, and keeps the rule in
// the project's settings, which apply at the next start without a new
// question about trust (forge made the project's .forge itself).
func TestInteractiveSingleKeyApproval(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "go vet ./..."}`)}}},
		{Text: "Understood."},
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "echo listed"}`)}}},
		{Text: "Done."},
	}})
	env := []string{"FORGE_PROVIDER=openai", "FORGE_BASE_URL=" + srv.OpenAIURL(), "FORGE_APPROVAL=ask"}
	tm, before := startForgeWith(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n"}, env...)
	tm.expect(`forge> *$`)
	tm.send("check the code\r")
	tm.expect(`(?s)Allow Bash\?.*go vet.*\[y\] yes, once.*\[A\] always, saved.*\[t\] no, and tell the model why\n\? *$`)
	tm.send("x") // not an answer: nothing happens
	tm.send("t")
	tm.expect(`\? t\nTell the model why.*\n\? *$`)
	tm.send("use go build instead\r")
	tm.expect(`(?s)denied by you: use go build instead.*Understood\..*forge> *$`)
	res := srv.Requests()[1].Results()
	if len(res) != 1 || !strings.Contains(res[0].Content, `the person refused this call and said: "use go build instead"`) {
		t.Errorf("the model was told %+v", res)
	}

	tm.send("echo something\r")
	tm.expect(`(?s)Allow Bash\?.*echo listed.*\n\? *$`)
	tm.send("A")
	tm.expect(`(?s)Save Bash\(echo listed:\*\) in permissions\.allow of:\s+\[p\] this project's settings \(~/\.forge/config\.yaml\)\s+\[u\] your settings .*\n\? *$`)
	tm.send("p")
	tm.expect(`(?s)Saved Bash\(echo listed:\*\) in permissions\.allow of ~/\.forge/config\.yaml\..*Done\..*forge> *$`)
	b, err := os.ReadFile(filepath.Join(tm.cmd.Dir, ".forge", "config.yaml"))
	if err != nil || !strings.Contains(string(b), "- Bash(echo listed:*)") {
		t.Errorf("project settings: %q, %v", b, err)
	}
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		t.Errorf("exit status %d; output:\n%s", code, tm.screen())
	}
	tm.assertRestored(before)

	// The next start applies the rule, and asks nothing about trust.
	again, _ := startForgeIn(t, tm.cmd.Dir, env...)
	again.expect(`forge> *$`)
	again.send("/permissions\r")
	again.expect(`(?s)Allow:\s+Bash\(echo listed:\*\).*forge> *$`)
	again.send("\x04")
	again.wait()
	if f := srv.Failures(); len(f) > 0 {
		t.Errorf("the fake provider failed: %v", f)
	}
}

// assertPasteOff checks that forge turned bracketed paste off after it
// last turned it on, waiting a little for the output still in the
// terminal after forge ended.
func (tm *terminal) assertPasteOff() {
	tm.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		raw := tm.rawOutput()
		if strings.LastIndex(raw, "\x1b[?2004l") > strings.LastIndex(raw, "\x1b[?2004h") {
			return
		}
		if time.Now().After(deadline) {
			tm.t.Errorf("bracketed paste left on: %q", raw[max(0, len(raw)-200):])
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}
