package agent

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
)

// Hooks runs the person's hooks at the agent's events. *hooks.Runner is
// the one forge uses; Config.Hooks nil runs none.
type Hooks interface {
	// Has says a hook would run for event (and tool, for the tool events).
	Has(event hooks.Event, tool string) bool
	// Run runs the hooks of in.Event and combines their answers.
	Run(ctx context.Context, in hooks.Input) hooks.Outcome
	// PreToolUse runs the hooks before a call of t with (valid) args and
	// applies their answers, a rewrite validated against t's parameters.
	PreToolUse(ctx context.Context, base hooks.Input, t tools.Tool, args tools.Args) hooks.Pre
	// PostToolUse runs the hooks after a call that succeeded.
	PostToolUse(ctx context.Context, base hooks.Input, name string, args tools.Args, res hooks.ToolResponse) hooks.Post
}

// maxStopBlocks bounds how often Stop hooks may keep one prompt's run
// going, beside max turns: a hook that ignores stop_hook_active would
// otherwise spend every turn the run has.
const maxStopBlocks = 5

// hooksOn says a hook would run for event and tool.
func (r *run) hooksOn(event hooks.Event, tool string) bool {
	return r.a.cfg.Hooks != nil && r.a.cfg.Hooks.Has(event, tool)
}

// hookInput is the common part of every hook's input.
func (r *run) hookInput() hooks.Input {
	in := hooks.Input{SessionID: r.a.cfg.Exec.SessionID, Cwd: r.a.cfg.Exec.WorkingDir}
	if l, ok := r.conv.Log.(interface{ Path() string }); ok {
		in.TranscriptPath = l.Path()
	}
	if l, ok := r.conv.Log.(interface{ ID() string }); ok {
		in.SessionID = l.ID() // the session the log keeps, which may be a new one
	}
	return in
}

// hookNotes emits the notes of hooks for the person.
func (r *run) hookNotes(notes []hooks.Note) {
	for i := range notes {
		r.emit(Event{Type: EventHook, Hook: &notes[i]})
	}
}

// startHooks runs the SessionStart hooks on a conversation's first run and
// the UserPromptSubmit hooks on every prompt of the person's agent. It
// returns the context they add to the prompt, and whether they blocked it
// (r.done then says why).
func (r *run) startHooks(ctx context.Context, prompt string) (string, bool) {
	if r.a.cfg.depth > 0 || r.a.cfg.Hooks == nil {
		return "", false
	}
	var mine, project []string
	if !r.conv.started {
		r.conv.started = true
		if r.hooksOn(hooks.SessionStart, "") {
			in := r.hookInput()
			in.Event, in.Source = hooks.SessionStart, "startup"
			if len(r.conv.Messages) > 0 {
				in.Source = "resume"
			}
			o := r.a.cfg.Hooks.Run(ctx, in)
			r.hookNotes(o.Notes)
			mine, project = append(mine, o.Context), append(project, o.ProjectContext)
		}
	}
	if r.hooksOn(hooks.UserPromptSubmit, "") {
		in := r.hookInput()
		in.Event, in.Prompt = hooks.UserPromptSubmit, prompt
		o := r.a.cfg.Hooks.Run(ctx, in)
		r.hookNotes(o.Notes)
		if o.Decision == hooks.Deny {
			reason := o.Reason
			if reason == "" {
				reason = "no reason given"
			}
			r.hookNotes([]hooks.Note{{Event: hooks.UserPromptSubmit, Command: o.Decider, Kind: hooks.NoteBlocked, Text: firstLine(reason)}})
			r.done.Reason, r.done.Err = ReasonHook, errors.New(reason)
			return "", true
		}
		mine, project = append(mine, o.Context), append(project, o.ProjectContext)
	}
	return hookContext("the person's", mine) + hookContext("the project's", project), false
}

// hookContext is the text hooks add to a prompt, labelled with whose
// hooks they are: the model weighs a project's words as the project's.
func hookContext(whose string, contexts []string) string {
	var b strings.Builder
	for _, c := range contexts {
		if c = strings.TrimSpace(c); c != "" {
			b.WriteString("\n\n" + c)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n\nContext from " + whose + " hooks:" + b.String()
}

// stopHooks runs the Stop hooks when the model has finished: a hook that
// blocks sends its reason as the next user message, and the run goes on.
// It reports whether it does.
func (r *run) stopHooks(ctx context.Context) bool {
	if r.a.cfg.depth > 0 || r.done.Reason != ReasonStop || ctx.Err() != nil || !r.hooksOn(hooks.Stop, "") {
		return false
	}
	in := r.hookInput()
	in.Event, in.StopHookActive = hooks.Stop, r.stopBlocks > 0
	o := r.a.cfg.Hooks.Run(ctx, in)
	r.hookNotes(o.Notes)
	if o.Decision != hooks.Deny {
		return false
	}
	reason := o.Reason
	if reason == "" {
		reason = "A Stop hook asks you to go on."
	}
	if r.stopBlocks >= maxStopBlocks {
		r.notice("a Stop hook kept the agent going " + strconv.Itoa(maxStopBlocks) + " times; the run ends here")
		return false
	}
	r.stopBlocks++
	r.hookNotes([]hooks.Note{{Event: hooks.Stop, Command: o.Decider, Kind: hooks.NoteBlocked, Text: firstLine(reason)}})
	r.conv.append(llm.Message{Role: llm.RoleUser, Text: reason})
	r.done.Reason = ""
	return true
}

// preToolUse runs the PreToolUse hooks of p, which is valid: a refusal
// sets p.res, a rewrite p's arguments. It returns the hooks' decision for
// the approval.
func (r *run) preToolUse(ctx context.Context, p *pending) hooks.Decision {
	if !r.hooksOn(hooks.PreToolUse, p.call.Name) {
		return hooks.None
	}
	base := r.hookInput()
	base.ToolUseID = p.call.ID
	pre := r.a.cfg.Hooks.PreToolUse(ctx, base, p.tool, p.call.Args)
	r.hookNotes(pre.Notes)
	if pre.Decision == hooks.Deny {
		whose := "the person's"
		if pre.DeciderProject {
			whose = "the project's"
		}
		p.res = refusedFor(StatusDenied, "Denied by "+whose+" PreToolUse hook: "+pre.Reason+
			"\nDo not retry it unchanged; do something else or ask the person.", "blocked by a hook: "+firstLine(pre.Reason))
		return hooks.Deny
	}
	if pre.UpdatedInput != nil {
		p.call.Args = pre.Args
		if raw, err := json.Marshal(pre.Args); err == nil {
			p.call.Raw = raw
		}
	}
	return pre.Decision
}

// postToolUse runs the PostToolUse hooks after a call that succeeded: what
// they say to the model follows the result.
func (r *run) postToolUse(ctx context.Context, p *pending) {
	if p.res == nil || p.res.Status != StatusSuccess || !r.hooksOn(hooks.PostToolUse, p.call.Name) {
		return
	}
	base := r.hookInput()
	base.ToolUseID = p.call.ID
	res := hooks.ToolResponse{Status: string(p.res.Status), Output: p.res.Output, Metadata: p.res.Result.Metadata}
	post := r.a.cfg.Hooks.PostToolUse(ctx, base, p.call.Name, p.call.Args, res)
	r.hookNotes(post.Notes)
	if post.Feedback != "" {
		p.res.Output += "\n\nPostToolUse hook: " + post.Feedback
	}
}

// firstLine is s's first line.
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}
