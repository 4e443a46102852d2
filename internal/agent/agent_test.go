package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

func TestTextAnswer(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{Text: "Hello there, friend.", Usage: &llmtest.Usage{Input: 100, Output: 7}},
			}})
			d := h.run(context.Background(), "hi")
			if d.Reason != ReasonStop || d.Text != "Hello there, friend." || d.Turns != 1 {
				t.Fatalf("done %+v", d)
			}
			if d.Usage.InputTokens != 100 || d.Usage.OutputTokens != 7 {
				t.Errorf("usage %+v", d.Usage)
			}
			var streamed strings.Builder
			for _, e := range h.events {
				if e.Type == EventTextDelta {
					streamed.WriteString(e.Text)
				}
			}
			if streamed.String() != "Hello there, friend." || h.countEvents(EventTextDelta) < 2 {
				t.Errorf("deltas %q in %d events", streamed.String(), h.countEvents(EventTextDelta))
			}
			if last := h.events[len(h.events)-1]; last.Type != EventDone {
				t.Errorf("last event %s, want done", last.Type)
			}
			req := h.lastRequest()
			if !strings.Contains(req.System, "You are a test.") || len(req.Tools) != 16 {
				t.Errorf("system %q, %d tools", req.System, len(req.Tools))
			}
		})
	}
}

// Every call gets exactly one result, matched by id, whatever became of it:
// run, unknown tool, broken JSON, invalid arguments, denied.
func TestEveryCallAnswered(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{
					scriptCall("Read", `{"file_path": "notes.txt"}`),
					scriptCall("Raed", `{"file_path": "notes.txt"}`),
					{Name: "Read", RawArguments: `{"file_path": "notes.txt"`},
					scriptCall("Read", `{"file_path": 42}`),
					scriptCall("Write", `{"file_path": "out.txt", "content": "x"}`),
				}},
				{Text: "done"},
			}})
			h.file("notes.txt", "the notes\n")
			d := h.run(context.Background(), "read")
			if d.Reason != ReasonStop || d.Text != "done" {
				t.Fatalf("done %+v", d)
			}
			req := h.lastRequest()
			res := (&req).Results()
			if len(res) != 5 {
				t.Fatalf("%d results, want 5: %+v", len(res), res)
			}
			calls := h.conv.Messages[1].ToolCalls
			for i, r := range res {
				if r.CallID != calls[i].ID {
					t.Errorf("result %d answers %s, want %s", i, r.CallID, calls[i].ID)
				}
			}
			wants := []string{"the notes", "Unknown tool: Raed. Did you mean Read", "Invalid JSON arguments", "Invalid type for file_path: expected string", "Denied:"}
			for i, w := range wants {
				if !strings.Contains(res[i].Content, w) {
					t.Errorf("result %d = %q, want %q", i, res[i].Content, w)
				}
			}
			if _, err := os.Stat(filepath.Join(h.dir, "out.txt")); err == nil {
				t.Error("a denied Write wrote its file")
			}
			statuses := []Status{StatusSuccess, StatusFailed, StatusFailed, StatusFailed, StatusDenied}
			for i, r := range h.results() {
				if r.Status != statuses[i] {
					t.Errorf("event %d status %s, want %s", i, r.Status, statuses[i])
				}
			}
			h.assertValid()
		})
	}
}

// Without a terminal nobody can approve: the call is denied, its result
// says how to allow it, and the run goes on.
func TestDenialWithoutApproverSaysHowToAllow(t *testing.T) {
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Bash", `{"command": "npm install"}`)}},
		{Text: "I could not install."},
	}})
	d := h.run(context.Background(), "install")
	if d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	last := h.lastRequest()
	res := last.Results()
	if len(res) != 1 || !res[0].IsError || !strings.Contains(res[0].Content, "Denied") ||
		!strings.Contains(res[0].Content, "--approval") {
		t.Errorf("result %+v", res)
	}
}

func TestRules(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			scriptCall("Bash", `{"command": "echo allowed"}`),
			scriptCall("Bash", `{"command": "echo allowed && rm -rf nothing-here"}`),
			scriptCall("Read", `{"file_path": "secret.env"}`),
		}},
		{Text: "ok"},
	}})
	h.file("secret.env", "KEY=1\n")
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo, Allow: []string{"Bash(echo:*)"}, Deny: []string{"Read(*.env)", "Bash(rm:*)"}})
	h.run(context.Background(), "go")
	res := resultsOf(h.lastRequest())
	if !strings.Contains(res[0], "allowed") {
		t.Errorf("allowed command: %q", res[0])
	}
	if !strings.Contains(res[1], "Denied") || !strings.Contains(res[2], "Denied") || strings.Contains(res[2], "KEY=1") {
		t.Errorf("deny rules beat yolo: %q", res[1:])
	}
}

func TestApprovals(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			scriptCall("Bash", `{"command": "echo once"}`),
			scriptCall("Bash", `{"command": "go version"}`),
			scriptCall("Bash", `{"command": "go env GOOS"}`),
			scriptCall("Bash", `{"command": "echo refused"}`),
		}},
		{Text: "ok"},
	}})
	ap := &fakeApprover{answers: []Answer{AllowOnce, AllowAlways, AllowOnce}}
	h.cfg.Approver = ap
	h.run(context.Background(), "go")
	res := resultsOf(h.lastRequest())
	if !strings.Contains(res[0], "once") || !strings.Contains(res[1], "go version") || strings.Contains(res[2], "Denied") {
		t.Errorf("allowed calls: %q", res[:3])
	}
	if !strings.Contains(res[3], "the person refused") {
		t.Errorf("refused call: %q", res[3])
	}
	// "always" for go version remembered Bash(go version:*)? It remembers
	// the narrow rule; go env is a different subcommand and is asked.
	if len(ap.asked) != 4 || !contains(ap.asked[1].Always, "go") {
		t.Errorf("asked %d times: %+v", len(ap.asked), ap.asked)
	}
	if h.countEvents(EventApproval) != 4 {
		t.Errorf("%d approval events", h.countEvents(EventApproval))
	}
}

func TestMaxTurns(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Glob", `{"pattern": "*"}`)}},
	}})
	h.cfg.MaxTurns = 3
	h.cfg.LoopDetection = false
	d := h.run(context.Background(), "loop")
	if d.Reason != ReasonMaxTurns || d.Turns != 3 || len(h.srv.Requests()) != 3 {
		t.Errorf("done %+v after %d requests", d, len(h.srv.Requests()))
	}
	h.assertValid()
}

func TestLoopDetection(t *testing.T) {
	same := llmtest.Turn{ToolCalls: []llmtest.ToolCall{scriptCall("Glob", `{"pattern": "*.go"}`)}}
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{same}})
	d := h.run(context.Background(), "loop")
	if d.Reason != ReasonLoop || d.Turns != 6 {
		t.Fatalf("done %+v, want loop after 6 requests", d)
	}
	res := resultsOf(h.srv.Requests()[5])
	if !strings.Contains(res[4], "already made 4 times") || !strings.Contains(res[4], "If you repeat it again, the task stops") {
		t.Errorf("the fifth call's result: %q", res[4])
	}
	h.assertValid()

	// Off, the same script runs to the turn limit.
	h2 := newHarness(t, llmtest.Anthropic, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{same}})
	h2.cfg.LoopDetection = false
	h2.cfg.MaxTurns = 8
	if d := h2.run(context.Background(), "loop"); d.Reason != ReasonMaxTurns {
		t.Errorf("detection off: %+v", d)
	}
}

func TestLoopBreakingTools(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "Finishing.", ToolCalls: []llmtest.ToolCall{scriptCall("task_completion", `{"summary": "Fixed the test."}`)}},
	}})
	d := h.run(context.Background(), "fix")
	if d.Reason != ReasonStop || d.Text != "Fixed the test." || len(h.srv.Requests()) != 1 {
		t.Errorf("task_completion: %+v", d)
	}
	h.assertValid()

	// ask_question with nobody to answer ends the run with the question.
	h = newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("ask_question", `{"question": "Which branch?", "options": ["main", "dev"]}`)}},
		{Text: "Using dev."},
	}})
	d = h.run(context.Background(), "merge")
	if d.Reason != ReasonStop || !strings.Contains(d.Text, "Which branch?") || !strings.Contains(d.Text, "2. dev") {
		t.Errorf("ask_question without a person: %+v", d)
	}
	// The answer comes as the next prompt, and the conversation is valid.
	if d := h.run(context.Background(), "dev"); d.Text != "Using dev." {
		t.Errorf("next prompt: %+v", d)
	}

	// With a person, the answer goes back to the model.
	h = newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("ask_question", `{"question": "Which branch?"}`)}},
		{Text: "Merging into main."},
	}})
	h.cfg.Exec.Asker = askerFunc(func(context.Context, string) (string, error) { return "main", nil })
	d = h.run(context.Background(), "merge")
	if d.Text != "Merging into main." || resultsOf(h.lastRequest())[0] != "main" {
		t.Errorf("ask_question with a person: %+v, results %q", d, resultsOf(h.lastRequest()))
	}
}

type askerFunc func(context.Context, string) (string, error)

func (f askerFunc) Ask(ctx context.Context, q string) (string, error) { return f(ctx, q) }

func TestProviderError(t *testing.T) {
	for _, wire := range wires {
		h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
			{Error: &llmtest.ErrorReply{Status: 401, Message: "Incorrect API key provided"}},
		}})
		d := h.run(context.Background(), "hi")
		if d.Reason != ReasonError || d.Err == nil || !strings.Contains(d.Err.Error(), "401") ||
			!strings.Contains(d.Err.Error(), "Incorrect API key provided") {
			t.Errorf("%s: %+v", wire, d)
		}
	}
}

// Ctrl-C while the model streams: the run ends cancelled at once and the
// conversation stays valid for the next prompt.
func TestCancelMidStream(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{Text: "Let me think", Stall: true},
				{Text: "Back again."},
			}})
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				for h.countEventsLocked(EventTextDelta) == 0 {
					time.Sleep(5 * time.Millisecond)
				}
				cancel()
			}()
			start := time.Now()
			d := h.run(ctx, "think")
			if d.Reason != ReasonCancelled || time.Since(start) > 10*time.Second {
				t.Fatalf("done %+v after %v", d, time.Since(start))
			}
			h.assertValid()
			if d := h.run(context.Background(), "again"); d.Text != "Back again." {
				t.Errorf("next prompt: %+v", d)
			}
		})
	}
}

// Ctrl-C while a tool runs: that call and the calls after it get cancelled
// results, the conversation stays valid, and the next prompt goes through
// (the fake provider rejects unanswered calls as the real APIs do).
func TestCancelDuringTool(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{
					scriptCall("Bash", `{"command": "sleep 30"}`),
					scriptCall("Read", `{"file_path": "x"}`),
				}},
				{Text: "Next."},
			}})
			h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
			ctx, cancel := context.WithCancel(context.Background())
			go func() {
				for h.countEventsLocked(EventToolCall) < 2 {
					time.Sleep(5 * time.Millisecond)
				}
				time.Sleep(100 * time.Millisecond)
				cancel()
			}()
			d := h.run(ctx, "sleep")
			if d.Reason != ReasonCancelled {
				t.Fatalf("done %+v", d)
			}
			for _, r := range h.results() {
				if r.Status != StatusCancelled {
					t.Errorf("result %+v, want cancelled", r)
				}
			}
			h.assertValid()
			if d := h.run(context.Background(), "go on"); d.Text != "Next." {
				t.Errorf("next prompt: %+v (%v)", d, h.srv.Failures())
			}
		})
	}
}

func (h *harness) countEventsLocked(t EventType) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.countEvents(t)
}

// Read-only calls of one turn run at once: two calls that each wait for the
// other finish only if they run concurrently.
func TestReadOnlyCallsRunConcurrently(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("rendezvous", `{}`), scriptCall("rendezvous", `{}`), scriptCall("Glob", `{"pattern": "*"}`)}},
		{Text: "ok"},
	}})
	arrived := make(chan struct{}, 2)
	if err := h.reg.Register(rendezvousTool(arrived)); err != nil {
		t.Fatal(err)
	}
	d := h.run(context.Background(), "meet")
	res := resultsOf(h.lastRequest())
	if d.Reason != ReasonStop || len(res) != 3 || res[0] != "met" || res[1] != "met" {
		t.Errorf("done %+v, results %q", d, res)
	}
}

func TestPlanModeOffersReadOnlyTools(t *testing.T) {
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{Turns: []llmtest.Turn{{Text: "A plan."}}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModePlan})
	h.run(context.Background(), "plan")
	last := h.lastRequest()
	names := last.ToolNames()
	if slices.Contains(names, "Write") || slices.Contains(names, "Bash") || !slices.Contains(names, "Read") || !slices.Contains(names, TodoToolName) {
		t.Errorf("plan mode offered %s", names)
	}
}

// The text format: no tools field, the tools in the system prompt, calls
// read from the text, results sent back as text.
func TestXMLFormat(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{Text: "Reading.\n<tool>{\"tool_name\": \"Read\", \"arguments\": {\"file_path\": \"notes.txt\"}}</tool>"},
				{Text: "<tool>{\"tool_name\": \"Read\", \"arguments\": </tool>"},
				{Text: "It says: the notes."},
			}})
			h.file("notes.txt", "the notes\n")
			h.cfg.ToolFormat = FormatXML
			d := h.run(context.Background(), "read")
			if d.Reason != ReasonStop || d.Text != "It says: the notes." {
				t.Fatalf("done %+v", d)
			}
			reqs := h.srv.Requests()
			if reqs[0].ToolsField || !strings.Contains(reqs[0].System, "<tool>") || !strings.Contains(reqs[0].System, "## Read") {
				t.Errorf("first request: tools field %v, system %.200q", reqs[0].ToolsField, reqs[0].System)
			}
			second := reqs[1].Messages[len(reqs[1].Messages)-1]
			if !strings.Contains(second.Text, "<tool_result") || !strings.Contains(second.Text, "the notes") {
				t.Errorf("results as text: %+v", second)
			}
			third := reqs[2].Messages[len(reqs[2].Messages)-1]
			if !strings.Contains(third.Text, "could not be read") {
				t.Errorf("a broken block is reported to the model: %+v", third)
			}
		})
	}
}

// approverFunc is an Approver from a function.
type approverFunc func(context.Context, Approval) (Answer, error)

func (f approverFunc) Approve(ctx context.Context, a Approval) (Answer, error) { return f(ctx, a) }

// Ctrl-C at an approval question cancels the turn, as it does while a
// tool runs: no further request, every call answered.
func TestInterruptedApprovalCancelsTheTurn(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			scriptCall("Write", `{"file_path": "a.txt", "content": "a"}`),
			scriptCall("Write", `{"file_path": "b.txt", "content": "b"}`),
		}},
		{Text: "never asked for"},
	}})
	h.cfg.Approver = approverFunc(func(context.Context, Approval) (Answer, error) { return Reject, context.Canceled })
	d := h.run(context.Background(), "write")
	if d.Reason != ReasonCancelled || len(h.srv.Requests()) != 1 {
		t.Fatalf("done %+v after %d requests", d, len(h.srv.Requests()))
	}
	for _, r := range h.results() {
		if r.Status != StatusCancelled {
			t.Errorf("result %+v, want cancelled", r)
		}
	}
	if n := h.countEvents(EventApproval); n != 1 {
		t.Errorf("%d approvals asked, want 1", n)
	}
	h.assertValid()
}

// A call to a tool that does not exist is told which tools there are, or
// the likely one, so the model can correct itself.
func TestUnknownToolIsToldTheTools(t *testing.T) {
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("FrobnicateFiles", `{}`), scriptCall("Reed", `{}`)}},
		{Text: "ok"},
	}})
	h.run(context.Background(), "go")
	res := resultsOf(h.lastRequest())
	if len(res) != 2 || !strings.Contains(res[0], "The tools you can call are: Bash, BashOutput, Edit,") ||
		!strings.Contains(res[1], "Did you mean Read?") {
		t.Errorf("results %q", res)
	}
}

// feedbackApprover refuses every call with words for the model.
type feedbackApprover string

func (f feedbackApprover) Approve(context.Context, Approval) (Answer, error) { return Reject, nil }
func (f feedbackApprover) ApproveWithFeedback(context.Context, Approval) (Answer, string, error) {
	return Reject, string(f), nil
}

// A refusal with the person's words tells the model those words, and the
// person sees them in the call's summary.
func TestRefusalWithFeedbackReachesTheModel(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "a.txt", "content": "a"}`)}},
		{Text: "ok"},
	}})
	h.cfg.Approver = feedbackApprover("  use b.txt instead ")
	h.run(context.Background(), "write")
	res := resultsOf(h.lastRequest())
	if len(res) != 1 || !strings.Contains(res[0], `the person refused this call and said: "use b.txt instead"`) {
		t.Errorf("results %q", res)
	}
	if r := h.results(); len(r) != 1 || r[0].Status != StatusDenied || r[0].Error != "denied by you: use b.txt instead" {
		t.Errorf("call results %+v", r)
	}
	h.assertValid()
}
