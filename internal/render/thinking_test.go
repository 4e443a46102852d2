package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/agent"
)

// On a terminal the model's thinking streams under the spinner, its last
// lines wrapped to the width, and is folded to one line once the answer
// comes; the answer never holds it.
func TestRunViewThinking(t *testing.T) {
	l := newLiveRun(nil)
	l.send(agent.Event{Type: agent.EventRequest})
	l.send(agent.Event{Type: agent.EventThoughtDelta, Text: "Let me see."})
	if got := l.screen(); got != "⠋ Thinking… · 0s\n    Let me see." {
		t.Errorf("the first thought, under the spinner: %q", got)
	}
	l.send(agent.Event{Type: agent.EventThoughtDelta, Text: "The user wants the module name. "})
	l.clock.advance(3 * time.Second)
	l.send(agent.Event{Type: agent.EventThoughtDelta, Text: "I will read go.mod and then answer with the module path it declares."})
	l.v.live.onTick()
	got := l.screen()
	if !strings.HasPrefix(got, "⠙ Thinking… · 3s\n    Let me see.The user wants the module name. I will") ||
		!strings.HasSuffix(got, "declares.") || strings.Count(got, "\n") != 3 {
		t.Errorf("while thinking:\n%s", got)
	}
	l.send(agent.Event{Type: agent.EventTextDelta, Text: "It is m.\n"},
		agent.Event{Type: agent.EventThinking, Text: "The user wants..."},
		agent.Event{Type: agent.EventText, Text: "It is m."})
	got = l.screen()
	if !strings.HasPrefix(got, "✻ Thought for 3s · 3 lines (/thinking shows it)\nIt is m.") || strings.Contains(got, "go.mod") {
		t.Errorf("after thinking:\n%s", got)
	}
}

// forge ask on a terminal folds the thinking without pointing to
// /thinking, which only the shell has.
func TestRunViewThinkingOneShot(t *testing.T) {
	var out bytes.Buffer
	p := NewText(TextOptions{Out: &out, Err: &out, Terminal: true, Renderer: New(Options{Width: 60, CommandLine: true})})
	v := p.Run(RunInfo{}, RunOptions{ProgressToErr: true})
	for _, e := range []agent.Event{{Type: agent.EventRequest}, {Type: agent.EventThoughtDelta, Text: "Hmm."},
		{Type: agent.EventTextDelta, Text: "It is m.\n"}, {Type: agent.EventThinking, Text: "Hmm."}, {Type: agent.EventText, Text: "It is m."}} {
		v.Event(e)
	}
	v.Close()
	if got := screen(out.String()); !strings.Contains(got, "✻ Thought for 0s · 1 line\n") || strings.Contains(got, "thinking shows") {
		t.Errorf("forge ask showed:\n%s", got)
	}
}

// A pipe gets the answer alone; JSON gets a thinking event before the
// text event.
func TestThinkingElsewhere(t *testing.T) {
	events := []agent.Event{
		{Type: agent.EventRequest},
		{Type: agent.EventThoughtDelta, Text: "secret plan"},
		{Type: agent.EventThinking, Text: "secret plan"},
		{Type: agent.EventText, Text: "Answer."},
		{Type: agent.EventDone, Done: &agent.Done{Reason: agent.ReasonStop, Text: "Answer.", Turns: 1}},
	}
	out, errs := runText(false, events...)
	if out != "Answer.\n" || strings.Contains(errs, "secret") {
		t.Errorf("piped: %q, %q", out, errs)
	}
	var b bytes.Buffer
	v := NewJSON(&b).Run(RunInfo{}, RunOptions{})
	for _, e := range events {
		v.Event(e)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	var types []string
	for _, l := range lines {
		var e struct{ Type, Text string }
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatal(err)
		}
		types = append(types, e.Type+":"+e.Text)
	}
	if got := strings.Join(types, ","); got != "init:,thinking:secret plan,text:Answer.,done:Answer." {
		t.Errorf("JSON events %s", got)
	}
}
