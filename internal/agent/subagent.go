package agent

import (
	"context"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
)

// TaskToolName is the tool through which the model hands a piece of work
// to a subagent.
const TaskToolName = "Task"

// subagentMaxTurns bounds a subagent's model requests: a research task
// that needs more should be split by the parent.
const subagentMaxTurns = 25

// subagentPrompt is added to the system prompt of a subagent.
const subagentPrompt = "\n\nYou are a subagent: another agent gave you the task below and will read only your final " +
	"answer, not your tool calls. You have read-only tools: find out, do not change anything. When done, answer " +
	"with a concise report of what you found (paths, names, line numbers, facts), which is all the other agent will see."

var taskDescriptor = tools.Descriptor{
	Name: TaskToolName,
	Description: "Launch a subagent. It works on a self-contained task (finding where something is done, reading many " +
		"files) in a fresh conversation with read-only tools, and returns only its final report, which keeps your own " +
		"conversation short. Give it everything it needs in the prompt: it does not see this conversation. Several " +
		"Task calls in one turn run in parallel.",
	Category: tools.CategoryTask,
	ReadOnly: true,
	Parameters: []tools.Parameter{
		{Name: "description", Type: tools.TypeString, Description: "The task in three to five words, for the person", Required: true},
		{Name: "prompt", Type: tools.TypeString, Description: "The whole task, with what the subagent needs to know and what to report", Required: true},
	},
}

// Spawner gives the agent a Task call outside an agent run (forge run
// Task, an MCP client) runs on.
type Spawner func(ctx context.Context) (*Agent, error)

// taskTool is the Task tool as the registry holds it. Inside a run the
// agent runs Task calls itself, nested in its events and accounts; this
// Execute serves calls from outside a run.
type taskTool struct{ spawn Spawner }

// NewTaskTool returns the Task tool, whose calls from outside an agent
// run go to an agent spawn gives.
func NewTaskTool(spawn Spawner) tools.Tool { return taskTool{spawn: spawn} }

func (taskTool) Name() string                  { return taskDescriptor.Name }
func (taskTool) Description() string           { return taskDescriptor.Description }
func (taskTool) Category() tools.Category      { return taskDescriptor.Category }
func (taskTool) Parameters() []tools.Parameter { return taskDescriptor.Parameters }
func (taskTool) IsReadOnly() bool              { return true }

func (t taskTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	a, err := t.spawn(ctx)
	if err != nil {
		return tools.Fail("Cannot start a subagent: " + err.Error())
	}
	d := a.Subagent(ctx, args.String("prompt"), nil, func(Event) {})
	return taskResult(d)
}

// taskResult is a subagent's run as its Task call's result.
func taskResult(d Done) tools.Result {
	if d.Reason == ReasonStop {
		if d.Text == "" {
			return tools.OK("The subagent finished without a report.")
		}
		return tools.OK(d.Text)
	}
	msg := "The subagent did not finish: " + d.Summary()
	if d.Text != "" {
		msg += ". Its last words: " + d.Text
	}
	return tools.Fail(msg)
}

// Subagent runs prompt in a fresh conversation with a's model and the
// read-only tools, without the Task tool (subagents start none), and
// returns how it ended; its final answer is Done.Text. log, when set,
// records its conversation.
func (a *Agent) Subagent(ctx context.Context, prompt string, log Recorder, emit func(Event)) Done {
	cfg := a.cfg
	cfg.System += subagentPrompt
	cfg.readOnly, cfg.depth = true, a.cfg.depth+1
	cfg.Approver = nil
	cfg.Exec.Asker = nil
	cfg.MaxTurns = min(cfg.MaxTurns, subagentMaxTurns)
	conv := &Conversation{Log: log}
	return New(cfg).Run(ctx, conv, prompt, emit)
}

// runSubagent answers a Task call inside a run: the subagent's events
// appear in the run's, marked with the call's id; its usage and cost count
// toward the run's, and its budget is what the run has left.
func (r *run) runSubagent(ctx context.Context, p *pending) {
	p.ran = true
	sub := *r.a
	b := r.remainingBudget()
	if b.spent {
		p.res = refusedFor(StatusCancelled, "Not run: the prompt's budget is spent.", "not run: the budget is spent")
		return
	}
	sub.cfg.Budget = b.Budget
	var log Recorder
	if r.conv.Log != nil {
		log = nestedRecorder{parent: r.conv.Log, parentID: p.call.ID}
	}
	d := sub.Subagent(ctx, p.call.Args.String("prompt"), log, func(e Event) {
		switch e.Type {
		case EventTextDelta, EventThinking, EventDone:
			return // the parent shows the subagent's calls and its report, not its streaming
		}
		e.ParentID = p.call.ID
		r.emit(e)
	})
	r.mu.Lock()
	r.done.Usage = r.done.Usage.Add(d.Usage)
	r.done.Cost += d.Cost
	r.mu.Unlock()
	r.noteChanged(d.FilesChanged)
	p.res = outcome(p.call.Name, taskResult(d), r.offered)
}

// remaining is a budget with what is left of it.
type remaining struct {
	Budget
	spent bool
}

// remainingBudget is what is left of the run's budget for a subagent.
func (r *run) remainingBudget() remaining {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.a.cfg.Budget
	out := remaining{}
	if b.Tokens > 0 {
		out.Tokens = b.Tokens - r.done.Usage.InputTokens - r.done.Usage.OutputTokens
		out.spent = out.Tokens <= 0
	}
	if b.CostUSD > 0 && r.done.Priced {
		out.CostUSD = b.CostUSD - r.done.Cost
		out.spent = out.spent || out.CostUSD <= 0
	}
	return out
}

// nestedRecorder keeps a subagent's conversation in its parent's log, as
// records of the parent's call, so that a resumed parent conversation is
// not mixed with it.
type nestedRecorder struct {
	parent   Recorder
	parentID string
}

func (n nestedRecorder) Prompt(text string) error {
	return n.parent.Record("subagent_prompt", map[string]any{"parent_id": n.parentID, "text": text})
}

func (n nestedRecorder) Append(m llm.Message) error {
	return n.parent.Record("subagent_message", map[string]any{"parent_id": n.parentID, "message": m})
}

// Usage counts toward the session's: a subagent's tokens are paid for.
func (n nestedRecorder) Usage(u llm.Usage, cost float64) error { return n.parent.Usage(u, cost) }

func (n nestedRecorder) Compaction(replacement []llm.Message, note string) error {
	return n.parent.Record("subagent_compaction", map[string]any{"parent_id": n.parentID, "note": note})
}

func (n nestedRecorder) Record(kind string, data any) error {
	return n.parent.Record(kind, data)
}
