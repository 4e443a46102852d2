package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// A command's output reaches the person as it comes: tool_start, then
// tool_output pieces that add up to what it printed, then its result.
func TestLiveOutputEvents(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Bash", `{"command": "echo one; sleep 0.1; echo two"}`)}},
		{Text: "done"},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	if d := h.run(context.Background(), "go"); d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	var order []EventType
	var printed strings.Builder
	for _, e := range h.events {
		switch e.Type {
		case EventToolCall, EventToolStart, EventToolResult:
			order = append(order, e.Type)
		case EventToolOutput:
			if len(order) == 0 || order[len(order)-1] != EventToolOutput {
				order = append(order, e.Type)
			}
			printed.WriteString(e.Text)
			if e.Call == nil || e.Call.Name != "Bash" {
				t.Errorf("output event without its call: %+v", e)
			}
		}
	}
	want := []EventType{EventToolCall, EventToolStart, EventToolOutput, EventToolResult}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", order, want)
	}
	if printed.String() != "one\ntwo\n" {
		t.Errorf("output events %q", printed.String())
	}
}

// Ctrl-C while a command runs: its result tells the model it was
// cancelled, and what it printed until then.
func TestCancelledCallKeepsWhatItPrinted(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Bash", `{"command": "echo compiled 3 of 9; sleep 30"}`)}},
		{Text: "It was stopped after 3 of 9."},
	}})
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d := New(h.cfg).Run(ctx, &h.conv, "build", func(e Event) {
		if e.Type == EventToolOutput && strings.Contains(e.Text, "compiled") {
			cancel()
		}
	})
	if d.Reason != ReasonCancelled {
		t.Fatalf("done %+v", d)
	}
	last := h.conv.Messages[len(h.conv.Messages)-1]
	if last.Result == nil || !strings.Contains(last.Result.Content, "cancelled") ||
		!strings.Contains(last.Result.Content, "What it printed before it was cancelled:\ncompiled 3 of 9") {
		t.Fatalf("the model's result: %+v", last.Result)
	}
	// The next prompt sends it.
	if d := h.run(context.Background(), "how far did it get?"); d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	if !contains(resultsOf(h.lastRequest()), "compiled 3 of 9") {
		t.Errorf("the next request lacks the output: %q", resultsOf(h.lastRequest()))
	}
	h.assertValid()
}

// A running call's question to the person is announced before it is put.
func TestToolQuestionAnnounced(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("ask_question", `{"question": "Which?"}`)}},
		{Text: "ok"},
	}})
	announced := false
	h.cfg.Exec.Asker = askerFunc(func(context.Context, string) (string, error) {
		announced = h.countEvents(EventToolQuestion) == 1
		return "this one", nil
	})
	if d := h.run(context.Background(), "go"); d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	if !announced {
		t.Error("the question was asked before a tool_question event")
	}
}

// An edit carries the change it made, for the person to see, marked seen
// when the question showed it first; one that failed, or one in a run
// that shows no changes, does not.
func TestShowChanges(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mode    permission.Mode
		answers []Answer
		show    bool
		oldStr  string
		want    bool
		seen    bool
	}{
		{name: "auto-edit, no question", mode: permission.ModeAutoEdit, show: true, oldStr: "World", want: true},
		{name: "approved after its diff was shown", mode: permission.ModeAsk, answers: []Answer{AllowOnce}, show: true, oldStr: "World", want: true, seen: true},
		{name: "allowed always, the first time asked", mode: permission.ModeAsk, answers: []Answer{AllowAlways}, show: true, oldStr: "World", want: true, seen: true},
		{name: "a view that shows no changes", mode: permission.ModeAutoEdit, oldStr: "World"},
		{name: "an edit that fails", mode: permission.ModeAutoEdit, show: true, oldStr: "Mars"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{scriptCall("Edit", `{"file_path": "hello.txt", "old_string": "`+tc.oldStr+`", "new_string": "forge"}`)}},
				{Text: "done"},
			}})
			h.file("hello.txt", "Hello, World!\n")
			h.cfg.Policy = h.policy(permission.Config{Mode: tc.mode})
			h.cfg.Approver = &fakeApprover{answers: tc.answers}
			h.cfg.ShowChanges = tc.show
			h.run(context.Background(), "edit")
			rs := h.results()
			if len(rs) != 1 {
				t.Fatalf("results %+v", rs)
			}
			c := rs[0].Change
			if (c != nil) != tc.want || rs[0].ChangeSeen != tc.seen {
				t.Fatalf("change %+v (seen %v), want one: %v (seen %v)", c, rs[0].ChangeSeen, tc.want, tc.seen)
			}
			if c != nil && (string(c.Old) != "Hello, World!\n" || string(c.New) != "Hello, forge!\n") {
				t.Errorf("change %q -> %q", c.Old, c.New)
			}
		})
	}
}

// After "always", the next edit runs without a question, and shows its
// change as unseen.
func TestShowChangesAfterAlways(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Edit", `{"file_path": "hello.txt", "old_string": "Hello", "new_string": "Hi"}`)}},
		{ToolCalls: []llmtest.ToolCall{scriptCall("Edit", `{"file_path": "hello.txt", "old_string": "World", "new_string": "forge"}`)}},
		{Text: "done"},
	}})
	h.file("hello.txt", "Hello, World!\n")
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeAsk})
	h.cfg.Approver = &fakeApprover{answers: []Answer{AllowAlways}}
	h.cfg.ShowChanges = true
	h.run(context.Background(), "edit twice")
	rs := h.results()
	if len(rs) != 2 || rs[0].Change == nil || !rs[0].ChangeSeen || rs[1].Change == nil || rs[1].ChangeSeen ||
		string(rs[1].Change.New) != "Hi, forge!\n" {
		t.Fatalf("results %+v", rs)
	}
}

func TestHeadTail(t *testing.T) {
	for _, tc := range []struct {
		name   string
		pieces []int // sizes
	}{
		{"nothing", nil},
		{"a little", []int{10, 20}},
		{"the head exactly", []int{keptHalf}},
		{"head and tail exactly", []int{keptHalf, keptHalf}},
		{"one byte too many", []int{keptHalf, keptHalf, 1}},
		{"a piece as large as the tail", []int{keptHalf * 3}},
		{"small pieces round the ring", []int{keptHalf, 1000, 7000, keptHalf - 3, 5, 9000, 12345, 1}},
		{"a huge piece after a partial tail", []int{keptHalf + 100, keptHalf * 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var h headTail
			var all []byte
			n := 0
			for _, size := range tc.pieces {
				p := make([]byte, size)
				for i := range p {
					p[i] = byte('a' + (n+i)%26)
				}
				n += size
				all = append(all, p...)
				h.write(p)
			}
			want := string(all)
			if len(all) > 2*keptHalf {
				want = string(all[:keptHalf]) + fmt.Sprintf("\n[... %d bytes not kept ...]\n", len(all)-2*keptHalf) + string(all[len(all)-keptHalf:])
			}
			if got := h.String(); got != want {
				t.Errorf("kept %d bytes, want %d (equal: %v)", len(got), len(want), got == want)
			}
		})
	}
}

// The conversation's tokens: the provider's count of the last request and
// its answer, then an estimate of what was added since.
func TestConversationTokens(t *testing.T) {
	var c Conversation
	if n := c.Tokens(); n != 0 {
		t.Errorf("empty: %d", n)
	}
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "hi", Usage: &llmtest.Usage{Input: 30_000, Output: 500}},
	}})
	h.run(context.Background(), "hello")
	if n := h.conv.Tokens(); n != 30_500 {
		t.Errorf("after a request: %d, want 30500", n)
	}
	h.conv.appendPrompt(strings.Repeat("x", 4000))
	if n := h.conv.Tokens(); n != 30_500+4+1000 {
		t.Errorf("after a prompt of 4000 bytes: %d", n)
	}
}

// progressTool reports its progress twice.
type progressTool struct{ testTool }

func (progressTool) Execute(_ context.Context, ec tools.ExecutionContext, _ tools.Args) tools.Result {
	ec.Progress(tools.Progress{Progress: 1, Total: 2, Message: "half"})
	ec.Progress(tools.Progress{Progress: 2, Total: 2})
	return tools.OK("done")
}

// A call's progress reaches the person as progress events of that call,
// between its start and its result.
func TestProgressEvents(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("index", `{}`)}},
		{Text: "done"},
	}})
	if err := h.reg.Register(progressTool{testTool{name: "index", readOnly: true}}); err != nil {
		t.Fatal(err)
	}
	if d := h.run(context.Background(), "go"); d.Reason != ReasonStop {
		t.Fatalf("done %+v", d)
	}
	var got []string
	for _, e := range h.events {
		switch e.Type {
		case EventToolStart, EventToolResult:
			got = append(got, string(e.Type))
		case EventToolProgress:
			if e.Call == nil || e.Call.Name != "index" || e.Progress == nil {
				t.Fatalf("progress event %+v", e)
			}
			got = append(got, fmt.Sprintf("%g/%g %s", e.Progress.Progress, e.Progress.Total, e.Progress.Message))
		}
	}
	if want := "[tool_start 1/2 half 2/2  tool_result]"; fmt.Sprint(got) != want {
		t.Errorf("events %v, want %s", got, want)
	}
}
