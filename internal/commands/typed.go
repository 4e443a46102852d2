package commands

import (
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/session"
	"github.com/forgehq/forge/internal/tools"
)

// typedRecorder is the session log, recording the prompt of one run as
// the person typed it beside what the model gets.
type typedRecorder struct {
	*session.Log
	typed string
}

func (r typedRecorder) Prompt(text string) error { return r.PromptTyped(text, r.typed) }

func (r typedRecorder) PromptImages(text string, images []llm.Image) error {
	return r.PromptWith(text, r.typed, images)
}

// recordTyped has the session log keep the next prompt as typed, and
// returns what puts the log back once the run is over.
func (e *Env) recordTyped(typed string) (restore func()) {
	s := e.Sessions
	if typed == "" || s == nil || s.log == nil || e.Conversation.Log != agent.Recorder(s.log) {
		return func() {}
	}
	rec := typedRecorder{Log: s.log, typed: typed}
	e.Conversation.Log = rec
	return func() {
		if e.Conversation.Log == agent.Recorder(rec) {
			e.Conversation.Log = s.log
		}
	}
}

// maxOutcomeNote bounds the words an outcome keeps of a failure.
const maxOutcomeNote = 120

// recordOutcome keeps in the session log how a call of the conversation
// ended when it did not succeed, as the person was shown it ("denied by
// you", "exit 1"), for a resumed conversation to show it so. The log's
// own failures are the agent's to report, on the records it writes.
func (e *Env) recordOutcome(ev agent.Event) {
	if ev.Type != agent.EventToolResult || ev.ParentID != "" || ev.Call == nil || ev.Result == nil ||
		ev.Result.Status == agent.StatusSuccess || e.Sessions == nil || e.Sessions.log == nil {
		return
	}
	r := ev.Result
	note, _, _ := strings.Cut(strings.TrimSpace(r.Error), "\n")
	o := session.Outcome{CallID: ev.Call.ID, Status: string(r.Status), Note: clipRunes(note, maxOutcomeNote)}
	if r.Status == agent.StatusFailed && e.Registry != nil {
		if t, ok := e.Registry.Get(ev.Call.Name); ok {
			if f := tools.Present(t, ev.Call.Args, r.Result).Failure; f != nil && f.Exit != "" {
				o.Note, o.Exit = "", f.Exit
			}
		}
	}
	_ = e.Sessions.log.Outcome(o)
}

// orText is typed, or text when nothing else was typed.
func orText(typed, text string) string {
	if typed != "" {
		return typed
	}
	return text
}
