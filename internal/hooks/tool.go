package hooks

import (
	"context"
	"encoding/json"

	"github.com/forgehq/forge/internal/tools"
)

// Pre is what the PreToolUse hooks decided about one call.
type Pre struct {
	Outcome
	// Args are the arguments to run the call with: the hooks' rewrite,
	// validated, or the call's own.
	Args tools.Args
}

// PreToolUse runs the PreToolUse hooks matching t for a call with args
// (already valid for t) and applies their answers. A rewrite is validated
// against t's parameters like the model's own arguments; an invalid one
// refuses the call (Decision Deny), its Reason the validation's message.
// base gives the common fields of the input (session, cwd, call id).
func (r *Runner) PreToolUse(ctx context.Context, base Input, t tools.Tool, args tools.Args) Pre {
	base.Event, base.ToolName, base.ToolInput = PreToolUse, t.Name(), args
	p := Pre{Outcome: r.Run(ctx, base), Args: args}
	switch {
	case p.Decision == Deny:
		if p.Reason == "" {
			p.Reason = "no reason given"
		}
		p.note(base, NoteBlocked, firstLine(p.Reason))
		return p
	case p.RewriteErr != nil:
		p.deny(base, "the hook "+quote(p.Rewriter)+" rewrote the arguments into something unusable: "+p.RewriteErr.Error())
		return p
	case p.UpdatedInput == nil:
		return p
	}
	valid, verr := tools.ValidateFor(t, p.UpdatedInput)
	if verr != nil {
		p.deny(base, "the hook "+quote(p.Rewriter)+" rewrote the arguments into invalid ones: "+verr.Error())
		return p
	}
	p.Args = valid
	text, _ := json.Marshal(valid)
	p.Notes = append(p.Notes, Note{Event: PreToolUse, Command: p.Rewriter, Tool: base.ToolName, Kind: NoteRewrote, Text: trim(string(text), 200)})
	return p
}

// deny refuses the call for reason.
func (p *Pre) deny(base Input, reason string) {
	p.Decision, p.Reason, p.Args = Deny, reason, nil
	p.Notes = append(p.Notes, Note{Event: PreToolUse, Command: p.Rewriter, Tool: base.ToolName, Kind: NoteBlocked, Text: reason})
}

// note adds a note on the whole outcome, named after the first hook that
// decided it.
func (p *Pre) note(base Input, k NoteKind, text string) {
	p.Notes = append(p.Notes, Note{Event: PreToolUse, Command: p.Decider, Tool: base.ToolName, Kind: k, Text: text})
}

// Post is what the PostToolUse hooks said about one call's result.
type Post struct {
	Outcome
	// Feedback is for the model, after the result: what blocking hooks
	// said (exit 2's standard error, a block's reason) and their context.
	Feedback string
}

// PostToolUse runs the PostToolUse hooks matching the call's tool, after
// it ran and succeeded.
func (r *Runner) PostToolUse(ctx context.Context, base Input, name string, args tools.Args, res ToolResponse) Post {
	base.Event, base.ToolName, base.ToolInput, base.ToolResponse = PostToolUse, name, args, &res
	p := Post{Outcome: r.Run(ctx, base)}
	var parts []string
	if p.Decision == Deny && p.Reason != "" {
		parts = append(parts, p.Reason)
		p.Notes = append(p.Notes, Note{Event: PostToolUse, Command: p.Decider, Tool: name, Kind: NoteFeedback, Text: firstLine(p.Reason)})
	}
	for _, c := range []string{p.Context, p.ProjectContext} {
		if c != "" {
			parts = append(parts, c)
		}
	}
	for i, s := range parts {
		if i > 0 {
			p.Feedback += "\n"
		}
		p.Feedback += s
	}
	return p
}

// quote is a command as messages show it.
func quote(cmd string) string { return "`" + trim(cmd, 80) + "`" }
