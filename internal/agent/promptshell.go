package agent

import (
	"context"
	"encoding/json"

	"github.com/forgehq/forge/internal/llm"
)

// bashTool runs a custom command's !`commands`.
const bashTool = "Bash"

// Shell runs command as the agent runs a Bash call of the model's: within
// the scope, through the hooks, the policy and the person (its Approver),
// in the sandbox. It is for a custom command's !`command`, whose output
// goes into the prompt before the prompt is sent; conv is the
// conversation the prompt continues (for the hooks' transcript), which
// the call does not join. Its events go to emit. ok says it ran and
// succeeded; output is its result as the model would read it, the reason
// when it did not run.
func (a *Agent) Shell(ctx context.Context, conv *Conversation, command string, emit func(Event)) (output string, ok bool) {
	r := &run{a: a, conv: conv, emit: serialized(emit), specs: a.toolSpecs(), loops: loopDetector{off: true}}
	args, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		return err.Error(), false
	}
	p := r.prepare(llm.ToolCall{ID: "prompt_command", Name: bashTool, Arguments: args})
	call := p.call
	r.emit(Event{Type: EventToolCall, Call: &call})
	r.runBatch(ctx, []*pending{p})
	if p.res == nil {
		p.res = refusedFor(StatusCancelled, cancelledResult, "cancelled")
		r.report(p)
	}
	return p.res.Output, p.res.Status == StatusSuccess
}
