package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/anthropic"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/llm/openai"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// wires are the provider formats every loop test runs against.
var wires = []llmtest.Wire{llmtest.OpenAI, llmtest.Anthropic}

// harness is an agent talking to a scripted fake provider, with the
// built-in tools in a temporary working directory.
type harness struct {
	t      *testing.T
	srv    *llmtest.Server
	dir    string
	reg    *tools.Registry
	exec   *tools.Executor
	cfg    Config
	conv   Conversation
	events []Event
	mu     sync.Mutex
}

// newHarness starts a fake provider speaking wire with script.
func newHarness(t *testing.T, wire llmtest.Wire, script llmtest.Script) *harness {
	t.Helper()
	srv := llmtest.NewServer(t, script)
	var model llm.Model
	var err error
	if wire == llmtest.OpenAI {
		model, err = openai.New(openai.Config{BaseURL: srv.OpenAIURL(), APIKey: "test", Model: "m", MaxRetries: -1})
	} else {
		model, err = anthropic.New(anthropic.Config{BaseURL: srv.AnthropicURL(), APIKey: "test", Model: "m", MaxRetries: -1})
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	reg := tools.NewRegistry()
	if err := builtin.Register(reg); err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, srv: srv, dir: dir, reg: reg, exec: tools.NewExecutor(reg)}
	h.cfg = Config{Model: model, Executor: h.exec, Exec: tools.NewExecutionContext(dir), System: "You are a test.",
		LoopDetection: true, Policy: h.policy(permission.Config{})}
	return h
}

// policy makes a policy for the harness's working directory.
func (h *harness) policy(c permission.Config) *permission.Policy {
	h.t.Helper()
	c.WorkingDir = h.dir
	p, err := permission.New(c)
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

// file writes a file in the working directory.
func (h *harness) file(name, content string) string {
	h.t.Helper()
	p := filepath.Join(h.dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// run runs one prompt and returns its summary.
func (h *harness) run(ctx context.Context, prompt string) Done {
	h.t.Helper()
	return New(h.cfg).Run(ctx, &h.conv, prompt, func(e Event) {
		h.mu.Lock()
		h.events = append(h.events, e)
		h.mu.Unlock()
	})
}

// results are the tool_result events, in order.
func (h *harness) results() []*CallResult {
	var out []*CallResult
	for _, e := range h.events {
		if e.Type == EventToolResult {
			out = append(out, e.Result)
		}
	}
	return out
}

// countEvents counts the events of a type.
func (h *harness) countEvents(t EventType) int {
	n := 0
	for _, e := range h.events {
		if e.Type == t {
			n++
		}
	}
	return n
}

// lastRequest is the last request the provider received.
func (h *harness) lastRequest() llmtest.Request {
	reqs := h.srv.Requests()
	if len(reqs) == 0 {
		h.t.Fatal("no request reached the provider")
	}
	return reqs[len(reqs)-1]
}

// assertValid fails unless every call of the conversation has exactly one
// result, as the providers demand.
func (h *harness) assertValid() {
	h.t.Helper()
	c := Conversation{Messages: append([]llm.Message(nil), h.conv.Messages...)}
	if notes := c.Repair(); len(notes) > 0 {
		h.t.Errorf("the conversation needs repair: %q", notes)
	}
}

// call is a scripted tool call with arguments given as JSON.
func scriptCall(name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

// resultsOf are the tool results a request carried, by content.
func resultsOf(req llmtest.Request) []string {
	var out []string
	for _, r := range (&req).Results() {
		out = append(out, r.Content)
	}
	return out
}

// fakeApprover answers approvals from a list and records them.
type fakeApprover struct {
	mu      sync.Mutex
	answers []Answer
	asked   []Approval
}

func (f *fakeApprover) Approve(_ context.Context, a Approval) (Answer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, a)
	if len(f.answers) == 0 {
		return Reject, nil
	}
	ans := f.answers[0]
	f.answers = f.answers[1:]
	return ans, nil
}

func contains(xs []string, sub string) bool {
	for _, x := range xs {
		if strings.Contains(x, sub) {
			return true
		}
	}
	return false
}

// rendezvousTool is a read-only tool whose two calls each wait for the
// other: both say "met" only when they run at the same time.
func rendezvousTool(arrived chan struct{}) tools.Tool {
	return testTool{name: "rendezvous", readOnly: true, run: func(ctx context.Context, _ tools.Args) tools.Result {
		arrived <- struct{}{}
		deadline := time.After(10 * time.Second)
		for {
			if len(arrived) == cap(arrived) {
				return tools.OK("met")
			}
			select {
			case <-deadline:
				return tools.Fail("alone: the other call never ran at the same time")
			case <-ctx.Done():
				return tools.Fail("cancelled")
			case <-time.After(time.Millisecond):
			}
		}
	}}
}

// testTool is a tool made of a function.
type testTool struct {
	name     string
	readOnly bool
	run      func(ctx context.Context, args tools.Args) tools.Result
}

func (t testTool) Name() string                  { return t.name }
func (t testTool) Description() string           { return "A test tool." }
func (t testTool) Category() tools.Category      { return tools.CategoryOther }
func (t testTool) Parameters() []tools.Parameter { return nil }
func (t testTool) IsReadOnly() bool              { return t.readOnly }
func (t testTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	return t.run(ctx, args)
}
