package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
)

// A prompt typed in the shell is kept as the person typed it beside what
// the model got (the paste in full, the @mentioned file, the output of a
// !command before it), and a call that failed with how it ended: the
// list names the session by what was typed, and a resume shows the
// exchange as the shell showed it.
func TestTypedPromptKeptAndShown(t *testing.T) {
	sh, out, errOut := agentShell(t, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{call("Bash", `{"command": "exit 3"}`)}},
		{Text: "It **failed**."},
	}}, true)
	env := sh.Env()
	must(t, os.WriteFile(filepath.Join(env.Exec.WorkingDir, "a.txt"), []byte("alpha\n"), 0o600))
	ctx := context.Background()
	if code := sh.Exec(ctx, "!echo from the shell"); code != ExitOK {
		t.Fatalf("!echo: %d %s", code, errOut)
	}
	paste := strings.Repeat("p", 2000)
	typed := "look at @a.txt and [pasted 1 line, 2 KB]"
	if code, _ := sh.DispatchTyped(ctx, "look at @a.txt and "+paste, typed, nil); code != ExitOK {
		t.Fatalf("prompt: %d %s", code, errOut)
	}
	out.Reset()
	if code := sh.Exec(ctx, "/rewind"); code != ExitOK || !strings.Contains(out.String(), `"`+typed+`"`) {
		t.Errorf("/rewind: %d\n%s", code, out)
	}
	env.CloseSession()

	st, err := env.Sessions.Store.Load("sess_undo")
	must(t, err)
	got := st.Messages[0].Text
	for _, part := range []string{"<shell-command>echo from the shell</shell-command>", paste, "<attached-file path=\"a.txt\">\nalpha\n"} {
		if !strings.Contains(got, part) {
			t.Errorf("the model's prompt lacks %q", part)
		}
	}
	if st.Shown.Typed[got] != typed {
		t.Errorf("kept as typed: %q", st.Shown.Typed[got])
	}
	if len(st.Shown.Outcomes) != 1 {
		t.Fatalf("outcomes: %+v", st.Shown.Outcomes)
	}
	for _, o := range st.Shown.Outcomes {
		if o.Status != "failed" || o.Exit != "exit 3" {
			t.Errorf("outcome: %+v", o)
		}
	}
	list, err := env.Sessions.Store.List()
	must(t, err)
	if len(list) != 1 || list[0].FirstPrompt != typed {
		t.Errorf("list: %+v", list)
	}

	out.Reset()
	if code := sh.Exec(ctx, "/sessions"); code != ExitOK || !strings.Contains(out.String(), `"`+typed+`"`) {
		t.Errorf("/sessions: %d\n%s", code, out)
	}
	env.NewConversation()
	out.Reset()
	if code := sh.Exec(ctx, "/resume sess_undo"); code != ExitOK {
		t.Fatalf("/resume: %d %s", code, errOut)
	}
	want := "Where it left off:\n\nforge> " + typed + "\n✗ Bash(exit 3) · exit 3\nIt **failed**.\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("/resume shows:\n%s\nwant:\n%s", out, want)
	}
}
