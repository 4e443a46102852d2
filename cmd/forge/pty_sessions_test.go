//go:build linux || darwin

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// startForgeAt runs forge with args on a new 40x100 pseudo-terminal in
// dir, whose sessions outlive the run (HOME and XDG directories are in
// dir), so that a later run can resume them.
func startForgeAt(t *testing.T, dir string, args []string, env ...string) *terminal {
	t.Helper()
	bin, err := exec.LookPath("forge")
	if err != nil {
		t.Skipf("forge is not on PATH: %v", err)
	}
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 100}); err != nil {
		t.Fatalf("setsize: %v", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"), "XDG_DATA_HOME="+filepath.Join(dir, "data"), "NO_COLOR=1", "TERM=xterm",
		"GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start forge: %v", err)
	}
	tm := &terminal{t: t, ptmx: ptmx, tty: tty, cmd: cmd, done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			tm.mu.Lock()
			tm.out.Write(buf[:n])
			tm.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { tm.done <- cmd.Wait() }()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-tm.done
		}
		ptmx.Close()
		tty.Close()
	})
	return tm
}

// leave sends Ctrl-D and returns the session id forge says to resume with.
func (tm *terminal) leave() string {
	tm.t.Helper()
	tm.send("\x04")
	if code := tm.wait(); code != 0 {
		tm.t.Fatalf("exit status %d; output:\n%s", code, tm.screen())
	}
	m := regexp.MustCompile(`Resume this conversation with: forge -r (sess_[0-9a-f]+)\n`).FindStringSubmatch(tm.screen())
	if m == nil {
		tm.t.Fatalf("forge did not say how to resume; output:\n%s", tm.screen())
	}
	return m[1]
}

// forge --resume without an id, on a terminal: a numbered list of this
// directory's conversations (age, prompts, size, first prompt), the one
// picked goes on with its last exchanges shown again; /resume in the
// shell offers the same list, the current one marked; leaving says how
// to come back.
func TestInteractiveResumePicker(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "The build uses make."},
		{Text: "Run make test."},
		{Text: "The README is fine."},
		{Text: "Back on the build, then."},
	}})
	dir := t.TempDir()
	model := []string{"FORGE_PROVIDER=openai", "FORGE_BASE_URL=" + srv.OpenAIURL()}

	tm := startForgeAt(t, dir, nil, model...)
	// The banner says where the agent works and what it may do there.
	tm.expect(`(?s)Working in ~; approval mode ask: edits and commands are put to you first\.\n.*forge> *$`)
	tm.send("how is it built?\r")
	tm.expect(`(?s)The build uses make\..*forge> *$`)
	tm.send("and tested?\r")
	tm.expect(`(?s)Run make test\..*forge> *$`)
	build := tm.leave()

	tm = startForgeAt(t, dir, nil, model...)
	tm.expect(`forge> *$`)
	tm.send("check the README\r")
	tm.expect(`(?s)The README is fine\..*forge> *$`)
	readme := tm.leave()

	// The pinned clock gives both the same time: the list is then in the
	// order of their ids.
	tm = startForgeAt(t, dir, []string{"--resume"}, model...)
	tm.expect(`(?s)Conversations in .*, newest first:\n` +
		`  1  just now +2 prompts +\d+ B  ` + build + `  "how is it built\?"\n` +
		`  2  just now +1 prompt +\d+ B  ` + readme + `  "check the README"\n` +
		`Resume which one\? \(1-2, or an id; Enter for none\) *$`)
	// A slip is asked again, saying why.
	tm.send("3\r")
	tm.expect(`\n"3" is none of them \(1-2, or an id; Enter for none\): *$`)
	tm.send("sess_0123456789ab\r")
	tm.expect(`\nThere is no session sess_0123456789ab \(1-2, or an id; Enter for none\): *$`)
	tm.send("1\r")
	tm.expect(`(?s)Continuing session ` + build + `: 2 prompts, 4 messages\. Where it left off:\n\n` +
		`forge> how is it built\?\nThe build uses make\.\n\nforge> and tested\?\nRun make test\.\n.*forge> *$`)
	// Ctrl-C at the question of /resume chooses none, and says so.
	tm.send("/resume\r")
	tm.expect(`Resume which one\? \(1-2, or an id; Enter for none\) *$`)
	tm.send("\x03")
	tm.expect(`(?s)The conversation goes on as it was\..*forge> *$`)
	tm.send("/resume\r")
	tm.expect(`(?s)  1  .*` + build + `  "how is it built\?"  ← this one\n  2  .*` + readme + `  "check the README"\n` +
		`Resume which one\? \(1-2, or an id; Enter for none\) *$`)
	tm.send("2\r")
	tm.expect(`(?s)Continuing session ` + readme + `: 1 prompt, 2 messages\. Where it left off:\n\nforge> check the README\nThe README is fine\..*forge> *$`)
	tm.send("and the build?\r")
	tm.expect(`(?s)Back on the build, then\..*forge> *$`)
	if got := tm.leave(); got != readme {
		t.Errorf("forge says to resume %s, the conversation was %s", got, readme)
	}
	// Ctrl-C at forge --resume's question ends forge, saying so.
	tm = startForgeAt(t, dir, []string{"--resume"}, model...)
	tm.expect(`Resume which one\? \(1-2, or an id; Enter for none\) *$`)
	tm.send("\x03")
	tm.expect(`\nInterrupted: no conversation was resumed, and forge did not start\.\n`)
	if code := tm.wait(); code != 130 {
		t.Errorf("exit status %d after Ctrl-C, want 130; output:\n%s", code, tm.screen())
	}
	last := srv.Requests()[3]
	if len(last.Messages) != 3 || last.Messages[0].Text != "check the README" || last.Rejected != "" {
		t.Errorf("the resumed conversation sent: %+v (%s)", last.Messages, last.Rejected)
	}
}

// /compact on a conversation of ten prompts, far below the model's
// window: everything before the last exchange becomes a summary, the
// next prompt goes on from it, and forge says what it did.
func TestInteractiveCompactTenPrompts(t *testing.T) {
	var turns []llmtest.Turn
	for i := 1; i <= 10; i++ {
		turns = append(turns, llmtest.Turn{Text: fmt.Sprintf("Answer %d.", i), Usage: &llmtest.Usage{Input: 4_900, Output: 100}})
	}
	turns = append(turns,
		llmtest.Turn{When: &llmtest.When{System: "You summarise"}, Text: "SUMMARY: nine prompts about the parser."},
		llmtest.Turn{Text: "Going on from the summary."})
	srv := llmtest.NewServer(t, llmtest.Script{Turns: turns})
	tm := startForgeAt(t, t.TempDir(), nil, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL())
	tm.expect(`forge> *$`)
	for i := 1; i <= 10; i++ {
		tm.send(fmt.Sprintf("prompt number %d about the parser\r", i))
		tm.expect(fmt.Sprintf(`(?s)Answer %d\..*forge> *$`, i))
	}
	tm.send("/compact\r")
	tm.expect(`(?s)Conversation compacted 18 earlier messages into a summary; kept the last 2 \(about \d+ → \d+\s+tokens\)\..*forge> *$`)
	tm.send("/compact\r")
	tm.expect(`(?s)Nothing to compact: the conversation is already a summary and its last exchange, which is kept as it\s+is\..*forge> *$`)
	tm.send("what next?\r")
	tm.expect(`(?s)Going on from the summary\..*forge> *$`)
	tm.leave()

	reqs := srv.Requests()
	if len(reqs) != 12 {
		t.Fatalf("%d requests, want 10 prompts, 1 summary and 1 more", len(reqs))
	}
	sum := reqs[10].Messages[0].Text
	if !strings.Contains(sum, "prompt number 9 about") || strings.Contains(sum, "prompt number 10 about") {
		t.Errorf("the summary request holds:\n%s", sum)
	}
	last := reqs[11]
	if len(last.Messages) != 3 || !strings.Contains(last.Messages[0].Text, "SUMMARY: nine prompts about the parser.") ||
		!strings.HasSuffix(last.Messages[0].Text, "prompt number 10 about the parser") || last.Messages[2].Text != "what next?" || last.Rejected != "" {
		t.Errorf("after /compact the model got: %+v (%s)", last.Messages, last.Rejected)
	}
}
