//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
