package agent

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/session"
)

// With an effort, Claude thinks before each of its tool rounds: the
// thinking streams as thinking events apart from the text, each round's
// signed blocks go back with its calls (the fake checks every signature
// and refuses a thinking turn that lost them), and the session log keeps
// them, so that a resumed conversation sends them back unchanged.
func TestThinkingAcrossRoundsAndResume(t *testing.T) {
	h := newHarness(t, llmtest.Anthropic, llmtest.Script{Turns: []llmtest.Turn{
		{Thinking: []string{"First the module file."}, ToolCalls: []llmtest.ToolCall{scriptCall("Read", `{"file_path": "go.mod"}`)}},
		{Thinking: []string{"Then the notes."}, RedactedThinking: []string{"b3BhcXVl"},
			ToolCalls: []llmtest.ToolCall{scriptCall("Read", `{"file_path": "notes.txt"}`)}},
		{Thinking: []string{"I have both."}, Text: "The module is m."},
		{Thinking: []string{"A follow-up."}, Text: "Still m."},
	}})
	h.file("go.mod", "module m\n")
	h.file("notes.txt", "notes\n")
	h.cfg.Effort = llm.EffortLow
	store := session.NewStore(filepath.Join(t.TempDir(), "sessions"), func() time.Time { return time.Unix(0, 0) })
	log, err := store.Create(session.Meta{ID: "sess_t", CWD: h.dir})
	if err != nil {
		t.Fatal(err)
	}
	h.conv.Log = log
	if d := h.run(context.Background(), "what module?"); d.Reason != ReasonStop || d.Text != "The module is m." {
		t.Fatalf("run: %+v", d)
	}
	var streamed strings.Builder
	var whole []string
	for _, e := range h.events {
		switch e.Type {
		case EventThoughtDelta:
			streamed.WriteString(e.Text)
		case EventThinking:
			whole = append(whole, e.Text)
		case EventTextDelta, EventText:
			if strings.Contains(e.Text, "module file") {
				t.Errorf("thinking in a text event: %q", e.Text)
			}
		}
	}
	if streamed.String() != "First the module file.Then the notes.I have both." ||
		strings.Join(whole, "|") != "First the module file.|Then the notes.|I have both." {
		t.Errorf("streamed %q, whole %q", streamed.String(), whole)
	}
	for _, r := range h.srv.Requests() {
		if r.Rejected != "" || r.Thinking == nil || r.Thinking.BudgetTokens != 2048 {
			t.Fatalf("request %d: rejected %q, thinking %+v", r.N, r.Rejected, r.Thinking)
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}

	log, st, err := store.Resume("sess_t")
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	h.conv = Conversation{Messages: st.Messages, Log: log}
	if d := h.run(context.Background(), "sure?"); d.Reason != ReasonStop {
		t.Fatalf("resumed run: %+v", d)
	}
	last := h.lastRequest()
	if last.Rejected != "" {
		t.Fatalf("after a resume: %s", last.Rejected)
	}
	var kept []string
	for _, m := range last.Messages {
		for _, r := range m.Reasoning {
			kept = append(kept, r.Text+r.Redacted)
			if r.Redacted == "" && r.Signature != llmtest.Signature(r.Text) {
				t.Errorf("signature of %q changed", r.Text)
			}
		}
	}
	if strings.Join(kept, "|") != "First the module file.|Then the notes.|b3BhcXVl|I have both." {
		t.Errorf("the resumed request carries thinking %q", kept)
	}
}
