package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// TestACPEndsToolProcesses: forge acp, whose model had Bash start
// processes that escape their group, ends them all when the editor hangs
// up (closes forge's standard input) and when it gets SIGTERM.
func TestACPEndsToolProcesses(t *testing.T) {
	for _, c := range []struct {
		name string
		stop func(cmd *exec.Cmd, stdin io.Closer) error
		code int
	}{
		{"editor hangs up", func(_ *exec.Cmd, stdin io.Closer) error { return stdin.Close() }, 0},
		{"SIGTERM", func(cmd *exec.Cmd, _ io.Closer) error { return cmd.Process.Signal(syscall.SIGTERM) }, 143},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "sh escape.sh"}`)}}},
				{Text: "never reached"},
			}})
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "escape.sh"), []byte(escapees+"sleep 300\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := forgeCommand(t, dir, "acp", "--approval", "yolo")
			cmd.Env = append(cmd.Env, "FORGE_PROVIDER=openai", "FORGE_BASE_URL="+srv.OpenAIURL(), "OPENAI_API_KEY=test")
			cmd.Stdout = nil
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			conn := sdk.NewClientSideConnection(&scriptEditor{answer: "allow_once"}, stdin, stdout)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if _, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber}); err != nil {
				t.Fatal(err)
			}
			s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: dir, McpServers: []sdk.McpServer{}})
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				_, _ = conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("run the script")}})
			}()
			pids := waitPidFiles(t, dir, escapeePids)
			if err := c.stop(cmd, stdin); err != nil {
				t.Fatal(err)
			}
			<-conn.Done()
			if code := waitExit(t, cmd); code != c.code {
				t.Errorf("forge acp exited with %d, want %d\n%s", code, c.code, readOutput(dir))
			}
			waitAllGone(t, pids)
		})
	}
}
