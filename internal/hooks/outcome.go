package hooks

import (
	"fmt"
	"strings"
	"unicode/utf8"

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
	// NoteCut: a hook's context for the model was longer than
	// MaxContext and only its start was kept.
	NoteCut NoteKind = "cut"
)

// MaxContext bounds the text one hook's answer adds for the model: it
// stays in the conversation and goes with every later request.
const MaxContext = 16 << 10

// cutMarker ends a context that was cut, for the model.
const cutMarker = "\n[... cut: forge keeps the first 16 KB of a hook's context]"

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
	// Context is the text for the model, the answers' joined: those of
	// the person's hooks; ProjectContext those of the project's.
	Context        string
	ProjectContext string
	// Notes are for the person, in configured order.
	Notes []Note
}

// combine joins the answers of hs, given in the same order.
func combine(in Input, hs []compiled, answers []Answer) Outcome {
	o := Outcome{Ran: true}
	var reasons, contexts, projectContexts []string
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
			text, cut := capContext(a.Context)
			if cut {
				size := fmt.Sprintf("%d bytes", len(a.Context))
				if a.stdoutCut {
					size = "more than 1 MiB"
				}
				note(NoteCut, "its context for the model was "+size+"; the model gets the first 16 KB")
			}
			if h.Project {
				projectContexts = append(projectContexts, text)
			} else {
				contexts = append(contexts, text)
			}
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
	o.ProjectContext = strings.Join(projectContexts, "\n\n")
	return o
}

// capContext cuts s to MaxContext bytes, on a character's boundary, and
// marks the cut; it says whether it cut.
func capContext(s string) (string, bool) {
	if len(s) <= MaxContext {
		return s, false
	}
	n := MaxContext
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + cutMarker, true
}
