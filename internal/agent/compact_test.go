package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

// bigFile is about 6,000 tokens of text, one numbered line at a time.
func bigFile(tag string) string {
	var b strings.Builder
	for i := 0; b.Len() < 24_000; i++ {
		b.WriteString(tag + " line " + strings.Repeat("x", 40) + "\n")
	}
	return b.String()
}

// compactionScript reads two big files, the second answer reporting a
// nearly full window; the request after it is the summary's.
func compactionScript(summaryTurn llmtest.Turn) llmtest.Script {
	return llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Read", `{"file_path": "one.txt"}`)}, Usage: &llmtest.Usage{Input: 4_000, Output: 50}},
		{ToolCalls: []llmtest.ToolCall{scriptCall("Read", `{"file_path": "two.txt"}`)}, Usage: &llmtest.Usage{Input: 11_000, Output: 50}},
		summaryTurn,
		{Text: "All read."},
	}}
}

// Reported usage past 80% of the window compacts between tool rounds: the
// summary request offers no tools, and the next request holds the summary
// and the recent turns, valid for the provider.
func TestCompactionByReportedUsage(t *testing.T) {
	for _, wire := range wires {
		h := newHarness(t, wire, compactionScript(llmtest.Turn{Text: "SUMMARY: read one.txt, its lines are numbered."}))
		h.file("one.txt", bigFile("one"))
		h.file("two.txt", bigFile("two"))
		h.cfg.ContextWindow = 16_000
		d := h.run(context.Background(), "read both files")
		if d.Reason != ReasonStop || d.Text != "All read." {
			t.Fatalf("%s: done %+v", wire, d)
		}
		reqs := h.srv.Requests()
		if len(reqs) != 4 {
			t.Fatalf("%s: %d requests", wire, len(reqs))
		}
		if sum := reqs[2]; sum.ToolsField || !strings.Contains(sum.Messages[0].Text, "one line") && !strings.Contains(sum.Messages[0].Text, "one.txt") {
			t.Errorf("%s: the summary request offers tools or lacks the conversation: %+v", wire, sum.Messages)
		}
		last := reqs[3]
		if !strings.HasPrefix(last.Messages[0].Text, summaryHeader+"SUMMARY: read one.txt") {
			t.Errorf("%s: first message %q", wire, last.Messages[0].Text)
		}
		if strings.Contains(string(last.Body), "one line xxxx") || !strings.Contains(string(last.Body), "two line xxxx") {
			t.Errorf("%s: the compacted part was sent, or the recent turn was not", wire)
		}
		if h.countEvents(EventCompaction) != 1 {
			t.Errorf("%s: %d compaction events", wire, h.countEvents(EventCompaction))
		}
		if d.Turns != 3 || d.Requests != 4 || d.Usage.InputTokens < 15_000 {
			t.Errorf("%s: turns %d (the summary is not a turn), %d requests (it is one), usage %+v (it is counted)",
				wire, d.Turns, d.Requests, d.Usage)
		}
		h.assertValid()
	}
}

// A conversation that does not fit even compacted stops with reason
// context, and says what to do; compaction is not tried again and again.
func TestCompactionThatCannotFitStops(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Read", `{"file_path": "one.txt"}`)}, Usage: &llmtest.Usage{Input: 4_000, Output: 50}},
		{Text: "SUMMARY"},
	}})
	h.file("one.txt", bigFile("one"))
	h.cfg.ContextWindow = 9_000 // the last round alone (6,000 tokens and the specs) is past 80%
	d := h.run(context.Background(), "read the file")
	var ce *ContextError
	if d.Reason != ReasonContext || !errors.As(d.Err, &ce) || ce.Window != 9_000 || ce.Server != 0 || ce.Need < 6_000 {
		t.Fatalf("done %+v", d)
	}
	if got := d.Err.Error(); !strings.HasPrefix(got, "the conversation needs about ") || !strings.HasSuffix(got, "does not fit the model's window of about 9000 tokens, even compacted") {
		t.Errorf("message %q", got)
	}
	if n := len(h.srv.Requests()); n != 2 {
		t.Errorf("%d requests, want the first and one summary", n)
	}
	h.assertValid()
}

// A provider that refuses a request as too long (the window unknown, or
// smaller than forge thought) gets a compacted conversation, once.
func TestCompactionOnOverflowError(t *testing.T) {
	script := compactionScript(llmtest.Turn{Text: "SUMMARY: two files."})
	overflow := llmtest.Turn{Error: &llmtest.ErrorReply{Status: 400,
		Message: "This model's maximum context length is 16000 tokens. However, your messages resulted in 17023 tokens."}}
	script.Turns = append(script.Turns[:2], append([]llmtest.Turn{overflow}, script.Turns[2:]...)...)
	script.Turns[1].Usage = &llmtest.Usage{Input: 6_000, Output: 50}
	h := newHarness(t, llmtest.OpenAI, script)
	h.file("one.txt", bigFile("one"))
	h.file("two.txt", bigFile("two"))
	d := h.run(context.Background(), "read both files")
	if d.Reason != ReasonStop || d.Text != "All read." || len(h.srv.Requests()) != 5 {
		t.Fatalf("done %+v after %d requests", d, len(h.srv.Requests()))
	}
	if !strings.HasPrefix(h.lastRequest().Messages[0].Text, summaryHeader+"SUMMARY: two files.") {
		t.Errorf("first message %q", h.lastRequest().Messages[0].Text)
	}
	h.assertValid()
}

// /compact on a window already full summarises in pieces, each with the
// summary of those before it.
func TestCompactInPieces(t *testing.T) {
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{{Text: "SUMMARY so far"}}})
	for i := range 6 {
		h.conv.Messages = append(h.conv.Messages,
			llm.Message{Role: llm.RoleUser, Text: bigFile(string(rune('a' + i)))},
			llm.Message{Role: llm.RoleAssistant, Text: "noted"})
	}
	h.conv.Messages = append(h.conv.Messages, llm.Message{Role: llm.RoleUser, Text: "and now?"})
	h.cfg.ContextWindow = 20_000 // pieces of 10,000 tokens; the conversation holds 36,000
	note, err := New(h.cfg).Compact(context.Background(), &h.conv, func(Event) {})
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	if len(reqs) < 3 {
		t.Fatalf("%d summary requests for a conversation twice the window", len(reqs))
	}
	if !strings.Contains(reqs[1].Messages[0].Text, "Summary of the conversation before this part:\nSUMMARY so far") {
		t.Errorf("the second piece does not carry the first's summary")
	}
	got := h.conv.Messages
	if len(got) != 1 || !strings.HasPrefix(got[0].Text, summaryHeader+"SUMMARY so far") || !strings.HasSuffix(got[0].Text, "\n\n---\n\nand now?") {
		t.Errorf("conversation after: %d messages, first %.60q", len(got), got[0].Text)
	}
	if !strings.Contains(note, "compacted 12 earlier messages") {
		t.Errorf("note %q", note)
	}
}

// /compact on a conversation far smaller than the window (ten prompts,
// with tool calls) summarises everything before the last exchange and
// keeps that exchange as it was; the log records the compaction, so a
// resume goes on from the summary.
func TestCompactOnDemandKeepsTheLastExchange(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{{Text: "SUMMARY of nine prompts"}}})
	for i := range 9 {
		call := llm.ToolCall{ID: fmt.Sprintf("call_%d", i), Name: "Read", Arguments: json.RawMessage(`{"file_path": "a.go"}`)}
		h.conv.Messages = append(h.conv.Messages,
			llm.Message{Role: llm.RoleUser, Text: fmt.Sprintf("prompt %d", i)},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}},
			llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: call.ID, Name: "Read", Content: "package a"}},
			llm.Message{Role: llm.RoleAssistant, Text: fmt.Sprintf("answer %d", i)})
	}
	last := []llm.Message{{Role: llm.RoleUser, Text: "prompt 9"}, {Role: llm.RoleAssistant, Text: "answer 9"}}
	h.conv.Messages = append(h.conv.Messages, last...)
	h.cfg.ContextWindow = 400_000 // the conversation is far below any share of it
	rec := &recorder{}
	h.conv.Log = rec
	var events []Event
	note, err := New(h.cfg).Compact(context.Background(), &h.conv, func(e Event) { events = append(events, e) })
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "compacted 36 earlier messages into a summary; kept the last 2") {
		t.Errorf("note %q", note)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 1 || reqs[0].ToolsField || !strings.Contains(reqs[0].Messages[0].Text, "prompt 8") ||
		strings.Contains(reqs[0].Messages[0].Text, "prompt 9") {
		t.Fatalf("summary requests: %+v", reqs)
	}
	got := h.conv.Messages
	if len(got) != 2 || got[0].Text != summaryHeader+"SUMMARY of nine prompts\n\n---\n\nprompt 9" || got[1].Text != "answer 9" {
		t.Errorf("conversation after: %+v", got)
	}
	if len(rec.compactions) != 1 || len(rec.compactions[0]) != 2 {
		t.Errorf("compactions recorded: %+v", rec.compactions)
	}
	if n := len(events); n == 0 || events[n-1].Type != EventCompaction {
		t.Errorf("events: %+v", events)
	}
}

// /compact says why when there is nothing to summarise, and asks nothing
// of the model.
func TestCompactOnDemandNothingToDo(t *testing.T) {
	summary := llm.Message{Role: llm.RoleUser, Text: summaryHeader + "SUMMARY"}
	for _, tc := range []struct {
		name string
		msgs []llm.Message
		want string
	}{
		{"empty", nil, "the conversation is empty"},
		{"one exchange", []llm.Message{{Role: llm.RoleUser, Text: "hi"}, {Role: llm.RoleAssistant, Text: "hello"}},
			"only one exchange"},
		{"compacted already", []llm.Message{{Role: llm.RoleUser, Text: summaryHeader + "S\n\n---\n\nhi"}, {Role: llm.RoleAssistant, Text: "hello"}},
			"already a summary and its last exchange"},
		{"summary then the last exchange", []llm.Message{summary, {Role: llm.RoleUser, Text: "hi"},
			{Role: llm.RoleAssistant, Text: "hello"}}, "before the last exchange is already a summary"},
		{"no prompt", []llm.Message{{Role: llm.RoleAssistant, Text: "hello"}}, "no prompt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, llmtest.OpenAI, llmtest.Script{})
			h.conv.Messages = tc.msgs
			_, err := New(h.cfg).Compact(context.Background(), &h.conv, func(Event) {})
			var nothing *NothingToCompactError
			if !errors.As(err, &nothing) || !errors.Is(err, ErrNothingToCompact) || !strings.Contains(nothing.Reason, tc.want) {
				t.Errorf("err %v, want one that says %q", err, tc.want)
			}
			if n := len(h.srv.Requests()); n != 0 {
				t.Errorf("%d requests", n)
			}
		})
	}
}

func TestForModel(t *testing.T) {
	if got := forModel("short"); got != "short" {
		t.Errorf("short output changed: %q", got)
	}
	long := bigFile("z") + bigFile("y") // 48 KB
	got := forModel(long)
	if len(got) > maxResultBytes+300 || !strings.HasPrefix(got, "z line") || !strings.HasSuffix(got, "y line "+strings.Repeat("x", 40)+"\n") {
		t.Errorf("cut output: %d bytes", len(got))
	}
	if !strings.Contains(got, "bytes cut from the middle of this output, which had 48") {
		t.Errorf("no note of the cut")
	}
}

func TestKeepFrom(t *testing.T) {
	u := func(n int) llm.Message { return llm.Message{Role: llm.RoleUser, Text: strings.Repeat("u", n)} }
	a := llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "1", Name: "Read", Arguments: []byte(`{}`)}}}
	res := func(n int) llm.Message {
		return llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "1", Content: strings.Repeat("r", n)}}
	}
	for _, tc := range []struct {
		name string
		msgs []llm.Message
		keep int64
		want int
	}{
		{"all fits: nothing to summarise", []llm.Message{u(10), a, res(10)}, 1000, 0},
		{"never begins with a result", []llm.Message{u(4000), a, res(400)}, 150, 1},
		{"the last turn at least", []llm.Message{u(400), u(4000)}, 10, 1},
		{"as much as fits", []llm.Message{u(4000), u(40), u(40), u(40)}, 100, 1},
	} {
		if got := keepFrom(tc.msgs, tc.keep); got != tc.want {
			t.Errorf("%s: keepFrom = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// recorder is a Recorder that keeps the compactions it is given.
type recorder struct {
	compactions [][]llm.Message
}

func (r *recorder) Prompt(string) error              { return nil }
func (r *recorder) Append(llm.Message) error         { return nil }
func (r *recorder) Result(llm.Message, string) error { return nil }
func (r *recorder) Usage(llm.Usage, float64) error   { return nil }
func (r *recorder) Record(string, any) error         { return nil }
func (r *recorder) Compaction(ms []llm.Message, _ string) error {
	r.compactions = append(r.compactions, ms)
	return nil
}

// A provider that refuses even the compacted conversation stops the run;
// the window the server named, and what it counted the request to need
// (more than forge's estimate), are kept for the message.
func TestOverflowThatCannotFitNamesTheServersWindow(t *testing.T) {
	refuse := llmtest.Turn{Error: &llmtest.ErrorReply{Status: 400,
		Message: "This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens."}}
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{refuse}})
	d := h.run(context.Background(), "hi")
	var ce *ContextError
	if d.Reason != ReasonContext || !errors.As(d.Err, &ce) || ce.Server != 4096 || ce.Window != 0 || ce.Need != 5000 {
		t.Fatalf("done %+v", d)
	}
	ce.Advice = "do this"
	if got := d.Err.Error(); !strings.Contains(got, "does not fit the model's window of 4096 tokens (as the server says), even compacted "+
		"(forge's system prompt and tool specs take about ") || !strings.HasSuffix(got, " of them): do this") || ce.Fixed < 1000 {
		t.Errorf("message %q", got)
	}
}
