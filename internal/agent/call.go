package agent

import (
	"context"
	"encoding/json"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
)

// Call runs one call that comes from outside a prompt (an MCP client's)
// through the pipeline the model's calls take: the scope, the PreToolUse
// hooks, the policy and the Approver (nil: a call that would ask is
// refused, saying how to allow it), the sandbox, the checkpoint, the
// executor and the PostToolUse hooks. Only the registry's tools are run;
// the agent's own ones change a prompt's run and have none here. id names
// the call in its events; emit receives them (nil drops them). The
// result is the executor's when the tool ran; a call refused before it
// ran is a failure of kind tools.KindDenied (or cancelled) whose error
// says why and what to do.
//
// The agent need not have a model: a Task call then runs the registry's
// Task tool, which starts its own.
func (a *Agent) Call(ctx context.Context, id, name string, args json.RawMessage, emit func(Event)) tools.Result {
	if emit == nil {
		emit = func(Event) {}
	}
	r := &run{a: a, conv: &Conversation{}, emit: serialized(emit), loops: loopDetector{off: true}, single: true}
	p := &pending{llm: llm.ToolCall{ID: id, Name: name, Arguments: args}, call: Call{ID: id, Name: name, Raw: args}}
	if decoded, err := tools.DecodeArgs(args); err == nil {
		p.call.Args = decoded
	}
	if t, ok := a.cfg.Executor.Registry().Get(name); ok {
		p.tool = t
		p.call.Args = tools.AdoptArgs(t, p.call.Args)
		p.call.ReadOnly = tools.IsReadOnly(t)
		p.call.Sandboxed = r.sandboxFor(p) != nil
	}
	r.emit(Event{Type: EventToolCall, Call: &p.call})
	r.runBatch(ctx, []*pending{p})
	if p.res == nil {
		p.res = refusedFor(StatusCancelled, cancelledResult, "cancelled")
	}
	r.report(p)
	return callResult(p)
}

// callResult is p's outcome as a tool result: the executor's when the
// tool ran, with what the PostToolUse hooks told the model; a failure
// saying why otherwise.
func callResult(p *pending) tools.Result {
	if p.ran && p.res.Result.Status != "" {
		res := p.res.Result
		if res.Success && p.res.Output != res.Display() {
			res.Output = p.res.Output // a hook's feedback follows the output
		}
		return res
	}
	res := tools.Result{Status: tools.StatusFailed, Error: p.res.Output, ErrorKind: tools.KindDenied}
	switch p.res.Status {
	case StatusCancelled:
		res.Status, res.ErrorKind = tools.StatusCancelled, tools.KindCancelled
	case StatusFailed, StatusTimedOut:
		res.ErrorKind = tools.KindExecution
	}
	return res
}
