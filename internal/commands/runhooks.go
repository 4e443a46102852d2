package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// hookedTool returns the tool of a /run call that tool hooks apply to: a
// known tool, valid arguments (an invalid call is the executor's to
// report), and a hook for it.
func (e *Env) hookedTool(ctx context.Context, name string, args tools.Args) (tools.Tool, bool) {
	if !e.Hooks.Has(hooks.PreToolUse, name) && !e.Hooks.Has(hooks.PostToolUse, name) {
		return nil, false
	}
	t, ok := e.LookupTool(ctx, name)
	if !ok {
		return nil, false
	}
	if _, verr := tools.ValidateFor(t, args); verr != nil {
		return nil, false
	}
	return t, true
}

// hookInput is the common part of a hook's input in this session.
func (e *Env) hookInput() hooks.Input {
	in := hooks.Input{SessionID: e.Exec.SessionID, Cwd: e.Exec.WorkingDir}
	if l, ok := e.Conversation.Log.(interface{ Path() string }); ok {
		in.TranscriptPath = l.Path()
	}
	if l, ok := e.Conversation.Log.(interface{ ID() string }); ok {
		in.SessionID = l.ID() // the session the log keeps, which may be a new one
	}
	return in
}

// preToolUse runs the PreToolUse hooks of a /run call: it returns the
// arguments to run with, or the result of a call they refused. A hook's
// ask is put to the person when there is one to ask.
func (e *Env) preToolUse(ctx context.Context, t tools.Tool, args tools.Args) (tools.Args, *tools.Result) {
	if !e.Hooks.Has(hooks.PreToolUse, t.Name()) {
		return args, nil
	}
	pre := e.Hooks.PreToolUse(ctx, e.hookInput(), t, args)
	e.showHookNotes(pre.Notes)
	switch pre.Decision {
	case hooks.Deny:
		res := tools.Fail("Blocked by a PreToolUse hook: "+pre.Reason, "hook", pre.Decider)
		return args, &res
	case hooks.Ask:
		if ok, why := e.confirmHookAsk(ctx, t.Name(), pre.Reason); !ok {
			res := tools.Fail("Not run: a PreToolUse hook asks for approval, and " + why)
			return args, &res
		}
	}
	return pre.Args, nil
}

// confirmHookAsk puts a hook's ask to the person: yes runs the call.
func (e *Env) confirmHookAsk(ctx context.Context, tool, reason string) (bool, string) {
	if e.Ask == nil || !e.IO.InTerminal {
		return false, "there is no terminal to ask"
	}
	q := fmt.Sprintf("A hook asks for your approval to run %s", tool)
	if reason != "" {
		q += " (" + reason + ")"
	}
	ans, err := e.Ask(ctx, q+". Run it? [y/N]")
	if err != nil {
		return false, "the question was not answered: " + err.Error()
	}
	if a := strings.ToLower(strings.TrimSpace(ans)); a == "y" || a == "yes" {
		return true, ""
	}
	return false, "you said no"
}

// postToolUse runs the PostToolUse hooks after a /run call that succeeded;
// what they say is shown.
func (e *Env) postToolUse(ctx context.Context, name string, args tools.Args, res tools.Result) {
	if !res.Success || !e.Hooks.Has(hooks.PostToolUse, name) {
		return
	}
	post := e.Hooks.PostToolUse(ctx, e.hookInput(), name, args,
		hooks.ToolResponse{Status: string(res.Status), Output: res.Display(), Metadata: res.Metadata})
	e.showHookNotes(post.Notes)
}

// showHookNotes writes what hooks did on standard error, one line each,
// so that standard output keeps the call's result alone.
func (e *Env) showHookNotes(notes []hooks.Note) {
	for i := range notes {
		fmt.Fprintln(e.IO.Err, "forge: "+render.HookLine(&notes[i]))
	}
}
