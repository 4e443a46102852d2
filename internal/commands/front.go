package commands

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/custom"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/session"
	"github.com/forgehq/forge/internal/tools"
)

// Front is what a front end that shows a run itself (an editor) gives
// one prompt: who approves calls and, when it offers them, the terminals
// its commands run in (nil: forge runs them itself).
type Front struct {
	Approver  agent.Approver
	Terminals tools.Terminals
}

// Fork returns the environment of another conversation of this forge,
// working in dir under policy p (which keeps that conversation's
// "always" answers): the same tools, hooks, sessions store and agent
// factory, a new session id, and nothing of this conversation. What it
// would print goes to log, never to the streams of the process: a front
// end such as an editor owns those.
func (e *Env) Fork(dir string, p *permission.Policy, log io.Writer) *Env {
	f := &Env{IO: IOStreams{In: strings.NewReader(""), Out: log, Err: log}, Config: e.Config, Registry: e.Registry,
		Executor: e.Executor, Log: e.Log, Clock: e.Clock, MCP: e.MCP, Plugins: e.Plugins, Limits: e.Limits,
		Exec: e.Exec, Output: "text", LookupEnv: e.LookupEnv, Agent: e.Agent, Trust: e.Trust, Sandbox: e.Sandbox,
		Policy: p, Hooks: e.Hooks, ContextWindow: e.ContextWindow, custom: e.custom}
	f.Exec.WorkingDir = filepath.Clean(dir)
	f.Exec.Asker = nil
	if e.Sessions != nil {
		f.Sessions = &Sessions{Store: e.Sessions.Store, NewID: e.Sessions.NewID}
		if e.Sessions.NewID != nil {
			f.Exec.SessionID = e.Sessions.NewID()
		}
	}
	return f
}

// Custom are the custom commands a prompt may name as /NAME.
func (e *Env) Custom() []custom.Command { return e.custom }

// ErrNoAgent is RunFront's error when this forge has no agent.
var ErrNoAgent = errors.New("this forge has no agent")

// PromptError is RunFront's error for a prompt that cannot run as it is
// written (a mistyped command, a custom command's arguments), as opposed
// to a forge that cannot run any (no model).
type PromptError struct{ Err error }

func (e *PromptError) Error() string { return e.Err.Error() }
func (e *PromptError) Unwrap() error { return e.Err }

// RunFront gives the agent one prompt, continuing the conversation, as
// the shell does (a /NAME line runs that custom command; the session log,
// undo checkpoints and spending are kept the same way), and hands every
// event to emit instead of showing it. Its error is a prompt that cannot
// run: a *PromptError when the prompt is at fault, any other when forge
// is (no model).
func (e *Env) RunFront(ctx context.Context, prompt string, f Front, emit func(agent.Event)) (agent.Done, error) {
	if e.Agent == nil {
		return agent.Done{}, ErrNoAgent
	}
	typed := strings.TrimSpace(prompt)
	prompt, opts, err := e.promptOrCustom(typed)
	if err != nil {
		return agent.Done{}, &PromptError{Err: err}
	}
	if prompt == typed {
		typed = ""
	}
	opts.Checkpointer = historyOf{e}
	opts.ShowChanges = true
	opts.Approver = f.Approver
	opts.Policy = e.Policy
	opts.Exec.Terminals = f.Terminals
	a, info, err := e.Agent(ctx, opts)
	if err != nil {
		return agent.Done{}, err
	}
	e.record(agentInfo{provider: info.Provider, model: info.Model})
	h := e.History()
	h.Prompt(orText(typed, prompt), e.Conversation.Messages)
	defer e.recordTyped(typed)()
	d := a.Run(ctx, &e.Conversation, prompt, func(ev agent.Event) {
		e.calls.note(ev)
		e.recordOutcome(ev)
		emit(ev)
	})
	if d.Reason == agent.ReasonHook {
		h.Withdraw()
	}
	e.Spending.add(d)
	return d, nil
}

// Load goes on from the kept session id in this environment, as /resume
// does, and returns the warnings loading gave.
func (e *Env) Load(id string) ([]string, error) {
	return e.Resume(id, false)
}

// Shown is how the person saw the conversation a Load loaded: the
// prompts as typed and the calls' outcomes, for a front end to replay it.
func (e *Env) Shown() session.Shown { return e.resumed }
