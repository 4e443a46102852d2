package session

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

// A prompt is kept as the model got it and as the person typed it: the
// list names the session by what was typed, a load maps the one to the
// other, and a compaction keeps the typed form of the prompts it keeps,
// even one its summary opens, across a resume too. Outcomes of calls are
// kept by call id, for the calls the conversation still holds.
func TestTypedPromptsAndOutcomes(t *testing.T) {
	s, _ := newStore(t)
	l := create(t, s, "sess_000000000001", "/w")
	paste := strings.Repeat("0123456789", 10_000)
	must(t, l.PromptTyped("explain "+paste, "explain [pasted 1 line, 100 KB]"))
	must(t, l.Append(calls("c1")))
	must(t, l.Append(result("c1", "module x")))
	must(t, l.Outcome(Outcome{CallID: "c1", Status: "denied", Note: "denied by you"}))
	must(t, l.Append(say("It is a module.")))
	must(t, l.PromptTyped("and this?", "and this?")) // typed as it was sent: nothing more kept
	must(t, l.Append(say("Yes.")))
	must(t, l.Close())

	list, err := s.List()
	must(t, err)
	if len(list) != 1 || list[0].FirstPrompt != "explain [pasted 1 line, 100 KB]" {
		t.Fatalf("list: %+v", list)
	}
	st, err := s.Load("sess_000000000001")
	must(t, err)
	if st.Messages[0].Text != "explain "+paste {
		t.Errorf("the model's prompt is %d bytes", len(st.Messages[0].Text))
	}
	if len(st.Shown.Typed) != 1 || st.Shown.Typed["explain "+paste] != "explain [pasted 1 line, 100 KB]" {
		t.Errorf("typed: %d entries", len(st.Shown.Typed))
	}
	if o := st.Shown.Outcomes["c1"]; o.Status != "denied" || o.Note != "denied by you" {
		t.Errorf("outcomes: %+v", st.Shown.Outcomes)
	}

	// A compaction keeps the typed form of a kept prompt, and of one its
	// summary now opens; a resumed log goes on knowing them.
	l, st, err = s.Resume("sess_000000000001")
	must(t, err)
	if st.Shown.Typed["explain "+paste] == "" {
		t.Fatal("resume lost the typed prompt")
	}
	must(t, l.PromptTyped("look at @go.mod\n\n<attached-file path=\"go.mod\">module x</attached-file>", "look at @go.mod"))
	must(t, l.Append(say("Done.")))
	opened := "[The earlier part of this conversation was compacted into this summary.]\n\nSUMMARY\n\n---\n\nexplain " + paste
	must(t, l.Compaction([]llm.Message{user(opened), say("It is a module."),
		user("look at @go.mod\n\n<attached-file path=\"go.mod\">module x</attached-file>"), say("Done.")}, "compacted"))
	must(t, l.Close())
	st, err = s.Load("sess_000000000001")
	must(t, err)
	if st.Shown.Typed[opened] != "explain [pasted 1 line, 100 KB]" || st.Shown.Typed[st.Messages[2].Text] != "look at @go.mod" || len(st.Shown.Typed) != 2 {
		t.Errorf("after a compaction, typed: %q", values(st.Shown.Typed))
	}
	if len(st.Shown.Outcomes) != 0 {
		t.Errorf("outcomes of calls the conversation no longer holds: %+v", st.Shown.Outcomes)
	}
	list, err = s.List()
	must(t, err)
	if list[0].FirstPrompt != "explain [pasted 1 line, 100 KB]" || list[0].Turns != 3 {
		t.Errorf("list after the resume: %+v", list[0])
	}
}

// A damaged outcome or typed prompt is skipped like any damaged record.
func TestTypedAndOutcomeRecordsChecked(t *testing.T) {
	for _, line := range []string{
		`{"type":"outcome","outcome":{"status":"denied"}}`,
		`{"type":"outcome"}`,
		`{"type":"message","message":{"role":"assistant","text":"x","typed":"y"}}`,
	} {
		if _, err := decodeRecord([]byte(line)); err == nil {
			t.Errorf("%s: accepted", line)
		}
	}
}

func values(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
