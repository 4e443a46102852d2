package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/session"
)

// A Read of a large file: the person is shown the whole output, the model
// a cut of it. The session keeps both as they were: the whole output
// stored beside the log, and the cut, which a resume gives the model
// again, byte for byte.
func TestSessionKeepsWhatWasShown(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{scriptCall("Read", `{"file_path": "big.txt"}`)}},
				{Text: "read it"},
				{Text: "still here"},
			}})
			var b strings.Builder
			for i := range 5000 {
				fmt.Fprintf(&b, "line %05d %s\n", i, strings.Repeat("x", 40))
			}
			h.file("big.txt", b.String())
			dir := filepath.Join(t.TempDir(), "sessions")
			store := session.NewStore(dir, func() time.Time { return time.Unix(0, 0) })
			log, err := store.Create(session.Meta{ID: "sess_1", CWD: h.dir})
			if err != nil {
				t.Fatal(err)
			}
			h.conv.Log = log
			if d := h.run(context.Background(), "read big.txt"); d.Reason != ReasonStop {
				t.Fatalf("run: %+v", d)
			}
			if err := log.Close(); err != nil {
				t.Fatal(err)
			}
			shown := h.results()[0].Output
			read := resultsOf(h.srv.Requests()[1])
			if len(shown) <= 64<<10 || len(read) != 1 || len(read[0]) >= len(shown) {
				t.Fatalf("the person was shown %d bytes and the model read %d: not the case under test", len(shown), len(read[0]))
			}

			outs, _ := filepath.Glob(filepath.Join(dir, "sess_1.d", "*.out"))
			if len(outs) != 1 {
				t.Fatalf("side files %v, want the one whole output", outs)
			}
			kept, err := os.ReadFile(outs[0])
			if err != nil {
				t.Fatal(err)
			}
			if string(kept) != shown {
				t.Errorf("the session keeps %d bytes beside the log, the person was shown %d", len(kept), len(shown))
			}

			log, st, err := store.Resume("sess_1")
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			h.conv = Conversation{Messages: st.Messages, Log: log}
			if d := h.run(context.Background(), "and now?"); d.Reason != ReasonStop {
				t.Fatalf("resumed run: %+v", d)
			}
			again := resultsOf(h.lastRequest())
			if len(again) != 1 || again[0] != read[0] {
				t.Errorf("after a resume the model reads %d bytes, before it read %d", len(again[0]), len(read[0]))
			}
		})
	}
}

// A model that sends tool-call arguments that are not JSON: the call is
// answered with an error and the model goes on. The log keeps the
// model's message with the arguments exactly as they came, nothing is
// lost or repaired, and a resume sends the provider a conversation the
// real API accepts (the fake server rejects what it would not).
func TestSessionKeepsBrokenArguments(t *testing.T) {
	const broken = `{"file_path": "hello.txt", "limit": `
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{Text: "Reading.", ToolCalls: []llmtest.ToolCall{{ID: "call_bad", Name: "Read", RawArguments: broken}}},
				{Text: "My arguments were cut off; never mind."},
				{Text: "Still here."},
			}})
			h.file("hello.txt", "hello\n")
			store := session.NewStore(filepath.Join(t.TempDir(), "sessions"), func() time.Time { return time.Unix(0, 0) })
			log, err := store.Create(session.Meta{ID: "sess_1", CWD: h.dir})
			if err != nil {
				t.Fatal(err)
			}
			h.conv.Log = log
			d := h.run(context.Background(), "read hello.txt")
			if d.Reason != ReasonStop {
				t.Fatalf("run: %+v", d)
			}
			for _, e := range h.events {
				if e.Type == EventNotice {
					t.Errorf("notice: %s", e.Text)
				}
			}
			if err := log.Close(); err != nil {
				t.Fatal(err)
			}

			log, st, err := store.Resume("sess_1")
			if err != nil {
				t.Fatal(err)
			}
			defer log.Close()
			if len(st.Warnings) != 0 {
				t.Errorf("loading warned: %q", st.Warnings)
			}
			if len(st.Messages) != 4 || len(st.Messages[1].ToolCalls) != 1 || st.Messages[2].Result == nil {
				t.Fatalf("kept conversation: %+v", st.Messages)
			}
			if got := string(st.Messages[1].ToolCalls[0].Arguments); got != broken {
				t.Errorf("kept arguments %q, the model sent %q", got, broken)
			}
			if st.Messages[2].Result.CallID != st.Messages[1].ToolCalls[0].ID || !st.Messages[2].Result.IsError {
				t.Errorf("the call's result was not kept with it: %+v", st.Messages[2].Result)
			}

			h.conv = Conversation{Messages: st.Messages, Log: log}
			if d := h.run(context.Background(), "are you there?"); d.Reason != ReasonStop || d.Text != "Still here." {
				t.Fatalf("resumed run: %+v", d)
			}
			last := h.lastRequest()
			if last.Rejected != "" {
				t.Fatalf("the provider would refuse the resumed conversation: %s", last.Rejected)
			}
			if len(last.Messages) != 5 || len(last.Messages[1].ToolCalls) != 1 || len(resultsOf(last)) != 1 {
				t.Errorf("resumed request: %+v", last.Messages)
			}
		})
	}
}
