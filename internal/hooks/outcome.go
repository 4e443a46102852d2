package hooks

import (
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// NoteKind says what a Note reports.
type NoteKind string

// The kinds of notes.
const (
	// NoteBlocked: a hook refused a call, blocked a prompt, or kept the
	// agent going (Stop).
	NoteBlocked NoteKind = "blocked"
	// NoteError: a hook failed (exit status, timeout, bad answer); things
	// went on as if it had said nothing.
	NoteError NoteKind = "error"
	// NoteRewrote: a hook replaced a call's arguments.
	NoteRewrote NoteKind = "rewrote"
	// NoteFeedback: a PostToolUse hook told the model something with the
	// call's result.
	NoteFeedback NoteKind = "feedback"
	// NoteMessage: a hook's systemMessage, for the person.
	NoteMessage NoteKind = "message"
)

// Note is something a hook did that the person should see: one line.
type Note struct {
	Event   Event
	Command string
	// Tool is the call's tool, for the tool events.
	Tool string
	Kind NoteKind
	Text string
}

// Outcome is the combined answer of the hooks of one event.
type Outcome struct {
	// Ran says at least one hook ran.
	Ran bool
	// Decision is the strongest of the answers: deny over ask over allow.
	Decision Decision
	// Reason is the reasons of the answers that made Decision, one a line.
	Reason string
	// Decider is the command of the first hook that made Decision;
	// DeciderProject says that hook is the project's.
	Decider        string
	DeciderProject bool
	// UpdatedInput is the last rewrite, in configured order; Rewriter is
	// the command that made it. RewriteErr is set when a rewrite was not
	// a JSON object (PreToolUse then refuses the call).
	UpdatedInput tools.Args
	Rewriter     string
	RewriteErr   error
	// Context is the text for the model, the answers' joined.
	Context string
	// Notes are for the person, in configured order.
	Notes []Note
}

// combine joins the answers of hs, given in the same order.
func combine(in Input, hs []compiled, answers []Answer) Outcome {
	o := Outcome{Ran: true}
	var reasons, contexts []string
	for i, a := range answers {
		h := hs[i]
		note := func(k NoteKind, text string) {
			o.Notes = append(o.Notes, Note{Event: in.Event, Command: h.Command, Tool: in.ToolName, Kind: k, Text: text})
		}
		if a.Err != nil {
			note(NoteError, a.Err.Error())
			continue
		}
		if a.Message != "" {
			note(NoteMessage, a.Message)
		}
		switch {
		case a.Decision > o.Decision:
			o.Decision, o.Decider, o.DeciderProject, reasons = a.Decision, h.Command, h.Project, nil
			fallthrough
		case a.Decision == o.Decision && a.Decision != None:
			if a.Reason != "" {
				reasons = append(reasons, a.Reason)
			}
		}
		if a.Context != "" {
			contexts = append(contexts, a.Context)
		}
		if in.Event != PreToolUse {
			continue
		}
		switch {
		case a.RewriteErr != nil:
			o.RewriteErr, o.Rewriter = a.RewriteErr, h.Command
		case a.UpdatedInput != nil:
			o.UpdatedInput, o.Rewriter, o.RewriteErr = a.UpdatedInput, h.Command, nil
		}
	}
	o.Reason = strings.Join(reasons, "\n")
	o.Context = strings.Join(contexts, "\n\n")
	return o
}
