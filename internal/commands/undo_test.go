package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/llm/openai"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/session"
	"github.com/forgehq/forge/internal/tools"
)

func call(name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

// agentShell is a shell whose prompts go to an agent over a scripted fake
// provider, with the built-in tools, allowed everything, in a temporary
// working directory; sessions kept in a store when withStore.
func agentShell(t *testing.T, script llmtest.Script, withStore bool, hs ...hooks.Hook) (*Shell, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	sh, out, errOut, _ := agentShellServer(t, script, withStore, hs...)
	return sh, out, errOut
}

// agentShellServer is agentShell with the fake provider, whose requests
// a test reads.
func agentShellServer(t *testing.T, script llmtest.Script, withStore bool, hs ...hooks.Hook) (*Shell, *bytes.Buffer, *bytes.Buffer, *llmtest.Server) {
	t.Helper()
	srv := llmtest.NewServer(t, script)
	model, err := openai.New(openai.Config{BaseURL: srv.OpenAIURL(), APIKey: "test", Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := builtin.Register(reg); err != nil {
		t.Fatal(err)
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pol, err := permission.New(permission.Config{Mode: permission.ModeYolo, WorkingDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	env := &Env{
		IO:       IOStreams{In: strings.NewReader(""), Out: &out, Err: &errOut},
		Registry: reg, Executor: tools.NewExecutor(reg), Policy: pol,
		Exec: tools.NewExecutionContext(dir), Output: "text",
	}
	env.Exec.SessionID = "sess_undo"
	if withStore {
		now := func() time.Time { return time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) }
		env.Sessions = &Sessions{Store: session.NewStore(filepath.Join(t.TempDir(), "sessions"), now)}
	}
	var runner agent.Hooks
	if len(hs) > 0 {
		r, err := hooks.New(hs, hooks.Options{Dir: dir, Env: []string{"PATH=" + os.Getenv("PATH")}})
		if err != nil {
			t.Fatal(err)
		}
		runner = r
	}
	env.Agent = func(_ context.Context, opts AgentOptions) (*agent.Agent, render.RunInfo, error) {
		a := agent.New(agent.Config{Model: model, Executor: env.Executor, Policy: pol, Exec: opts.Exec,
			Approver: opts.Approver, Checkpointer: opts.Checkpointer, Hooks: runner})
		return a, render.RunInfo{WorkingDir: opts.Exec.WorkingDir}, nil
	}
	return NewShell(env), &out, &errOut, srv
}

// editScript is two prompts: the first creates new.go, edits old.go and
// empties notes.txt; the second edits new.go again.
func editScript() llmtest.Script {
	return llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			call("Write", `{"file_path": "new.go", "content": "package n\n"}`),
			call("Edit", `{"file_path": "old.go", "old_string": "old", "new_string": "changed"}`),
			call("Write", `{"file_path": "notes.txt", "content": ""}`),
		}},
		{Text: "done one"},
		{ToolCalls: []llmtest.ToolCall{call("Edit", `{"file_path": "new.go", "new_string": "package m", "old_string": "package n"}`)}},
		{Text: "done two"},
	}}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func TestUndoThroughTheAgent(t *testing.T) {
	for _, store := range []bool{false, true} {
		t.Run(map[bool]string{false: "memory", true: "session"}[store], func(t *testing.T) {
			sh, out, errOut := agentShell(t, editScript(), store)
			dir := sh.Env().Exec.WorkingDir
			p := func(n string) string { return filepath.Join(dir, n) }
			must(t, os.WriteFile(p("old.go"), []byte("old code\n"), 0o640))
			must(t, os.WriteFile(p("notes.txt"), []byte("my notes\n"), 0o600))
			ctx := context.Background()

			if code := sh.Exec(ctx, "make the changes"); code != ExitOK {
				t.Fatalf("prompt 1: %d %s", code, errOut)
			}
			if code := sh.Exec(ctx, "change new.go"); code != ExitOK {
				t.Fatalf("prompt 2: %d %s", code, errOut)
			}
			if got := readFile(t, p("new.go")); got != "package m\n" {
				t.Fatalf("new.go after the prompts: %q", got)
			}

			out.Reset()
			if code := sh.Exec(ctx, "/rewind"); code != ExitOK || !strings.Contains(out.String(), "3 files: new.go, old.go, notes.txt") ||
				!strings.Contains(out.String(), `"change new.go"`) {
				t.Fatalf("/rewind list: %d\n%s", code, out)
			}

			out.Reset()
			if code := sh.Exec(ctx, "/undo"); code != ExitOK || !strings.Contains(out.String(), "prompt 2") {
				t.Fatalf("first /undo: %d %s %s", code, out, errOut)
			}
			if got := readFile(t, p("new.go")); got != "package n\n" {
				t.Fatalf("new.go after /undo: %q", got)
			}
			out.Reset()
			if code := sh.Exec(ctx, "/undo"); code != ExitOK {
				t.Fatalf("second /undo: %d %s", code, errOut)
			}
			for _, want := range []string{"removed   new.go (the prompt created it)", "restored  old.go", "restored  notes.txt"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("second /undo says\n%s\nwant %q", out, want)
				}
			}
			if _, err := os.Stat(p("new.go")); !os.IsNotExist(err) {
				t.Errorf("new.go still there: %v", err)
			}
			fi, _ := os.Stat(p("old.go"))
			if readFile(t, p("old.go")) != "old code\n" || fi.Mode().Perm() != 0o640 || readFile(t, p("notes.txt")) != "my notes\n" {
				t.Errorf("old.go %q %v, notes.txt %q", readFile(t, p("old.go")), fi.Mode(), readFile(t, p("notes.txt")))
			}
			out.Reset()
			errOut.Reset()
			if code := sh.Exec(ctx, "/undo"); code != ExitNothingToUndo || !strings.HasPrefix(out.String(), "Nothing to undo") || errOut.Len() > 0 {
				t.Fatalf("third /undo: %d %q %q", code, out, errOut)
			}
		})
	}
}

func TestRewindConflictAndConversation(t *testing.T) {
	sh, out, errOut := agentShell(t, editScript(), true)
	env := sh.Env()
	dir := env.Exec.WorkingDir
	p := func(n string) string { return filepath.Join(dir, n) }
	must(t, os.WriteFile(p("old.go"), []byte("old code\n"), 0o644))
	must(t, os.WriteFile(p("notes.txt"), []byte("my notes\n"), 0o644))
	ctx := context.Background()
	sh.Exec(ctx, "make the changes")
	sh.Exec(ctx, "change new.go")
	must(t, os.WriteFile(p("old.go"), []byte("edited by hand\n"), 0o644)) // behind forge's back

	errOut.Reset()
	if code := sh.Exec(ctx, "/rewind 1"); code != ExitConflict || !strings.Contains(errOut.String(), "old.go") {
		t.Fatalf("/rewind 1 with a file changed by hand: %d %s", code, errOut)
	}
	if readFile(t, p("new.go")) != "package m\n" || readFile(t, p("old.go")) != "edited by hand\n" {
		t.Fatal("a refused rewind changed files")
	}
	if len(env.Conversation.Messages) != 10 {
		t.Fatalf("a refused rewind cut the conversation: %d messages", len(env.Conversation.Messages))
	}

	out.Reset()
	if code := sh.Exec(ctx, "/rewind 2 both"); code != ExitOK {
		t.Fatalf("/rewind 2: %d %s", code, errOut)
	}
	if readFile(t, p("new.go")) != "package n\n" || len(env.Conversation.Messages) != 6 {
		t.Fatalf("after /rewind 2: new.go %q, %d messages", readFile(t, p("new.go")), len(env.Conversation.Messages))
	}
	out.Reset()
	sh.Exec(ctx, "/rewind")
	if strings.Contains(out.String(), "change new.go") {
		t.Fatalf("the rewound prompt is still listed:\n%s", out)
	}

	// A resume sees the rewound conversation.
	id := env.Exec.SessionID
	env.CloseSession()
	if _, err := env.Resume(id, false); err != nil {
		t.Fatal(err)
	}
	if len(env.Conversation.Messages) != 6 {
		t.Fatalf("resumed %d messages, want the 6 before prompt 2", len(env.Conversation.Messages))
	}
	if code := sh.Exec(ctx, "/rewind 1 files --force"); code != ExitOK {
		t.Fatalf("/rewind 1 files --force: %d %s", code, errOut)
	}
	if readFile(t, p("old.go")) != "old code\n" {
		t.Fatalf("--force did not overwrite old.go: %q", readFile(t, p("old.go")))
	}
}

// A prompt a hook blocked is not in the log: it is not counted either, so
// that after a resume the checkpoints still belong to the right prompt.
func TestBlockedPromptIsNotCounted(t *testing.T) {
	sh, out, errOut := agentShell(t, editScript(), true,
		hooks.Hook{Event: hooks.UserPromptSubmit, Command: `if grep -q secret; then echo "no secrets" >&2; exit 2; fi`})
	env := sh.Env()
	p := func(n string) string { return filepath.Join(env.Exec.WorkingDir, n) }
	must(t, os.WriteFile(p("old.go"), []byte("old code\n"), 0o644))
	must(t, os.WriteFile(p("notes.txt"), []byte("n\n"), 0o644))
	ctx := context.Background()
	if code := sh.Exec(ctx, "the secret plan"); code == ExitOK {
		t.Fatal("the hook did not block the prompt")
	}
	if code := sh.Exec(ctx, "make the changes"); code != ExitOK {
		t.Fatalf("prompt: %d %s", code, errOut)
	}
	id := env.Exec.SessionID
	env.CloseSession()
	warnings, err := env.Resume(id, false)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("resume: %v %q", err, warnings)
	}
	out.Reset()
	if code := sh.Exec(ctx, "/rewind"); code != ExitOK || !strings.Contains(out.String(), `  1  "make the changes"`) ||
		!strings.Contains(out.String(), "3 files: new.go, old.go, notes.txt") {
		t.Fatalf("/rewind list after the resume: %d\n%s", code, out)
	}
	out.Reset()
	if code := sh.Exec(ctx, "/undo"); code != ExitOK || !strings.Contains(out.String(), "Undid the file changes of prompt 1:") {
		t.Fatalf("/undo after the resume: %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(p("new.go")); !os.IsNotExist(err) {
		t.Errorf("new.go still there: %v", err)
	}
	out.Reset()
	if code := sh.Exec(ctx, "/rewind 1 conversation"); code != ExitOK || !strings.Contains(out.String(), "before prompt 1 (0 messages)") {
		t.Fatalf("/rewind 1: %d %s %s", code, out, errOut)
	}
}

// The directories a Write created go with its file.
func TestUndoRemovesCreatedDirectories(t *testing.T) {
	sh, out, errOut := agentShell(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{call("Write", `{"file_path": "newdir/sub/x.go", "content": "package x\n"}`)}},
		{Text: "done"},
	}}, true)
	dir := sh.Env().Exec.WorkingDir
	ctx := context.Background()
	if code := sh.Exec(ctx, "write x"); code != ExitOK {
		t.Fatalf("prompt: %d %s", code, errOut)
	}
	out.Reset()
	if code := sh.Exec(ctx, "/undo"); code != ExitOK ||
		!strings.Contains(out.String(), "removed   newdir/sub/ (the prompt created it)\n  removed   newdir/ (the prompt created it)") {
		t.Fatalf("/undo: %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "newdir")); !os.IsNotExist(err) {
		t.Fatalf("newdir is still there: %v", err)
	}
}

// A file deleted since forge wrote it is said to be deleted, not changed;
// a second undo of files already put back says so.
func TestUndoMessages(t *testing.T) {
	sh, out, errOut := agentShell(t, editScript(), true)
	env := sh.Env()
	p := func(n string) string { return filepath.Join(env.Exec.WorkingDir, n) }
	must(t, os.WriteFile(p("old.go"), []byte("old code\n"), 0o644))
	must(t, os.WriteFile(p("notes.txt"), []byte("n\n"), 0o644))
	ctx := context.Background()
	sh.Exec(ctx, "make the changes")
	must(t, os.Remove(p("old.go")))
	out.Reset()
	errOut.Reset()
	if code := sh.Exec(ctx, "/undo"); code != ExitConflict || !strings.Contains(out.String(), "  old.go (deleted since forge wrote it)") {
		t.Fatalf("/undo of a deleted file: %d\n%s%s", code, out, errOut)
	}
	env.IO.InTerminal = true
	var asked []string
	out.Reset()
	code, _ := sh.Dispatch(ctx, "/undo", func(_ context.Context, q string) (string, error) { asked = append(asked, q); return "n", nil })
	if code != ExitOK || len(asked) != 1 || !strings.HasPrefix(asked[0], "old.go was deleted since forge wrote it.") ||
		!strings.Contains(out.String(), "kept      old.go (deleted since forge wrote it)") {
		t.Fatalf("/undo on a terminal: %d %q\n%s%s", code, asked, out, errOut)
	}

	// Another forge put the files back (forge undo beside this shell):
	// this shell's history does not know, and finds them as before.
	sh, out, errOut = agentShell(t, editScript(), true)
	env = sh.Env()
	must(t, os.WriteFile(p("old.go"), []byte("old code\n"), 0o644))
	must(t, os.WriteFile(p("notes.txt"), []byte("n\n"), 0o644))
	sh.Exec(ctx, "make the changes")
	must(t, os.WriteFile(p("old.go"), []byte("old code\n"), 0o644))
	must(t, os.WriteFile(p("notes.txt"), []byte("n\n"), 0o644))
	must(t, os.Remove(p("new.go")))
	out.Reset()
	if code := sh.Exec(ctx, "/undo"); code != ExitOK || !strings.Contains(out.String(), "The file changes of prompt 1 were already undone:") ||
		!strings.Contains(out.String(), "unchanged old.go (already as before)") {
		t.Fatalf("/undo of files already put back: %d\n%s%s", code, out, errOut)
	}
}

func TestUndoAsksOnATerminal(t *testing.T) {
	sh, out, errOut := agentShell(t, editScript(), false)
	env := sh.Env()
	p := func(n string) string { return filepath.Join(env.Exec.WorkingDir, n) }
	must(t, os.WriteFile(p("old.go"), []byte("old code\n"), 0o644))
	must(t, os.WriteFile(p("notes.txt"), []byte("n\n"), 0o644))
	sh.Exec(context.Background(), "make the changes")
	must(t, os.WriteFile(p("old.go"), []byte("by hand\n"), 0o644))
	must(t, os.WriteFile(p("notes.txt"), []byte("by hand\n"), 0o644))
	env.IO.InTerminal = true
	var asked []string
	ask := func(_ context.Context, q string) (string, error) {
		asked = append(asked, q)
		if strings.HasPrefix(q, "old.go") {
			return "y", nil
		}
		return "n", nil
	}
	out.Reset()
	if code, _ := sh.Dispatch(context.Background(), "/undo", ask); code != ExitOK {
		t.Fatalf("/undo on a terminal: %d %s", code, errOut)
	}
	if len(asked) != 2 || !strings.Contains(asked[0], "changed since forge wrote it") {
		t.Fatalf("asked %q", asked)
	}
	if readFile(t, p("old.go")) != "old code\n" || readFile(t, p("notes.txt")) != "by hand\n" {
		t.Fatalf("old.go %q, notes.txt %q", readFile(t, p("old.go")), readFile(t, p("notes.txt")))
	}
	if !strings.Contains(out.String(), "kept      notes.txt (changed since forge wrote it)") {
		t.Fatalf("/undo says\n%s", out)
	}
	out.Reset()
	if code := sh.Exec(context.Background(), "/rewind"); code != ExitOK ||
		!strings.Contains(out.String(), "3 files: new.go, old.go, notes.txt (partly undone: notes.txt kept)\n") {
		t.Fatalf("/rewind after a partial undo:\n%s", out)
	}
}

func TestUndoCLISession(t *testing.T) {
	sh, out, errOut := agentShell(t, editScript(), true)
	env := sh.Env()
	p := func(n string) string { return filepath.Join(env.Exec.WorkingDir, n) }
	must(t, os.WriteFile(p("old.go"), []byte("old code\n"), 0o644))
	must(t, os.WriteFile(p("notes.txt"), []byte("n\n"), 0o644))
	sh.Exec(context.Background(), "make the changes")
	id := env.Exec.SessionID
	env.CloseSession()
	env.Exec.SessionID = "sess_other"
	c, _ := lookup(Table(), "undo")
	fs := newFlags("undo")
	run := c.Flags(fs)
	must(t, fs.Parse([]string{"--session", id}))
	out.Reset()
	if code := run(context.Background(), env, Invocation{}); code != ExitOK || !strings.Contains(out.String(), "removed   new.go") {
		t.Fatalf("forge undo --session: %d %s %s", code, out, errOut)
	}
	errOut.Reset()
	if code := run(context.Background(), env, Invocation{}); code != ExitNothingToUndo {
		t.Fatalf("forge undo again: %d %s", code, errOut)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
