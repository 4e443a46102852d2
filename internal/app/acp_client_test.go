package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// editor is the client side of an ACP connection in tests: it records
// every update, answers permission requests as told, and holds files and
// runs terminals when it offers them.
type editor struct {
	mu      sync.Mutex
	updates []sdk.SessionUpdate
	asked   []sdk.RequestPermissionRequest
	// answer picks the option of a permission request; nil picks the
	// first.
	answer func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse
	// fsCalls are the file system requests forge sent (fs/read_text_file
	// PATH, fs/write_text_file PATH). swapTo, when set, is where the editor
	// finds each such path leads by the time it opens it: a hostile
	// command swapped a link in after forge checked the path, and the
	// editor, as editors do, follows it.
	fsCalls []string
	swapTo  string
	// terminals are the commands run in the editor's terminals.
	terminals []sdk.CreateTerminalRequest
	// termOutput is what every terminal prints; termExit its exit code.
	termOutput string
	termExit   int
	// block, when set, makes a terminal's wait hold until its context
	// ends; started is closed when one does.
	block    bool
	started  chan struct{}
	killed   int
	released int
	// onUpdate, when set, is called with each update as it comes.
	onUpdate func(sdk.SessionUpdate)
}

var _ sdk.Client = (*editor)(nil)

func (e *editor) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	e.mu.Lock()
	e.updates = append(e.updates, n.Update)
	f := e.onUpdate
	e.mu.Unlock()
	if f != nil {
		f(n.Update)
	}
	return nil
}

func (e *editor) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	e.asked = append(e.asked, p)
	answer := e.answer
	e.mu.Unlock()
	if answer != nil {
		return answer(p), nil
	}
	return choose(p.Options[0].OptionId), nil
}

func choose(id sdk.PermissionOptionId) sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(id)}
}

func (e *editor) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	path, err := e.fsCall("fs/read_text_file", p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.ReadTextFileResponse{Content: string(b)}, nil
}

func (e *editor) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	path, err := e.fsCall("fs/write_text_file", p.Path)
	if err != nil {
		return sdk.WriteTextFileResponse{}, err
	}
	if err := os.WriteFile(path, []byte(p.Content), 0o644); err != nil {
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.WriteTextFileResponse{}, nil
}

// fsCall records a file system request and swaps its path for a link to
// swapTo when set.
func (e *editor) fsCall(method, path string) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.fsCalls = append(e.fsCalls, method+" "+path)
	if e.swapTo == "" {
		return path, nil
	}
	_ = os.Remove(path)
	if err := os.Symlink(e.swapTo, path); err != nil {
		return "", sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return path, nil
}

func (e *editor) CreateTerminal(_ context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.terminals = append(e.terminals, p)
	return sdk.CreateTerminalResponse{TerminalId: "term_1"}, nil
}

func (e *editor) WaitForTerminalExit(ctx context.Context, _ sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	e.mu.Lock()
	block, started := e.block, e.started
	code := e.termExit
	e.mu.Unlock()
	if block {
		close(started)
		<-ctx.Done()
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
	return sdk.WaitForTerminalExitResponse{ExitCode: sdk.Ptr(code)}, nil
}

func (e *editor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return sdk.TerminalOutputResponse{Output: e.termOutput}, nil
}

func (e *editor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.killed++
	return sdk.KillTerminalResponse{}, nil
}

func (e *editor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.released++
	return sdk.ReleaseTerminalResponse{}, nil
}

// seen returns the updates so far and forgets them.
func (e *editor) seen() []sdk.SessionUpdate {
	e.mu.Lock()
	defer e.mu.Unlock()
	u := e.updates
	e.updates = nil
	return u
}

// acpRig is forge acp running in process on pipes, an editor connected.
type acpRig struct {
	t    testing.TB
	conn *sdk.ClientSideConnection
	ed   *editor
	srv  *llmtest.Server
	dir  string // the project
	// opts are the options forge ran with (its home, its directory).
	opts   Options
	stdin  *io.PipeWriter
	stderr *syncBuffer
	// stdout is every byte forge wrote on standard output.
	stdout *syncBuffer
	done   chan int
}

// syncBuffer is a buffer written by forge and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startACP starts forge acp with the script's fake provider, in a fresh
// home and project, and initialises the connection with caps.
func startACP(t testing.TB, script llmtest.Script, ed *editor, caps sdk.ClientCapabilities, args ...string) *acpRig {
	t.Helper()
	return startACPAt(t, t.TempDir(), script, ed, caps, args...)
}

// startACPAt is startACP with root as the home (its config under
// root/config), the project root/project.
func startACPAt(t testing.TB, root string, script llmtest.Script, ed *editor, caps sdk.ClientCapabilities, args ...string) *acpRig {
	t.Helper()
	srv := llmtest.NewServer(t, script)
	dir := filepath.Join(root, "project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": root, "XDG_CONFIG_HOME": filepath.Join(root, "config"), "XDG_STATE_HOME": root,
		"XDG_DATA_HOME": root, "OPENAI_API_KEY": "test"}
	opts := Options{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd: func() (string, error) { return dir, nil }}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &acpRig{t: t, ed: ed, srv: srv, dir: dir, opts: opts, stdin: inW, stderr: &syncBuffer{}, stdout: &syncBuffer{}, done: make(chan int, 1)}
	argv := append([]string{"acp", "--provider", "openai", "--base-url", srv.OpenAIURL(), "--model", "llmtest-model"}, args...)
	go func() {
		code := Main(context.Background(), argv, inR, outW, r.stderr, opts)
		_ = outW.Close()
		r.done <- code
	}()
	r.conn = sdk.NewClientSideConnection(ed, inW, io.TeeReader(outR, r.stdout))
	t.Cleanup(func() {
		r.close()
		r.onlyProtocol()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := r.conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps}); err != nil {
		t.Fatalf("initialize: %v\nstderr:\n%s", err, r.stderr)
	}
	return r
}

// close ends standard input and waits for forge to end.
func (r *acpRig) close() int {
	_ = r.stdin.Close()
	select {
	case code := <-r.done:
		r.done <- code
		<-r.conn.Done() // standard output read to its end
		return code
	case <-time.After(20 * time.Second):
		r.t.Errorf("forge acp did not end when its standard input closed\nstderr:\n%s", r.stderr)
		return -1
	}
}

// onlyProtocol checks that standard output held JSON-RPC messages, one a
// line, and nothing else.
func (r *acpRig) onlyProtocol() {
	for _, line := range strings.Split(strings.TrimSuffix(r.stdout.String(), "\n"), "\n") {
		var m map[string]any
		if line == "" {
			continue
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
			r.t.Errorf("standard output has a line that is no JSON-RPC message: %q", line)
		}
	}
}

func (r *acpRig) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	r.t.Cleanup(cancel)
	return ctx
}

// newSession opens a session in the project.
func (r *acpRig) newSession() sdk.NewSessionResponse {
	r.t.Helper()
	s, err := r.conn.NewSession(r.ctx(), sdk.NewSessionRequest{Cwd: r.dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		r.t.Fatalf("session/new: %v\nstderr:\n%s", err, r.stderr)
	}
	return s
}

// prompt sends text and returns the answer.
func (r *acpRig) prompt(id sdk.SessionId, text string) sdk.PromptResponse {
	r.t.Helper()
	resp, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	if err != nil {
		r.t.Fatalf("session/prompt: %v\nstderr:\n%s", err, r.stderr)
	}
	return resp
}

// text is the agent's message in updates.
func text(us []sdk.SessionUpdate) string {
	var b strings.Builder
	for _, u := range us {
		if u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil {
			b.WriteString(u.AgentMessageChunk.Content.Text.Text)
		}
	}
	return b.String()
}

// toolCalls are the tool_call updates; final the last update of each
// call's status, by id.
func toolCalls(us []sdk.SessionUpdate) (starts []*sdk.SessionUpdateToolCall, final map[sdk.ToolCallId]*sdk.SessionToolCallUpdate) {
	final = map[sdk.ToolCallId]*sdk.SessionToolCallUpdate{}
	for _, u := range us {
		if u.ToolCall != nil {
			starts = append(starts, u.ToolCall)
		}
		if u.ToolCallUpdate != nil && u.ToolCallUpdate.Status != nil {
			final[u.ToolCallUpdate.ToolCallId] = u.ToolCallUpdate
		}
	}
	return starts, final
}

// isRequestError says err is the JSON-RPC error with code.
func isRequestError(err error, code int) bool {
	var re *sdk.RequestError
	return errors.As(err, &re) && re.Code == code
}
