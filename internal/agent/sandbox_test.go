package agent

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

// fakeSandbox stands in for the OS sandbox: it marks the commands it
// wraps (FAKE_SANDBOX in their environment says which one) and explains
// an output that says "blocked".
type fakeSandbox struct {
	name     string
	readOnly bool
	mu       sync.Mutex
	wrapped  int
}

func (f *fakeSandbox) Wrap(cmd *exec.Cmd, _ *os.File) (func(), error) {
	f.mu.Lock()
	f.wrapped++
	f.mu.Unlock()
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "FAKE_SANDBOX="+f.name)
	return func() {}, nil
}

func (f *fakeSandbox) ReadOnly() bool { return f.readOnly }

func (f *fakeSandbox) Explain(output, _ string, _ time.Time) string {
	if strings.Contains(output, "blocked") {
		return "[sandbox] the fake sandbox blocked it"
	}
	return ""
}

func (f *fakeSandbox) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.wrapped
}

// TestSandboxedCallsRunUnasked: a Bash call that runs in the sandbox
// needs no question, its events say it is sandboxed, and what the
// sandbox blocked reaches the model in one line; a deny rule still
// denies.
func TestSandboxedCallsRunUnasked(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			scriptCall("Bash", `{"command": "echo in $FAKE_SANDBOX"}`),
			scriptCall("Bash", `{"command": "echo blocked; exit 1"}`),
			scriptCall("Bash", `{"command": "rm -rf build"}`),
		}},
		{Text: "ok"},
	}})
	sb := &fakeSandbox{name: "workspace"}
	h.cfg.Sandbox = sb
	h.cfg.Policy = h.policy(permission.Config{Deny: []string{"Bash(rm:*)"}})
	ap := &fakeApprover{}
	h.cfg.Approver = ap
	h.run(context.Background(), "go")
	res := resultsOf(h.lastRequest())
	if !strings.Contains(res[0], "in workspace") {
		t.Errorf("the sandboxed command: %q", res[0])
	}
	if !strings.Contains(res[1], "[sandbox] the fake sandbox blocked it") {
		t.Errorf("the blocked command's result: %q", res[1])
	}
	if !strings.Contains(res[2], "Denied") || sb.count() != 2 {
		t.Errorf("the denied command: %q, %d wrapped", res[2], sb.count())
	}
	if len(ap.asked) != 0 {
		t.Errorf("asked %d times", len(ap.asked))
	}
	sandboxed := 0
	for _, e := range h.events {
		if (e.Type == EventToolCall || e.Type == EventToolResult) && e.Call.Sandboxed {
			sandboxed++
		}
	}
	if sandboxed != 6 {
		t.Errorf("%d call and result events say sandboxed, want 6", sandboxed)
	}
}

// TestLeavingTheSandbox: sandbox: false asks the person, in every mode
// but yolo; nobody to ask refuses it with what to do; yolo runs it
// outside.
func TestLeavingTheSandbox(t *testing.T) {
	call := scriptCall("Bash", `{"command": "echo out ${FAKE_SANDBOX:-unconfined}", "sandbox": false}`)
	script := llmtest.Script{Turns: []llmtest.Turn{{ToolCalls: []llmtest.ToolCall{call}}, {Text: "ok"}}}

	h := newHarness(t, llmtest.OpenAI, script)
	h.cfg.Sandbox = &fakeSandbox{name: "workspace"}
	h.cfg.Policy = h.policy(permission.Config{Allow: []string{"Bash"}})
	h.run(context.Background(), "go")
	if res := resultsOf(h.lastRequest()); !strings.Contains(res[0], "Denied") || !strings.Contains(res[0], "outside the sandbox") {
		t.Errorf("headless, leaving the sandbox: %q", res[0])
	}

	h = newHarness(t, llmtest.OpenAI, script)
	h.cfg.Sandbox = &fakeSandbox{name: "workspace"}
	ap := &fakeApprover{answers: []Answer{AllowOnce}}
	h.cfg.Approver = ap
	h.run(context.Background(), "go")
	if len(ap.asked) != 1 || !strings.Contains(ap.asked[0].Reason, "outside the sandbox") {
		t.Fatalf("asked %+v", ap.asked)
	}
	if res := resultsOf(h.lastRequest()); !strings.Contains(res[0], "out unconfined") {
		t.Errorf("approved, it ran outside: %q", res[0])
	}

	h = newHarness(t, llmtest.OpenAI, script)
	h.cfg.Sandbox = &fakeSandbox{name: "workspace"}
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	h.run(context.Background(), "go")
	if res := resultsOf(h.lastRequest()); !strings.Contains(res[0], "out unconfined") {
		t.Errorf("yolo: %q", res[0])
	}
}

// TestPlanModeRunsBashReadOnly: plan mode offers Bash when there is a
// read-only sandbox, runs it there without a question, and refuses to
// leave it.
func TestPlanModeRunsBashReadOnly(t *testing.T) {
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			scriptCall("Bash", `{"command": "echo in $FAKE_SANDBOX"}`),
			scriptCall("Bash", `{"command": "echo out", "sandbox": false}`),
		}},
		{Text: "A plan."},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModePlan})
	h.cfg.Sandbox = &fakeSandbox{name: "workspace"}
	h.cfg.ReadOnlySandbox = &fakeSandbox{name: "read-only", readOnly: true}
	h.cfg.Approver = &fakeApprover{answers: []Answer{AllowOnce}}
	h.run(context.Background(), "plan")
	names := h.srv.Requests()[0].ToolNames()
	if !slices.Contains(names, "Bash") || slices.Contains(names, "Write") {
		t.Errorf("plan mode offered %s", names)
	}
	res := resultsOf(h.lastRequest())
	if !strings.Contains(res[0], "in read-only") {
		t.Errorf("plan's Bash: %q", res[0])
	}
	if !strings.Contains(res[1], "Denied") || !strings.Contains(res[1], "plan mode") {
		t.Errorf("leaving the sandbox in plan mode: %q", res[1])
	}
}
