//go:build unix

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// TestResumeAfterKill: forge ask killed with SIGKILL while a tool call
// runs leaves a session that forge ask --continue takes up: the model's
// message with the call was kept before the call ran, and the call is
// answered as cancelled, so the provider accepts the conversation.
func TestResumeAfterKill(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "echo $$ > p0; sleep 300"}`)}}},
		{Text: "Picked up where we left off."},
	}})
	dir := t.TempDir()
	env := []string{"FORGE_PROVIDER=openai", "FORGE_BASE_URL=" + srv.OpenAIURL()}

	cmd := forgeCommand(t, dir, "ask", "--approval", "yolo", "run the long job")
	cmd.Env = append(cmd.Env, env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPidFiles(t, dir, []string{"p0"})
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	_ = syscall.Kill(pids[0], syscall.SIGKILL) // no guard survives SIGKILL

	again := forgeCommand(t, dir, "ask", "--continue", "go on")
	again.Env = append(again.Env, env...)
	if err := again.Run(); err != nil {
		t.Fatalf("forge ask --continue: %v\n%s", err, readOutput(dir))
	}
	if out := readOutput(dir); !strings.Contains(out, "Picked up where we left off.") {
		t.Errorf("output:\n%s", out)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	msgs := reqs[1].Messages
	if len(msgs) != 4 || msgs[0].Text != "run the long job" || len(msgs[1].ToolCalls) != 1 ||
		msgs[2].Result == nil || !strings.HasPrefix(msgs[2].Result.Content, "Cancelled") || msgs[3].Text != "go on" {
		t.Errorf("resumed conversation: %+v", msgs)
	}
	if reqs[1].Rejected != "" {
		t.Errorf("the provider would refuse it: %s", reqs[1].Rejected)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, ".local", "share", "forge", "sessions", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("session logs: %v", logs)
	}
	if fi, err := os.Stat(logs[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log %v, mode %v", err, fi.Mode())
	}
}

// TestSessionInUse: while one forge writes a session (its model request
// hangs), a second forge ask --continue, forge undo and forge sessions rm
// on it fail at once with exit status 1, naming the first forge's pid;
// once the first is killed with SIGKILL, no stale lock remains and the
// session goes on.
func TestSessionInUse(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Stall: true},
		{Text: "Picked up where we left off."},
	}})
	dir := t.TempDir()
	env := []string{"FORGE_PROVIDER=openai", "FORGE_BASE_URL=" + srv.OpenAIURL()}

	first := forgeCommand(t, dir, "ask", "hold the session")
	first.Env = append(first.Env, env...)
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	waitRequests(t, srv, 1, dir)
	logs, _ := filepath.Glob(filepath.Join(dir, ".local", "share", "forge", "sessions", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("session logs: %v", logs)
	}
	id := strings.TrimSuffix(filepath.Base(logs[0]), ".jsonl")
	want := fmt.Sprintf("session %s is in use by forge (pid %d); wait for it to end or start a new session", id, first.Process.Pid)

	for _, args := range [][]string{
		{"ask", "--continue", "a second writer"},
		{"ask", "-r", id, "a second writer"},
		{"undo"},
		{"sessions", "rm", id},
	} {
		cmd := forgeCommand(t, dir, args...)
		cmd.Env = append(cmd.Env, env...)
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if code := runExit(t, cmd); code != 1 {
			t.Errorf("forge %s exited with %d, want 1\n%s", strings.Join(args, " "), code, out.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("forge %s said:\n%s\nwant %q", strings.Join(args, " "), out.String(), want)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("the refused forges made requests: %d in all", n)
	}

	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = first.Wait()
	again := forgeCommand(t, dir, "ask", "--continue", "go on")
	again.Env = append(again.Env, env...)
	var out strings.Builder
	again.Stdout, again.Stderr = &out, &out
	if code := runExit(t, again); code != 0 || !strings.Contains(out.String(), "Picked up where we left off.") {
		t.Errorf("after the holder was killed: exit %d\n%s", code, out.String())
	}
}

// waitRequests waits until the fake provider has had n requests.
func waitRequests(t *testing.T, srv *llmtest.Server, n int, dir string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(srv.Requests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the provider had %d requests, want %d\n%s", len(srv.Requests()), n, readOutput(dir))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// runExit runs cmd and returns its exit status; a forge that waits on a
// session instead of failing at once is stopped after a minute.
func runExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("forge %s did not exit within a minute", strings.Join(cmd.Args[1:], " "))
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}
