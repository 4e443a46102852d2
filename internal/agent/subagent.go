package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// TaskToolName is the tool through which the model hands a piece of work
// to a subagent.
const TaskToolName = "Task"

// subagentMaxTurns bounds a subagent's model requests: a research task
// that needs more should be split by the parent.
const subagentMaxTurns = 25

// GeneralSubagent is the subagent_type of the default subagent: forge's
// system prompt and the read-only tools.
const GeneralSubagent = "general-purpose"

// subagentPrompt is added to the system prompt of a read-only subagent.
const subagentPrompt = "\n\nYou are a subagent: another agent gave you the task below and will read only your final " +
	"answer, not your tool calls. You have read-only tools: find out, do not change anything. When done, answer " +
	"with a concise report of what you found (paths, names, line numbers, facts), which is all the other agent will see."

// subagentToolsPrompt is added to the system prompt of a subagent whose
// profile gives it tools of its own.
const subagentToolsPrompt = "\n\nYou are a subagent: another agent gave you the task below and will read only your final " +
	"answer, not your tool calls. When done, answer with a concise report of what you found and did, which is all " +
	"the other agent will see."

// Profile is a kind of subagent the Task tool offers by name (a custom
// agent): its own system prompt, tools and model. The app makes profiles
// from definitions it loads; the agent reads no file.
type Profile struct {
	Name        string
	Description string
	// System is its system prompt; "" keeps the parent's.
	System string
	// Tools, when set, are the only tools it may use, within what its
	// parent may use, tools that change things included (the policy and
	// the person still decide those calls); nil gives it the general
	// subagent's read-only tools.
	Tools *permission.Scope
	// ModelName is its model, of the parent's provider; "" is the
	// parent's. Price and ContextWindow are that model's.
	ModelName     string
	Price         *llm.Price
	ContextWindow int
}

var taskDescriptor = tools.Descriptor{
	Name: TaskToolName,
	Description: "Launch a subagent. It works on a self-contained task (finding where something is done, reading many " +
		"files) in a fresh conversation with read-only tools, and returns only its final report, which keeps your own " +
		"conversation short. Give it everything it needs in the prompt: it does not see this conversation. Several " +
		"Task calls in one turn run in parallel (one at a time for subagents that may change files).",
	Category: tools.CategoryTask,
	ReadOnly: true,
	Parameters: []tools.Parameter{
		{Name: "description", Type: tools.TypeString, Description: "The task in three to five words, for the person", Required: true},
		{Name: "prompt", Type: tools.TypeString, Description: "The whole task, with what the subagent needs to know and what to report", Required: true},
		{Name: "subagent_type", Type: tools.TypeString, Description: "The kind of subagent; default " + GeneralSubagent},
	},
}

// maxTaskList bounds the Task tool's description, sent with every
// request: a project with 140 agents must not add 45 KB to each. Past it,
// agents are listed by name only, and still picked by name.
const maxTaskList = 8 << 10

// taskDescriptorFor is the Task tool as offered with profiles: their
// names in an enum, their descriptions (one short line each, as the app
// gives them) in the tool's, so that the model can choose.
func taskDescriptorFor(profiles []Profile) tools.Descriptor {
	d := taskDescriptor
	if len(profiles) == 0 {
		return d
	}
	var b strings.Builder
	b.WriteString(d.Description)
	b.WriteString("\n\nsubagent_type picks the subagent:\n- " + GeneralSubagent + " (the default): the read-only research subagent described above")
	names := []any{GeneralSubagent}
	choices := make([]tools.Choice, 0, len(profiles))
	for _, p := range profiles {
		names = append(names, p.Name)
		choices = append(choices, tools.Choice{Name: p.Name, Summary: p.Description})
	}
	tools.AppendChoices(&b, choices, maxTaskList)
	d.Description = b.String()
	d.Parameters = slices.Clone(d.Parameters)
	sub := &d.Parameters[len(d.Parameters)-1]
	sub.Enum = names
	sub.Description = "The subagent to launch (see the list above); default " + GeneralSubagent
	return d
}

// Spawner gives the agent a Task call outside an agent run (forge run
// Task, an MCP client) runs on.
type Spawner func(ctx context.Context) (*Agent, error)

// taskTool is the Task tool as the registry holds it. Inside a run the
// agent runs Task calls itself, nested in its events and accounts; this
// Execute serves calls from outside a run.
type taskTool struct {
	spawn Spawner
	desc  tools.Descriptor
}

// NewTaskTool returns the Task tool, whose calls from outside an agent
// run go to an agent spawn gives; profiles are the subagents it names
// besides the general one (the agent's own Config.Subagents are what a
// run offers).
func NewTaskTool(spawn Spawner, profiles ...Profile) tools.Tool {
	return taskTool{spawn: spawn, desc: taskDescriptorFor(profiles)}
}

func (t taskTool) Name() string                  { return t.desc.Name }
func (t taskTool) Description() string           { return t.desc.Description }
func (t taskTool) Category() tools.Category      { return t.desc.Category }
func (t taskTool) Parameters() []tools.Parameter { return t.desc.Parameters }
func (taskTool) IsReadOnly() bool                { return true }

func (t taskTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	a, err := t.spawn(ctx)
	if err != nil {
		return tools.Fail("Cannot start a subagent: " + err.Error())
	}
	p, err := a.profile(args.String("subagent_type"))
	if err != nil {
		return tools.Fail(err.Error())
	}
	d := a.subagent(ctx, p, args.String("prompt"), nil, func(Event) {}, nil)
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

// profile finds the subagent named name ("" is the general one).
func (a *Agent) profile(name string) (Profile, error) {
	if name == "" || name == GeneralSubagent {
		return Profile{Name: GeneralSubagent}, nil
	}
	known := []string{GeneralSubagent}
	for _, p := range a.cfg.Subagents {
		if p.Name == name {
			return p, nil
		}
		known = append(known, p.Name)
	}
	return Profile{}, fmt.Errorf("unknown subagent_type %q: use one of %s (or leave it out for %s)",
		name, strings.Join(known, ", "), GeneralSubagent)
}

// subagentWrites says the subagent p would be offered a tool that changes
// things (the general subagent and plan mode offer none).
func (a *Agent) subagentWrites(p Profile) bool {
	if p.Tools == nil || (a.cfg.Policy != nil && a.cfg.Policy.Mode() == permission.ModePlan) {
		return false
	}
	s := a.cfg.Scope.Narrow(p.Tools)
	for _, t := range a.cfg.Executor.Registry().ListAll() {
		if t.Name() != TaskToolName && !tools.IsReadOnly(t) && s.Offers(t.Name()) {
			return true
		}
	}
	return false
}

// subagent runs prompt as the subagent p in a fresh conversation with a's
// model (or p's) and returns how it ended; its final answer is Done.Text.
// It has the read-only tools, unless p gives it tools of its own: then it
// keeps the parent's policy and asks the person through approver (nil:
// nobody can answer, and calls that need approval are denied). It never
// has the Task tool (subagents start none). log, when set, records its
// conversation.
func (a *Agent) subagent(ctx context.Context, p Profile, prompt string, log Recorder, emit func(Event), approver Approver) Done {
	cfg := a.cfg
	cfg.depth = a.cfg.depth + 1
	cfg.Approver = nil
	cfg.Exec.Asker = nil
	cfg.MaxTurns = min(cfg.MaxTurns, subagentMaxTurns)
	cfg.Subagents = nil
	cfg.Notices = nil // the parent's run said them
	if p.System != "" {
		cfg.System = p.System
	}
	if p.Tools != nil {
		cfg.Scope = cfg.Scope.Narrow(p.Tools)
		cfg.System += subagentToolsPrompt
		cfg.Approver = approver
	} else {
		cfg.readOnly = true
		cfg.System += subagentPrompt
	}
	if p.ModelName != "" {
		cfg.ModelName, cfg.Price, cfg.ContextWindow = p.ModelName, p.Price, p.ContextWindow
	}
	conv := &Conversation{Log: log}
	return New(cfg).Run(ctx, conv, prompt, emit)
}

// runSubagent answers a Task call inside a run: the subagent's events
// appear in the run's, marked with the call's id; its usage and cost count
// toward the run's, and its budget is what the run has left.
func (r *run) runSubagent(ctx context.Context, p *pending) {
	p.ran = true
	prof, err := r.a.profile(p.call.Args.String("subagent_type"))
	if err != nil {
		p.res = refusedFor(StatusFailed, err.Error(), "unknown subagent_type")
		return
	}
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
	var approver Approver
	if r.a.cfg.Approver != nil {
		approver = oneAtATime{mu: &r.asking, a: r.a.cfg.Approver}
	}
	d := sub.subagent(ctx, prof, p.call.Args.String("prompt"), log, func(e Event) {
		switch e.Type {
		case EventTextDelta, EventRequest, EventThoughtDelta, EventThinking, EventDone:
			return // the parent shows the subagent's calls and its report, not its streaming
		}
		e.ParentID = p.call.ID
		r.emit(e)
	}, approver)
	r.mu.Lock()
	r.done.Usage = r.done.Usage.Add(d.Usage)
	r.done.Cost += d.Cost
	r.done.Requests += d.Requests
	r.done.SubagentRequests += d.Requests
	r.mu.Unlock()
	r.noteChanged(d.FilesChanged)
	p.res = outcome(p.call.Name, taskResult(d), r.offered)
}

// oneAtATime puts the questions of subagents running side by side to the
// person one after the other.
type oneAtATime struct {
	mu *sync.Mutex
	a  Approver
}

func (o oneAtATime) Approve(ctx context.Context, ap Approval) (Answer, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.a.Approve(ctx, ap)
}

func (o oneAtATime) ApproveWithFeedback(ctx context.Context, ap Approval) (Answer, string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return askApprover(ctx, o.a, ap)
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

// Result keeps a subagent's tool result as its model read it. The whole
// output it was cut from stays out: these records sit in the parent's
// log inline, and the subagent's report is what its parent reads.
func (n nestedRecorder) Result(m llm.Message, _ string) error { return n.Append(m) }

// Usage counts toward the session's: a subagent's tokens are paid for.
func (n nestedRecorder) Usage(u llm.Usage, cost float64) error { return n.parent.Usage(u, cost) }

func (n nestedRecorder) Compaction(replacement []llm.Message, note string) error {
	return n.parent.Record("subagent_compaction", map[string]any{"parent_id": n.parentID, "note": note})
}

func (n nestedRecorder) Record(kind string, data any) error {
	return n.parent.Record(kind, data)
}
