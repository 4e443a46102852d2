package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdACPDrive is the script command "acpdrive ANSWER FILE PROMPT...":
// it starts forge acp (with the script's environment, in its working
// directory) as an editor would, through the Go SDK's client side,
// opens a session, answers every permission request with the option
// ANSWER (allow_once, allow_always, reject_once), sends PROMPT, and
// writes to FILE every session update, one JSON object a line, then the
// prompt's answer. It closes forge's standard input and fails unless
// forge then exits 0 having written nothing but JSON-RPC messages on
// its standard output.
func cmdACPDrive(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: acpdrive ANSWER FILE PROMPT...")
	}
	answer, file, prompt := args[0], args[1], strings.Join(args[2:], " ")
	cmd := exec.Command("forge", "acp")
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	ts.Check(err)
	out, err := cmd.StdoutPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	var stdout bytes.Buffer
	ed := &scriptEditor{answer: sdk.PermissionOptionId(answer)}
	conn := sdk.NewClientSideConnection(ed, in, teeReader{r: out, w: &stdout})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err = conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber})
	ts.Check(err)
	s, err := conn.NewSession(ctx, sdk.NewSessionRequest{Cwd: cmd.Dir, McpServers: []sdk.McpServer{}})
	ts.Check(err)
	resp, err := conn.Prompt(ctx, sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock(prompt)}})
	if err != nil {
		ts.Fatalf("session/prompt: %v\nstderr:\n%s", err, stderr.String())
	}
	ed.write(map[string]any{"stopReason": resp.StopReason})
	ts.Check(in.Close())
	select {
	case <-conn.Done(): // its standard output read to the end
	case <-ctx.Done():
		ts.Fatalf("forge acp did not end when its standard input closed\nstderr:\n%s", stderr.String())
	}
	if err := cmd.Wait(); err != nil {
		ts.Fatalf("forge acp: %v\nstderr:\n%s", err, stderr.String())
	}
	teeMu.Lock()
	written := stdout.String()
	teeMu.Unlock()
	for _, line := range strings.Split(strings.TrimSpace(written), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(line), &m) != nil || m["jsonrpc"] != "2.0" {
			ts.Fatalf("forge acp wrote a line that is no JSON-RPC message: %q", line)
		}
	}
	ed.mu.Lock()
	defer ed.mu.Unlock()
	ts.Check(os.WriteFile(ts.MkAbs(file), ed.log.Bytes(), 0o644))
}

// scriptEnv is the script's environment, for a process the script does
// not start with exec.
func scriptEnv(ts *testscript.TestScript) []string {
	env := os.Environ()
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "NO_COLOR", "GORACE",
		"FORGE_SANDBOX_MODE", "FORGE_PROVIDER", "FORGE_BASE_URL", "FORGE_APPROVAL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "PATH"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}

// teeReader is io.TeeReader behind a lock: the test reads what it wrote.
type teeReader struct {
	r interface{ Read([]byte) (int, error) }
	w *bytes.Buffer
}

var teeMu sync.Mutex

func (t teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	teeMu.Lock()
	t.w.Write(p[:n])
	teeMu.Unlock()
	return n, err
}

// scriptEditor is the editor of acpdrive: it logs what it is sent and
// answers as told; it offers neither files nor terminals.
type scriptEditor struct {
	answer sdk.PermissionOptionId
	mu     sync.Mutex
	log    bytes.Buffer
}

func (e *scriptEditor) write(v any) {
	b, _ := json.Marshal(v)
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log.Write(append(b, '\n'))
}

func (e *scriptEditor) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	e.write(n.Update)
	return nil
}

func (e *scriptEditor) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.write(map[string]any{"permission": p})
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(e.answer)}, nil
}

var errNotOffered = fmt.Errorf("not offered")

func (e *scriptEditor) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errNotOffered
}

func (e *scriptEditor) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errNotOffered
}

func (e *scriptEditor) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errNotOffered
}

func (e *scriptEditor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errNotOffered
}

func (e *scriptEditor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errNotOffered
}

func (e *scriptEditor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errNotOffered
}

func (e *scriptEditor) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errNotOffered
}
