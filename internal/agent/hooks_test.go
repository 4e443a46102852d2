package agent

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

// withHooks gives the harness hooks running in its directory.
func (h *harness) withHooks(hs ...hooks.Hook) {
	h.t.Helper()
	r, err := hooks.New(hs, hooks.Options{Dir: h.dir, Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		h.t.Fatal(err)
	}
	h.cfg.Hooks = r
}

// hookNotes are the notes of the hook events, in order.
func (h *harness) hookNotes() []hooks.Note {
	var out []hooks.Note
	for _, e := range h.events {
		if e.Type == EventHook {
			out = append(out, *e.Hook)
		}
	}
	return out
}

// bashThenDone is a script that runs one Bash command, then answers.
func bashThenDone(command string) llmtest.Script {
	return llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Bash", `{"command": `+strconv.Quote(command)+`}`)}},
		{Text: "done"},
	}}
}

// A hook's exit 2 refuses the call whatever the mode, yolo included; the
// model reads the hook's standard error.
func TestHookDenies(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, bashThenDone("rm -rf build"))
			h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
			h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Matcher: "Bash",
				Command: `if grep -q 'rm -rf'; then echo "no rm -rf here" >&2; exit 2; fi`})
			h.run(context.Background(), "clean")
			res := h.results()
			if len(res) != 1 || res[0].Status != StatusDenied || !strings.Contains(res[0].Error, "blocked by a hook: no rm -rf here") {
				t.Fatalf("results %+v", res[0])
			}
			if got := resultsOf(h.lastRequest()); !contains(got, "Denied by the person's PreToolUse hook: no rm -rf here") {
				t.Errorf("the model read %q", got)
			}
			if n := h.hookNotes(); len(n) != 1 || n[0].Kind != hooks.NoteBlocked || n[0].Tool != "Bash" {
				t.Errorf("notes %+v", n)
			}
			h.assertValid()
		})
	}
}

// A hook's allow runs a call that would need the person, with nobody to
// ask; a deny rule still refuses it.
func TestHookAllows(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Bash", `{"command": "echo ran"}`), scriptCall("Bash", `{"command": "rm x"}`)}},
		{Text: "done"},
	}})
	h.cfg.Policy = h.policy(permission.Config{Deny: []string{"Bash(rm:*)"}})
	h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: `echo '{"decision": "allow"}'`})
	h.run(context.Background(), "go")
	res := h.results()
	if res[0].Status != StatusSuccess || !strings.Contains(res[0].Output, "ran") {
		t.Errorf("allowed call: %+v", res[0])
	}
	if res[1].Status != StatusDenied || !strings.Contains(res[1].Output, "Bash(rm:*)") {
		t.Errorf("call against a deny rule: %+v", res[1])
	}
}

// A hook's allow does not let the agent change forge's own settings: only
// the person can, and without a terminal nobody can.
func TestHookAllowDoesNotOpenForgeSettings(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": ".forge/config.yaml", "content": "approval: yolo\n"}`)}},
		{Text: "done"},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: `echo '{"decision": "allow"}'`})
	h.run(context.Background(), "go")
	res := h.results()
	if res[0].Status != StatusDenied || !strings.Contains(res[0].Output, "forge's own settings") {
		t.Errorf("a hook-allowed write of .forge: %+v", res[0])
	}
}

// A hook's ask puts the question even in yolo; with nobody to ask, the
// call is refused, saying why.
func TestHookAsks(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, bashThenDone("echo hi"))
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: `echo '{"hookSpecificOutput": {"permissionDecision": "ask"}}'`})
	h.run(context.Background(), "go")
	if res := h.results(); res[0].Status != StatusDenied || !strings.Contains(res[0].Error, "a hook asks for approval") {
		t.Errorf("result %+v", res[0])
	}

	h = newHarness(t, llmtest.OpenAI, bashThenDone("echo hi"))
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	ap := &fakeApprover{answers: []Answer{AllowOnce}}
	h.cfg.Approver = ap
	h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: `echo '{"decision": "ask"}'`})
	h.run(context.Background(), "go")
	if len(ap.asked) != 1 || h.results()[0].Status != StatusSuccess {
		t.Errorf("asked %d times, result %+v", len(ap.asked), h.results()[0])
	}
}

// A hook's rewrite replaces the arguments, validated again: a valid one
// runs, an invalid one refuses the call with the validation's message.
func TestHookRewrites(t *testing.T) {
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Bash", `{"command": "echo original"}`)}},
		{ToolCalls: []llmtest.ToolCall{scriptCall("Bash", `{"command": "echo bad"}`)}},
		{Text: "done"},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Matcher: "Bash", Command: `if grep -q original; then ` +
		`echo '{"hookSpecificOutput": {"updatedInput": {"command": "echo rewritten"}}}'; else echo '{"updatedInput": {"command": 5}}'; fi`})
	h.run(context.Background(), "go")
	res := h.results()
	if res[0].Status != StatusSuccess || !strings.Contains(res[0].Output, "rewritten") {
		t.Errorf("rewritten call: %+v", res[0])
	}
	if res[1].Status != StatusDenied || !strings.Contains(res[1].Output, "rewrote the arguments into invalid ones") ||
		!strings.Contains(res[1].Output, "command") {
		t.Errorf("invalid rewrite: %+v", res[1])
	}
	notes := h.hookNotes()
	if len(notes) != 2 || notes[0].Kind != hooks.NoteRewrote || !strings.Contains(notes[0].Text, "echo rewritten") || notes[1].Kind != hooks.NoteBlocked {
		t.Errorf("notes %+v", notes)
	}
	var call *Call
	for _, e := range h.events {
		if e.Type == EventToolCall {
			call = e.Call
			break
		}
	}
	if call.Args.String("command") != "echo original" {
		t.Errorf("the tool_call event shows %v, not the model's call", call.Args)
	}
}

// A hook that fails or outlives its timeout is shown, and the call goes
// on; the timed-out hook's children are gone.
func TestHookFailsAndTimesOut(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, bashThenDone("echo ran"))
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	pidFile := filepath.Join(t.TempDir(), "child.pid")
	h.withHooks(
		hooks.Hook{Event: hooks.PreToolUse, Command: `echo broken >&2; exit 1`},
		hooks.Hook{Event: hooks.PreToolUse, Command: `sleep 30 & echo $! > ` + pidFile + `; wait`, Timeout: 300 * time.Millisecond},
	)
	start := time.Now()
	h.run(context.Background(), "go")
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %v", took)
	}
	if res := h.results(); res[0].Status != StatusSuccess || !strings.Contains(res[0].Output, "ran") {
		t.Errorf("result %+v", res[0])
	}
	notes := h.hookNotes()
	if len(notes) != 2 || notes[0].Text != "exit status 1: broken" || !strings.Contains(notes[1].Text, "timed out after 300ms") {
		t.Errorf("notes %+v", notes)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	if err := syscall.Kill(pid, 0); err == nil {
		if st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); !strings.Contains(string(st), ") Z") {
			t.Errorf("the hook's child %d outlived it", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// PostToolUse: exit 2's standard error reaches the model with the result.
func TestPostToolUseFeedback(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, bashThenDone("echo ran"))
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.withHooks(hooks.Hook{Event: hooks.PostToolUse, Matcher: "Bash",
		Command: `grep -q '"tool_response":{"status":"success","output":"ran' && { echo "lint: 2 warnings" >&2; exit 2; }`})
	h.run(context.Background(), "go")
	if got := resultsOf(h.lastRequest()); !contains(got, "PostToolUse hook: lint: 2 warnings") {
		t.Errorf("the model read %q", got)
	}
}

// UserPromptSubmit: a block keeps the prompt from the model; plain output
// is context sent with it.
func TestPromptHooks(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{{Text: "ok"}}})
	h.withHooks(hooks.Hook{Event: hooks.UserPromptSubmit, Command: `if grep -q secret; then echo "no secrets" >&2; exit 2; fi; echo "branch: main"`},
		hooks.Hook{Event: hooks.SessionStart, Command: `grep -q '"source":"startup"' && echo "started fresh"`})
	h.conv.Attach(llm.Image{MediaType: "image/png", Data: redDot})
	d := h.run(context.Background(), "the secret is 42")
	if d.Reason != ReasonHook || !strings.Contains(d.Summary(), "no secrets") || len(h.conv.Messages) != 0 || len(h.srv.Requests()) != 0 {
		t.Fatalf("done %+v, %d messages", d, len(h.conv.Messages))
	}
	if ims := h.conv.Attached(); len(ims) != 0 {
		t.Errorf("the blocked prompt's %d images wait for the next", len(ims))
	}
	h.run(context.Background(), "hello")
	msgs := h.lastRequest().Messages
	if len(h.conv.Messages) != 2 || !strings.Contains(h.conv.Messages[0].Text, "hello\n\nContext from the person's hooks:\n\nbranch: main") ||
		strings.Contains(h.conv.Messages[0].Text, "started fresh") || len(msgs) == 0 {
		// SessionStart ran once, on the blocked prompt's run.
		t.Errorf("messages %+v", h.conv.Messages)
	}
}

// The context a hook adds is labelled with whose hook it is, and a hook
// that prints without end adds 16 KB, cut visibly, and the person is told.
func TestPromptHookContextBoundedAndLabelled(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{{Text: "ok"}}})
	flood := `head -c 200000 /dev/zero | tr '\0' x`
	h.withHooks(hooks.Hook{Event: hooks.UserPromptSubmit, Command: `echo "branch: main"`},
		hooks.Hook{Event: hooks.UserPromptSubmit, Command: flood, Project: true})
	h.run(context.Background(), "hello")
	text := h.conv.Messages[0].Text
	if !strings.HasPrefix(text, "hello\n\nContext from the person's hooks:\n\nbranch: main\n\nContext from the project's hooks:\n\nxxx") {
		t.Errorf("message starts %q", text[:min(len(text), 120)])
	}
	if len(text) > hooks.MaxContext+200 || !strings.HasSuffix(text, "[... cut: forge keeps the first 16 KB of a hook's context]") {
		t.Errorf("message of %d bytes ends %q", len(text), text[max(0, len(text)-80):])
	}
	notes := h.hookNotes()
	if len(notes) != 1 || notes[0].Kind != hooks.NoteCut || notes[0].Command != flood ||
		notes[0].Text != "its context for the model was 200000 bytes; the model gets the first 16 KB" {
		t.Errorf("notes %+v", notes)
	}
}

// Stop: a block makes the agent go on with the reason as the next user
// message; stop_hook_active lets the hook end it, and a hook that never
// does is bounded.
func TestStopHook(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{{Text: "first"}, {Text: "second"}}})
	h.withHooks(hooks.Hook{Event: hooks.Stop, Command: `grep -q '"stop_hook_active":false' && echo '{"decision": "block", "reason": "run the tests"}'; true`})
	d := h.run(context.Background(), "go")
	if d.Reason != ReasonStop || d.Text != "second" || d.Turns != 2 {
		t.Fatalf("done %+v", d)
	}
	if m := h.conv.Messages; len(m) != 4 || m[2].Text != "run the tests" {
		t.Errorf("messages %+v", m)
	}

	h = newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{{Text: "again"}}, RepeatLast: true})
	h.withHooks(hooks.Hook{Event: hooks.Stop, Command: `exit 2`})
	d = h.run(context.Background(), "go")
	if d.Reason != ReasonStop || d.Turns != maxStopBlocks+1 || h.countEvents(EventNotice) != 1 {
		t.Errorf("done %+v, %d notices", d, h.countEvents(EventNotice))
	}
}

// A hook that blocks with exit 2 and says nothing is reported once, as
// that; the model is told whose hook it was, the person's or the
// project's.
func TestHookDenialWording(t *testing.T) {
	for _, c := range []struct {
		project bool
		model   string
	}{
		{false, "Denied by the person's PreToolUse hook: exit status 2, nothing on standard error"},
		{true, "Denied by the project's PreToolUse hook: exit status 2, nothing on standard error"},
	} {
		h := newHarness(t, llmtest.OpenAI, bashThenDone("echo hi"))
		h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
		h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: `exit 2`, Project: c.project})
		h.run(context.Background(), "go")
		if res := h.results(); res[0].Error != "blocked by a hook: exit status 2, nothing on standard error" {
			t.Errorf("the person reads %q", res[0].Error)
		}
		if got := resultsOf(h.lastRequest()); !contains(got, c.model) {
			t.Errorf("the model read %q", got)
		}
	}

	h := newHarness(t, llmtest.OpenAI, bashThenDone("echo hi"))
	h.withHooks(hooks.Hook{Event: hooks.PreToolUse, Command: `echo '{"decision": "deny"}'`})
	h.run(context.Background(), "go")
	if res := h.results(); res[0].Error != "blocked by a hook: no reason given" {
		t.Errorf("a deny without a reason: the person reads %q", res[0].Error)
	}
}
