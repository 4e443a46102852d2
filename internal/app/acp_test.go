package app

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// editCall is a turn that edits a.txt, replacing old by new.
func editCall(old, new string) llmtest.Turn {
	args, _ := json.Marshal(map[string]string{"file_path": "a.txt", "old_string": old, "new_string": new})
	return llmtest.Turn{Text: "Editing.", ToolCalls: []llmtest.ToolCall{{Name: "Edit", Arguments: args}}}
}

func writeProject(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readProject(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A prompt streams the model's text, and its edit as a tool call of kind
// edit, titled and located, put to the editor with its diff; the
// finished call shows the diff, and the file is changed.
func TestACPPromptStreamsTextAndAnEditWithItsDiff(t *testing.T) {
	ed := &editor{}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{editCall("hello", "goodbye"), {Text: "Done, said goodbye."}}}, ed, sdk.ClientCapabilities{})
	writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
	s := r.newSession()
	if s.Modes == nil || s.Modes.CurrentModeId != "ask" || len(s.Modes.AvailableModes) != 4 {
		t.Errorf("modes = %+v, want ask current among four", s.Modes)
	}
	resp := r.prompt(s.SessionId, "say goodbye")
	if resp.StopReason != sdk.StopReasonEndTurn {
		t.Errorf("stop reason %q, want end_turn", resp.StopReason)
	}
	us := ed.seen()
	if got := text(us); got != "Editing.Done, said goodbye." {
		t.Errorf("message chunks = %q", got)
	}
	a := filepath.Join(r.dir, "a.txt")
	starts, final := toolCalls(us)
	if len(starts) != 1 || starts[0].Kind != sdk.ToolKindEdit || starts[0].Title != "Edit a.txt" ||
		len(starts[0].Locations) != 1 || starts[0].Locations[0].Path != a {
		t.Fatalf("tool calls = %+v", starts)
	}
	if len(ed.asked) != 1 {
		t.Fatalf("%d permission requests, want 1", len(ed.asked))
	}
	q := ed.asked[0]
	var opts []string
	for _, o := range q.Options {
		opts = append(opts, string(o.Kind))
	}
	if strings.Join(opts, ",") != "allow_once,allow_always,reject_once" {
		t.Errorf("options = %v", opts)
	}
	if len(q.ToolCall.Content) != 1 || q.ToolCall.Content[0].Diff == nil || q.ToolCall.Content[0].Diff.NewText != "goodbye world\n" {
		t.Errorf("the question does not show the diff: %+v", q.ToolCall.Content)
	}
	end := final[starts[0].ToolCallId]
	if end == nil || *end.Status != sdk.ToolCallStatusCompleted || len(end.Content) != 1 || end.Content[0].Diff == nil ||
		*end.Content[0].Diff.OldText != "hello world\n" || end.Content[0].Diff.Path != a {
		t.Errorf("the finished call = %+v", end)
	}
	if got := readProject(t, r.dir, "a.txt"); got != "goodbye world\n" {
		t.Errorf("a.txt = %q", got)
	}
}

// The editor's answers are applied as the terminal's: once runs the call
// and asks again next time; always remembers the rule for the session;
// reject refuses the call and tells the model.
func TestACPPermissionAnswers(t *testing.T) {
	for _, tc := range []struct {
		option sdk.PermissionOptionId
		asks   int
		file   string
		status sdk.ToolCallStatus
	}{
		{"allow_once", 2, "ciao world\n", sdk.ToolCallStatusCompleted},
		{"allow_always", 1, "ciao world\n", sdk.ToolCallStatusCompleted},
		{"reject_once", 2, "hello world\n", sdk.ToolCallStatusFailed},
	} {
		t.Run(string(tc.option), func(t *testing.T) {
			ed := &editor{answer: func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse { return choose(tc.option) }}
			r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{editCall("hello", "bye"), editCall("bye", "ciao"), {Text: "Done."}}}, ed, sdk.ClientCapabilities{})
			writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
			s := r.newSession()
			r.prompt(s.SessionId, "edit twice")
			if len(ed.asked) != tc.asks {
				t.Errorf("%d permission requests, want %d", len(ed.asked), tc.asks)
			}
			if got := readProject(t, r.dir, "a.txt"); got != tc.file {
				t.Errorf("a.txt = %q, want %q", got, tc.file)
			}
			starts, final := toolCalls(ed.seen())
			if len(starts) != 2 || final[starts[0].ToolCallId] == nil || *final[starts[0].ToolCallId].Status != tc.status {
				t.Errorf("first call's end = %+v", final)
			}
			if tc.option == "reject_once" {
				reqs := r.srv.Requests()
				if !strings.Contains(string(reqs[1].Body), "the person refused this call") {
					t.Errorf("the model was not told of the refusal:\n%s", reqs[1].Body)
				}
			}
		})
	}
}

// A cancel while a command runs in the editor's terminal kills it,
// releases the terminal, ends the call as failed and the prompt as
// cancelled; the conversation stays valid for the next prompt.
func TestACPCancelInTheMiddleOfAToolCall(t *testing.T) {
	ed := &editor{block: true, started: make(chan struct{})}
	bash := llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "sleep 600"}`)}}}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{bash, {Text: "Still here."}}}, ed, sdk.ClientCapabilities{Terminal: true},
		"--approval", "yolo", "--sandbox", "off")
	s := r.newSession()
	type answer struct {
		resp sdk.PromptResponse
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		resp, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: s.SessionId, Prompt: []sdk.ContentBlock{sdk.TextBlock("sleep")}})
		got <- answer{resp, err}
	}()
	<-ed.started
	if err := r.conn.Cancel(r.ctx(), sdk.CancelNotification{SessionId: s.SessionId}); err != nil {
		t.Fatal(err)
	}
	a := <-got
	if a.err != nil || a.resp.StopReason != sdk.StopReasonCancelled {
		t.Fatalf("prompt = %+v, %v; want cancelled\nstderr:\n%s", a.resp, a.err, r.stderr)
	}
	starts, final := toolCalls(ed.seen())
	if len(starts) != 1 || final[starts[0].ToolCallId] == nil || *final[starts[0].ToolCallId].Status != sdk.ToolCallStatusFailed {
		t.Errorf("the cancelled call's end = %+v", final)
	}
	// The run answers the call as cancelled at once; the terminal is
	// killed and released beside it.
	var killed, released int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		ed.mu.Lock()
		killed, released = ed.killed, ed.released
		ed.block = false
		ed.mu.Unlock()
		if released > 0 {
			break
		}
	}
	if killed != 1 || released != 1 {
		t.Errorf("terminal killed %d, released %d times; want 1, 1\nstderr:\n%s", killed, released, r.stderr)
	}
	if resp := r.prompt(s.SessionId, "are you there?"); resp.StopReason != sdk.StopReasonEndTurn || text(ed.seen()) != "Still here." {
		t.Errorf("the prompt after the cancel = %+v", resp)
	}
	reqs := r.srv.Requests()
	if len(reqs) != 2 || len(reqs[1].Rejected) > 0 {
		t.Errorf("the conversation after the cancel was refused: %+v", reqs)
	}
}

// A kept session loads again as the updates the editor saw: the prompt,
// the answer, the call with how it ended.
func TestACPLoadSessionReplaysIt(t *testing.T) {
	ed := &editor{}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{editCall("hello", "bye"), {Text: "Said bye."}, {Text: "Still remembered."}}}, ed,
		sdk.ClientCapabilities{}, "--approval", "yolo")
	writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
	s := r.newSession()
	r.prompt(s.SessionId, "say bye")
	if _, err := r.conn.CloseSession(r.ctx(), sdk.CloseSessionRequest{SessionId: s.SessionId}); err != nil {
		t.Fatal(err)
	}
	ed.seen()
	if _, err := r.conn.LoadSession(r.ctx(), sdk.LoadSessionRequest{SessionId: s.SessionId, Cwd: r.dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v\nstderr:\n%s", err, r.stderr)
	}
	us := ed.seen()
	var user string
	for _, u := range us {
		if u.UserMessageChunk != nil && u.UserMessageChunk.Content.Text != nil {
			user += u.UserMessageChunk.Content.Text.Text
		}
	}
	starts, final := toolCalls(us)
	if user != "say bye" || text(us) != "Editing.Said bye." || len(starts) != 1 || starts[0].Title != "Edit a.txt" ||
		final[starts[0].ToolCallId] == nil || *final[starts[0].ToolCallId].Status != sdk.ToolCallStatusCompleted {
		t.Errorf("replayed: user %q, text %q, calls %+v %+v", user, text(us), starts, final)
	}
	r.prompt(s.SessionId, "what did you say?")
	reqs := r.srv.Requests()
	if last := reqs[len(reqs)-1]; !strings.Contains(string(last.Body), "say bye") {
		t.Errorf("the loaded conversation did not go on:\n%s", last.Body)
	}
	_, err := r.conn.LoadSession(r.ctx(), sdk.LoadSessionRequest{SessionId: "sess_nope", Cwd: r.dir, McpServers: []sdk.McpServer{}})
	if !isRequestError(err, -32602) || !strings.Contains(err.Error(), "no session sess_nope") {
		t.Errorf("loading an unknown session: %v", err)
	}
}

// An editor that offers its file system methods is not handed paths:
// it would open them by name, following a link a hostile command swapped
// in after forge checked the path (here, the editor finds every path it
// is given leads to a key or a profile outside). forge reads and writes
// itself, beneath the project; the editor sees the edit as the call's
// diff.
func TestACPFileAccessStaysForges(t *testing.T) {
	outside := t.TempDir()
	key, profile := filepath.Join(outside, "id_rsa"), filepath.Join(outside, "bashrc")
	writeProject(t, outside, map[string]string{"id_rsa": "PRIVATE KEY planted", "bashrc": "# profile\n"})
	write, _ := json.Marshal(map[string]string{"file_path": "b.txt", "content": "new file\n"})
	read := llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path": "a.txt"}`)}}}
	script := llmtest.Script{Turns: []llmtest.Turn{read, editCall("hello", "bye"),
		{ToolCalls: []llmtest.ToolCall{{Name: "Write", Arguments: write}}}, {Text: "Done."}}}
	for _, swapTo := range []string{key, profile} {
		t.Run(filepath.Base(swapTo), func(t *testing.T) {
			ed := &editor{swapTo: swapTo}
			r := startACP(t, script, ed, sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}},
				"--approval", "auto-edit")
			writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
			s := r.newSession()
			r.prompt(s.SessionId, "say bye")
			if len(ed.fsCalls) != 0 {
				t.Errorf("forge handed paths to the editor: %v", ed.fsCalls)
			}
			if got := readProject(t, r.dir, "a.txt"); got != "bye world\n" {
				t.Errorf("a.txt = %q, want the edit on disk (stderr %s)", got, r.stderr)
			}
			if got := readProject(t, r.dir, "b.txt"); got != "new file\n" {
				t.Errorf("b.txt = %q", got)
			}
			if got := readProject(t, outside, "bashrc"); got != "# profile\n" {
				t.Errorf("the profile outside was written: %q", got)
			}
			us := ed.seen()
			if b, _ := json.Marshal(us); strings.Contains(string(b), "PRIVATE KEY") {
				t.Error("the key reached the editor's updates")
			}
			starts, final := toolCalls(us)
			if len(starts) != 3 {
				t.Fatalf("tool calls %+v", starts)
			}
			edit := final[starts[1].ToolCallId]
			if edit == nil || len(edit.Content) == 0 || edit.Content[0].Diff == nil || edit.Content[0].Diff.NewText != "bye world\n" {
				t.Errorf("the edit's call does not show its diff: %+v", edit)
			}
		})
	}
}

// With an editor that offers terminals (and no sandbox to keep), Bash
// runs in one: the call shows the terminal, the model gets its output.
func TestACPBashInTheEditorsTerminal(t *testing.T) {
	ed := &editor{termOutput: "hi from the editor\n"}
	bash := llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "Bash", Arguments: json.RawMessage(`{"command": "echo hi"}`)}}}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{bash, {Text: "Done."}}}, ed, sdk.ClientCapabilities{Terminal: true},
		"--approval", "yolo", "--sandbox", "off")
	s := r.newSession()
	r.prompt(s.SessionId, "say hi")
	if len(ed.terminals) != 1 || !strings.Contains(strings.Join(ed.terminals[0].Args, " "), "echo hi") || *ed.terminals[0].Cwd != r.dir {
		t.Fatalf("terminals = %+v", ed.terminals)
	}
	us := ed.seen()
	starts, final := toolCalls(us)
	if len(starts) != 1 || starts[0].Kind != sdk.ToolKindExecute || final[starts[0].ToolCallId] == nil ||
		*final[starts[0].ToolCallId].Status != sdk.ToolCallStatusCompleted {
		t.Errorf("calls %+v %+v", starts, final)
	}
	shown := false
	for _, u := range us {
		if c := u.ToolCallUpdate; c != nil && len(c.Content) == 1 && c.Content[0].Terminal != nil && c.Content[0].Terminal.TerminalId == "term_1" {
			shown = true
		}
	}
	if !shown {
		t.Error("the call never showed its terminal")
	}
	if reqs := r.srv.Requests(); !strings.Contains(string(reqs[1].Body), "hi from the editor") {
		t.Errorf("the model did not get the terminal's output:\n%s", reqs[1].Body)
	}
	if ed.released != 1 {
		t.Errorf("terminal released %d times", ed.released)
	}
}

// The editor switches modes: plan refuses the edit without asking, yolo
// runs it without asking; an unknown mode is an error. The editor is not
// told of the modes it set.
func TestACPModeSwitch(t *testing.T) {
	ed := &editor{}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{editCall("hello", "bye"), {Text: "Could not."}, editCall("hello", "bye"), {Text: "Done."}}}, ed, sdk.ClientCapabilities{})
	writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
	s := r.newSession()
	if _, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	r.prompt(s.SessionId, "edit")
	if len(ed.asked) != 0 || readProject(t, r.dir, "a.txt") != "hello world\n" {
		t.Errorf("plan mode: %d questions, a.txt %q", len(ed.asked), readProject(t, r.dir, "a.txt"))
	}
	if _, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "yolo"}); err != nil {
		t.Fatal(err)
	}
	r.prompt(s.SessionId, "edit now")
	if len(ed.asked) != 0 || readProject(t, r.dir, "a.txt") != "bye world\n" {
		t.Errorf("yolo mode: %d questions, a.txt %q", len(ed.asked), readProject(t, r.dir, "a.txt"))
	}
	if got := modeUpdates(ed.seen()); len(got) != 0 {
		t.Errorf("the editor was told of the modes it set: %q", got)
	}
	_, err := r.conn.SetSessionMode(r.ctx(), sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "reckless"})
	if !isRequestError(err, -32602) || !strings.Contains(err.Error(), "unknown mode") {
		t.Errorf("an unknown mode: %v", err)
	}
}

// forge's limits end a prompt with the protocol's reasons: the limit on
// model requests as max_turn_requests, a spent token budget as
// max_tokens.
func TestACPStopReasonsOfLimits(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want sdk.StopReason
	}{
		{[]string{"--max-turns", "1"}, sdk.StopReasonMaxTurnRequests},
		{[]string{"--max-tokens", "10"}, sdk.StopReasonMaxTokens},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			ed := &editor{}
			r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{editCall("hello", "bye"), {Text: "Done."}}}, ed, sdk.ClientCapabilities{},
				append([]string{"--approval", "yolo"}, tc.args...)...)
			writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
			s := r.newSession()
			if resp := r.prompt(s.SessionId, "edit"); resp.StopReason != tc.want {
				t.Errorf("stop reason %q, want %q", resp.StopReason, tc.want)
			}
		})
	}
}

// BenchmarkACPFirstUpdate is the time from session/prompt to the first
// session/update, against a fake provider that answers at once.
func BenchmarkACPFirstUpdate(b *testing.B) {
	first := make(chan struct{}, 1)
	ed := &editor{onUpdate: func(u sdk.SessionUpdate) {
		if u.AgentMessageChunk != nil {
			select {
			case first <- struct{}{}:
			default:
			}
		}
	}}
	r := startACP(b, llmtest.Script{Turns: []llmtest.Turn{{Text: "Hi."}}, RepeatLast: true}, ed, sdk.ClientCapabilities{})
	s := r.newSession()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.prompt(s.SessionId, "hi")
		}()
		<-first
		b.StopTimer()
		<-done
		ed.seen()
		b.StartTimer()
	}
}

// The custom commands are offered to the editor, and a prompt that names
// one runs it; a reasoning model's thinking streams as thought chunks.
func TestACPCustomCommandsAndThoughts(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"config/forge/commands/review.md": "---\ndescription: Review a file\nargument-hint: FILE\n---\nReview $ARGUMENTS closely.\n"})
	offered := make(chan []sdk.AvailableCommand, 1)
	ed := &editor{onUpdate: func(u sdk.SessionUpdate) {
		if u.AvailableCommandsUpdate != nil {
			offered <- u.AvailableCommandsUpdate.AvailableCommands
		}
	}}
	r := startACPAt(t, root, llmtest.Script{Turns: []llmtest.Turn{{Thinking: llmtest.Thoughts{"The file looks fine."}, Text: "Looks good."}}}, ed, sdk.ClientCapabilities{})
	s := r.newSession()
	select {
	case cmds := <-offered:
		if len(cmds) != 1 || cmds[0].Name != "review" || cmds[0].Description != "Review a file" ||
			cmds[0].Input == nil || cmds[0].Input.Unstructured.Hint != "FILE" {
			t.Errorf("commands offered: %+v", cmds)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no available_commands_update")
	}
	r.prompt(s.SessionId, "/review main.go")
	var thought string
	for _, u := range ed.seen() {
		if u.AgentThoughtChunk != nil && u.AgentThoughtChunk.Content.Text != nil {
			thought += u.AgentThoughtChunk.Content.Text.Text
		}
	}
	if thought != "The file looks fine." {
		t.Errorf("thought chunks %q", thought)
	}
	if reqs := r.srv.Requests(); !strings.Contains(string(reqs[0].Body), "Review main.go closely.") {
		t.Errorf("the custom command did not run:\n%s", reqs[0].Body)
	}
}

// An edit made for the editor is kept for undo in its session, as the
// shell's are: forge -r ID -c /undo puts the file back.
func TestACPEditsCanBeUndone(t *testing.T) {
	ed := &editor{}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{editCall("hello", "bye"), {Text: "Done."}}}, ed, sdk.ClientCapabilities{}, "--approval", "yolo")
	writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
	s := r.newSession()
	r.prompt(s.SessionId, "say bye")
	if got := readProject(t, r.dir, "a.txt"); got != "bye world\n" {
		t.Fatalf("a.txt = %q", got)
	}
	if code := r.close(); code != 0 {
		t.Fatalf("forge acp exited %d", code)
	}
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"-r", string(s.SessionId), "-c", "/undo"}, strings.NewReader(""), &out, &errb, r.opts)
	if got := readProject(t, r.dir, "a.txt"); code != 0 || got != "hello world\n" {
		t.Errorf("/undo: exit %d, a.txt %q\n%s%s", code, got, out.String(), errb.String())
	}
}

// The editor's MCP servers are added to forge's: their tools are offered
// and run like any other.
func TestACPEditorsMCPServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test MCP server")
	}
	server := filepath.Join(t.TempDir(), "mcpserver")
	if out, err := exec.Command("go", "build", "-o", server, "../mcp/testdata/mcpserver").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ed := &editor{}
	echo := llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "mcp__ed__echo", Arguments: json.RawMessage(`{"text": "hi from the editor's server"}`)}}}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{echo, {Text: "Done."}}}, ed, sdk.ClientCapabilities{}, "--approval", "yolo")
	s, err := r.conn.NewSession(r.ctx(), sdk.NewSessionRequest{Cwd: r.dir, McpServers: []sdk.McpServer{
		{Stdio: &sdk.McpServerStdio{Name: "ed", Command: server, Args: []string{}, Env: []sdk.EnvVariable{}}}}})
	if err != nil {
		t.Fatal(err)
	}
	r.prompt(s.SessionId, "echo")
	reqs := r.srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[0].Body), `"mcp__ed__echo"`) || !strings.Contains(string(reqs[1].Body), "hi from the editor's server") {
		t.Errorf("the editor's server was not used: %d requests\nstderr:\n%s", len(reqs), r.stderr)
	}
}

// A call from the editor's session takes the shell's pipeline: a
// PreToolUse hook's ask puts the question to the editor even in yolo
// mode, and a UserPromptSubmit hook that blocks the prompt ends it as a
// refusal.
func TestACPHooks(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"config/forge/config.yaml": `hooks:
  PreToolUse:
    - matcher: "Edit"
      hooks: [{type: command, command: "echo '{\"decision\": \"ask\", \"reason\": \"edits are reviewed\"}'"}]
  UserPromptSubmit:
    - hooks: [{type: command, command: "if grep -q forbidden; then echo 'not that' >&2; exit 2; fi"}]
`})
	ed := &editor{}
	r := startACPAt(t, root, llmtest.Script{Turns: []llmtest.Turn{editCall("hello", "bye"), {Text: "Done."}}}, ed,
		sdk.ClientCapabilities{}, "--approval", "yolo")
	writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
	s := r.newSession()
	r.prompt(s.SessionId, "edit")
	if len(ed.asked) != 1 || readProject(t, r.dir, "a.txt") != "bye world\n" {
		t.Errorf("the hook's ask: %d questions, a.txt %q\nstderr:\n%s", len(ed.asked), readProject(t, r.dir, "a.txt"), r.stderr)
	}
	if resp := r.prompt(s.SessionId, "do the forbidden thing"); resp.StopReason != sdk.StopReasonRefusal {
		t.Errorf("a blocked prompt: stop reason %q, want refusal", resp.StopReason)
	}
	if n := len(r.srv.Requests()); n != 2 {
		t.Errorf("%d model requests; the blocked prompt reached the model", n)
	}
}

// Two sessions of one editor prompt at once, each its own conversation
// with its own session log.
func TestACPTwoSessionsAtOnce(t *testing.T) {
	ed := &editor{}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "Hi."}}, RepeatLast: true}, ed, sdk.ClientCapabilities{})
	a, b := r.newSession(), r.newSession()
	if a.SessionId == b.SessionId {
		t.Fatalf("both sessions are %s", a.SessionId)
	}
	done := make(chan sdk.StopReason, 2)
	for _, id := range []sdk.SessionId{a.SessionId, b.SessionId} {
		go func() {
			resp, err := r.conn.Prompt(r.ctx(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock("hi from " + string(id))}})
			if err != nil {
				t.Error(err)
			}
			done <- resp.StopReason
		}()
	}
	for range 2 {
		if got := <-done; got != sdk.StopReasonEndTurn {
			t.Errorf("stop reason %q", got)
		}
	}
	for _, req := range r.srv.Requests() {
		if strings.Count(string(req.Body), "hi from ") != 1 {
			t.Errorf("a request mixes the sessions: %s", req.Body)
		}
	}
}

// todoCall is a turn that writes the task list, items as content:status.
func todoCall(items ...string) llmtest.Turn {
	var todos []map[string]string
	for _, it := range items {
		content, status, _ := strings.Cut(it, ":")
		todos = append(todos, map[string]string{"content": content, "status": status})
	}
	args, _ := json.Marshal(map[string]any{"todos": todos})
	return llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "TodoWrite", Arguments: args}}}
}

// plans are the plan updates in us, each as content:status entries.
func plans(us []sdk.SessionUpdate) [][]string {
	var out [][]string
	for _, u := range us {
		if u.Plan == nil {
			continue
		}
		entries := []string{}
		for _, e := range u.Plan.Entries {
			if e.Priority != sdk.PlanEntryPriorityMedium {
				entries = append(entries, "bad priority "+string(e.Priority))
			}
			entries = append(entries, e.Content+":"+string(e.Status))
		}
		out = append(out, entries)
	}
	return out
}

// The model's task list goes to the editor as its plan each time it
// changes, whole; a loaded session shows the last one again.
func TestACPTaskListAsPlan(t *testing.T) {
	ed := &editor{}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{
		todoCall("Read the code:in_progress", "Fix the bug:pending"),
		todoCall("Read the code:completed", "Fix the bug:in_progress"),
		todoCall("Read the code:completed", "Fix the bug:completed"),
		{Text: "Fixed."},
	}}, ed, sdk.ClientCapabilities{})
	s := r.newSession()
	r.prompt(s.SessionId, "fix it")
	us := ed.seen()
	want := [][]string{
		{"Read the code:in_progress", "Fix the bug:pending"},
		{"Read the code:completed", "Fix the bug:in_progress"},
		{"Read the code:completed", "Fix the bug:completed"},
	}
	if got := plans(us); !equalLists(got, want) {
		t.Errorf("plan updates = %q, want %q", got, want)
	}
	starts, _ := toolCalls(us)
	if len(starts) != 3 || starts[0].Title != "Update the task list" || starts[0].Kind != sdk.ToolKindThink {
		t.Errorf("the TodoWrite calls = %+v", starts)
	}
	if _, err := r.conn.CloseSession(r.ctx(), sdk.CloseSessionRequest{SessionId: s.SessionId}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.conn.LoadSession(r.ctx(), sdk.LoadSessionRequest{SessionId: s.SessionId, Cwd: r.dir, McpServers: []sdk.McpServer{}}); err != nil {
		t.Fatalf("session/load: %v\nstderr:\n%s", err, r.stderr)
	}
	if got := plans(ed.seen()); !equalLists(got, want[2:]) {
		t.Errorf("replayed plan updates = %q, want %q", got, want[2:])
	}
}

func equalLists(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\n") != strings.Join(b[i], "\n") {
			return false
		}
	}
	return true
}

// planCall is a turn that puts plan to the person.
func planCall(plan string) llmtest.Turn {
	args, _ := json.Marshal(map[string]string{"plan": plan})
	return llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "ExitPlanMode", Arguments: args}}}
}

// modeUpdates are the current_mode_update updates in us.
func modeUpdates(us []sdk.SessionUpdate) []string {
	var out []string
	for _, u := range us {
		if u.CurrentModeUpdate != nil {
			out = append(out, string(u.CurrentModeUpdate.CurrentModeId))
		}
	}
	return out
}

// In plan mode the model's plan is put to the editor, shown as the plan
// call's content, with forge's three answers. Approving switches the
// mode (and tells the editor) and the model carries the plan out, its
// edit asked about or not as the new mode says; keeping on planning
// leaves plan mode on and tells the model so.
func TestACPPlanApproval(t *testing.T) {
	const plan = "# Plan\n\n1. Replace hello by bye in `a.txt`."
	for _, tc := range []struct {
		option sdk.PermissionOptionId
		mode   string // the mode after the prompt
		asks   int    // permission requests, the plan's among them
		file   string
		told   string // what the model is told of the plan
	}{
		{"approve_auto_edit", "auto-edit", 1, "bye world\n", "The approval mode is now auto-edit"},
		{"approve_ask", "ask", 2, "bye world\n", "The approval mode is now ask"},
		{"keep_planning", "plan", 1, "hello world\n", "wants you to keep planning"},
	} {
		t.Run(string(tc.option), func(t *testing.T) {
			ed := &editor{answer: func(q sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
				if q.ToolCall.Kind != nil && *q.ToolCall.Kind == sdk.ToolKindSwitchMode {
					return choose(tc.option)
				}
				return choose("allow_once")
			}}
			turns := []llmtest.Turn{planCall(plan), editCall("hello", "bye"), {Text: "Done."}}
			if tc.option == "keep_planning" {
				turns = []llmtest.Turn{planCall(plan), {Text: "Tell me what to change."}}
			}
			r := startACP(t, llmtest.Script{Turns: turns}, ed, sdk.ClientCapabilities{}, "--approval", "plan")
			writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
			s := r.newSession()
			if s.Modes.CurrentModeId != "plan" {
				t.Fatalf("the session's mode is %q", s.Modes.CurrentModeId)
			}
			r.prompt(s.SessionId, "say bye")
			us := ed.seen()
			if len(ed.asked) != tc.asks {
				t.Fatalf("%d permission requests, want %d", len(ed.asked), tc.asks)
			}
			q := ed.asked[0]
			starts, _ := toolCalls(us)
			if len(starts) == 0 || starts[0].Title != "Plan" || q.ToolCall.ToolCallId != starts[0].ToolCallId {
				t.Errorf("the question is not about the plan call: %+v, calls %+v", q.ToolCall, starts)
			}
			if len(q.ToolCall.Content) != 1 || q.ToolCall.Content[0].Content == nil || q.ToolCall.Content[0].Content.Content.Text == nil ||
				q.ToolCall.Content[0].Content.Content.Text.Text != plan {
				t.Errorf("the question does not show the plan: %+v", q.ToolCall.Content)
			}
			var opts []string
			for _, o := range q.Options {
				opts = append(opts, string(o.OptionId)+"/"+string(o.Kind))
			}
			if got := strings.Join(opts, ","); got != "approve_auto_edit/allow_always,approve_ask/allow_once,keep_planning/reject_once" {
				t.Errorf("options = %s", got)
			}
			var wantModes []string
			if tc.mode != "plan" {
				wantModes = []string{tc.mode}
			}
			if got := modeUpdates(us); strings.Join(got, ",") != strings.Join(wantModes, ",") {
				t.Errorf("mode updates = %q, want %q", got, wantModes)
			}
			if got := readProject(t, r.dir, "a.txt"); got != tc.file {
				t.Errorf("a.txt = %q, want %q", got, tc.file)
			}
			reqs := r.srv.Requests()
			switch {
			case tc.mode == "plan" && len(reqs) != 1:
				// An editor's answer has no words: the prompt ends, and
				// the person's next prompt says what to change.
				t.Errorf("the model was asked again (%d requests) before the person said what to change", len(reqs))
			case tc.mode != "plan" && (len(reqs) < 2 || !strings.Contains(string(reqs[1].Body), tc.told)):
				t.Errorf("the model was not told %q", tc.told)
			}
		})
	}
}

// An editor that answers the plan's question cancelled (the person
// cancelled the prompt) ends the prompt as cancelled, plan mode on.
func TestACPPlanQuestionCancelled(t *testing.T) {
	ed := &editor{answer: func(sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}
	}}
	r := startACP(t, llmtest.Script{Turns: []llmtest.Turn{planCall("1. Edit a.txt."), editCall("hello", "bye")}}, ed,
		sdk.ClientCapabilities{}, "--approval", "plan")
	writeProject(t, r.dir, map[string]string{"a.txt": "hello world\n"})
	s := r.newSession()
	if resp := r.prompt(s.SessionId, "say bye"); resp.StopReason != sdk.StopReasonCancelled {
		t.Errorf("stop reason %q, want cancelled", resp.StopReason)
	}
	us := ed.seen()
	if got := modeUpdates(us); len(got) != 0 {
		t.Errorf("mode updates %q after a cancelled question", got)
	}
	starts, final := toolCalls(us)
	if len(starts) != 1 || final[starts[0].ToolCallId] == nil || *final[starts[0].ToolCallId].Status != sdk.ToolCallStatusFailed {
		t.Errorf("the plan call's end = %+v", final)
	}
	if len(ed.asked) != 1 || len(r.srv.Requests()) != 1 || readProject(t, r.dir, "a.txt") != "hello world\n" {
		t.Errorf("after the cancel: %d questions, %d model requests, a.txt %q", len(ed.asked), len(r.srv.Requests()), readProject(t, r.dir, "a.txt"))
	}
}
