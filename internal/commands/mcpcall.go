package commands

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/mcp"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// CallerFactory makes the agent that runs single calls from outside a
// prompt (an MCP client's) through the pipeline of the agent's own calls:
// hooks, the approval policy and opts.Approver, the sandbox, the
// executor. It has no model.
type CallerFactory func(opts AgentOptions) *agent.Agent

// serveMode is the approval mode of forge mcp serve: --approval when it
// was given on the command line, else ask. The configured approval mode
// is the person's for their own prompts; a client of the server is
// another program, and gets no more than the person grants it here.
func serveMode(cfg config.Config) (permission.Mode, error) {
	if cfg.Origin("approval") != "--approval" {
		return permission.ModeAsk, nil
	}
	return permission.ParseMode(cfg.Approval)
}

// servedCall is ServeOptions.Call: a client's call through the agent's
// pipeline, in the server's approval mode, asking the person at the
// client when the policy asks and the client can be asked.
func (e *Env) servedCall(ctx context.Context, c mcp.Served) tools.Result {
	var ap agent.Approver
	if c.Confirm != nil {
		ap = confirmApprover{confirm: c.Confirm}
	}
	ag := e.Caller(AgentOptions{Approver: ap, Exec: c.Exec, Unasked: "no one to ask: the MCP client offers no elicitation"})
	return ag.Call(ctx, "", c.Name, c.Args, nil)
}

// confirmApprover puts the policy's question about a served call to the
// person at the client. It offers yes or no, never "always": the
// server's rules are the person's configuration, not a client's to widen.
type confirmApprover struct{ confirm mcp.Confirm }

func (c confirmApprover) Approve(ctx context.Context, a agent.Approval) (agent.Answer, error) {
	yes, err := c.confirm(ctx, servedQuestion(a))
	if err != nil || !yes {
		return agent.Reject, err
	}
	return agent.AllowOnce, nil
}

// servedQuestion is the question about a: the tool and its whole
// arguments, as they will run, and why forge asks.
func servedQuestion(a agent.Approval) string {
	args := string(a.Call.Raw)
	if args == "" {
		args = "{}"
	}
	q := fmt.Sprintf("forge asks: run %s %s?", a.Call.Name, args)
	if a.Call.Sandboxed {
		q += " (in the sandbox)"
	}
	if a.Reason != "" {
		q += "\n" + a.Reason
	}
	return q
}

// noteServed tells the person, on the log stream, the server's approval
// mode and, when its commands cannot be confined, that they will ask.
func (e *Env) noteServed(opts mcp.ServeOptions, mode permission.Mode) {
	if opts.Log == nil {
		return
	}
	fmt.Fprintf(opts.Log, "forge mcp serve: approval mode %s; a call that needs approval is put to the client's person when the client offers elicitation, and refused otherwise (allow calls with permissions.allow rules or --approval)\n", mode)
	if e.Sandbox == nil || len(opts.Tools) == 0 {
		return
	}
	rep := e.Sandbox.Report(e.Exec.WorkingDir)
	switch {
	case rep.Unavailable != "":
		fmt.Fprintf(opts.Log, "forge mcp serve: no sandbox for commands: %s; every command needs approval\n", rep.Unavailable)
	case rep.Mode == "off":
		fmt.Fprintln(opts.Log, "forge mcp serve: the sandbox is off (sandbox.mode); every command needs approval")
	}
}
