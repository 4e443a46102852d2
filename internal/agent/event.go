package agent

import (
	"encoding/json"

	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
)

// EventType says what an Event reports.
type EventType string

// The events of a run, in the order they can come.
const (
	// EventTextDelta is a piece of the model's text as it streams in.
	EventTextDelta EventType = "text_delta"
	// EventRequest says a model request is under way (a spinner's cue).
	EventRequest EventType = "request"
	// EventThinking is one assistant message's whole readable thinking,
	// before its text event.
	EventThinking EventType = "thinking"
	// EventThoughtDelta is a piece of the model's thinking (Text) as it
	// streams in: shown apart from its text, never part of it (the
	// message keeps its thinking apart too, for the providers that want
	// it back).
	EventThoughtDelta EventType = "thought_delta"
	// EventText is one assistant message's whole text.
	EventText EventType = "text"
	// EventToolCall is a call the model made, before it is decided on.
	EventToolCall EventType = "tool_call"
	// EventApproval says the person is being asked about a call.
	EventApproval EventType = "approval"
	// EventToolStart says a call starts to run, its approval given.
	EventToolStart EventType = "tool_start"
	// EventToolOutput is a piece of what a running call prints (Text), as
	// it prints it; its result still carries the whole output.
	EventToolOutput EventType = "tool_output"
	// EventToolProgress is how far a running call has got (Progress), as
	// its tool reports it (an MCP server's progress notifications).
	EventToolProgress EventType = "progress"
	// EventToolQuestion says a running call is putting a question to the
	// person (ask_question): a view stops drawing over the terminal.
	EventToolQuestion EventType = "tool_question"
	// EventToolResult is a call's outcome.
	EventToolResult EventType = "tool_result"
	// EventUsage is one request's token usage.
	EventUsage EventType = "usage"
	// EventNotice is something the person should know that is not an
	// error of the run (a conversation repaired, a loop detected).
	EventNotice EventType = "notice"
	// EventCompaction says the conversation was compacted (Text says how).
	EventCompaction EventType = "compaction"
	// EventHook is something a hook did that the person should see: a
	// call or prompt blocked, a failure, a rewrite (Hook says what).
	EventHook EventType = "hook"
	// EventPlan is the plan the model puts to the person in plan mode
	// (Text, Markdown), before they are asked about it.
	EventPlan EventType = "plan"
	// EventTodo says the model changed its task list (Todos is the whole
	// list).
	EventTodo EventType = "todo"
	// EventDone ends the run.
	EventDone EventType = "done"
)

// Event is one thing that happened in a run. The loop emits events and
// never prints: the printer and the session log consume them.
type Event struct {
	Type EventType
	// Text is the text of a text_delta, text, thinking_delta, thinking,
	// notice or tool_output event.
	Text string
	// Call is the call of a tool_call, approval, tool_start, tool_output,
	// progress, tool_question or tool_result event.
	Call *Call
	// Result is the outcome of a tool_result event.
	Result *CallResult
	// Usage is a usage event's request usage.
	Usage llm.Usage
	// Cost is a usage event's cost in US dollars, 0 when the model's price
	// is unknown.
	Cost float64
	// Done is the summary of a done event.
	Done *Done
	// Hook is what a hook event reports.
	Hook *hooks.Note
	// Todos is a todo event's task list.
	Todos Todos
	// Progress is a progress event's report.
	Progress *tools.Progress
	// ParentID is set on the events of a subagent: the id of the Task
	// call it works for.
	ParentID string
}

// Call is one tool call as the person sees it.
type Call struct {
	ID   string
	Name string
	// Args are the decoded arguments; nil when the model sent arguments
	// that are not a JSON object (Raw has them).
	Args tools.Args
	Raw  json.RawMessage
	// ReadOnly says the tool changes nothing.
	ReadOnly bool
	// Sandboxed says the call's commands run in forge's sandbox.
	Sandboxed bool
}

// Status is a call's outcome as the event stream reports it.
type Status string

// The outcomes of a call.
const (
	StatusSuccess   Status = "success"
	StatusFailed    Status = "failed"
	StatusDenied    Status = "denied"
	StatusTimedOut  Status = "timed_out"
	StatusCancelled Status = "cancelled"
)

// CallResult is the outcome of one call.
type CallResult struct {
	Status Status
	// Output is what the model is told.
	Output string
	// Error is the failure's message, "" on success.
	Error string
	// Result is the executor's whole result (metadata, duration), when
	// the tool ran or was refused by the executor.
	Result tools.Result
	// Change is what a successful file edit did, in a run whose view
	// shows changes (Config.ShowChanges); nil otherwise.
	Change *tools.Change
	// ChangeSeen says the person saw Change in the approval question
	// before it ran: a view need not show its diff again unasked.
	ChangeSeen bool
}

// Reason says why a run ended.
type Reason string

// The reasons a run ends.
const (
	ReasonStop      Reason = "stop"      // the model finished, or a loop-breaking tool ended the run
	ReasonMaxTurns  Reason = "max_turns" // the limit on model requests was reached
	ReasonLoop      Reason = "loop"      // the model kept repeating the same calls after a warning
	ReasonCancelled Reason = "cancelled" // the caller cancelled (Ctrl-C)
	ReasonError     Reason = "error"     // the provider failed
	ReasonBudget    Reason = "budget"    // the prompt's budget (cost or tokens) is spent
	ReasonContext   Reason = "context"   // the conversation does not fit the window, even compacted
	ReasonHook      Reason = "hook"      // a UserPromptSubmit hook blocked the prompt (Err says why)
)

// Done summarises a run.
type Done struct {
	Reason Reason
	// Turns counts the model requests of the run's own conversation, as
	// its limit (Config.MaxTurns) counts them.
	Turns int
	// Requests counts every model request that Usage and Cost sum: the
	// run's own (a request the model refused as too long for its window
	// too), its compactions' and its subagents'. SubagentRequests are
	// the subagents' among them.
	Requests, SubagentRequests int
	// Usage sums the run's requests, its compactions' and its
	// subagents' included.
	Usage llm.Usage
	// Cost is the run's cost in US dollars, when Priced, its
	// compactions' and its subagents' included.
	Cost float64
	// Priced says the model's price is known, so Cost counts.
	Priced bool
	// Model is the model that gave the run's last answer, as its provider
	// named it ("" when none answered).
	Model string
	// Text is the final answer: the model's last text, or what a
	// loop-breaking tool returned.
	Text string
	// Err is the provider's error when Reason is ReasonError, what was
	// spent when it is ReasonBudget, the hook's reason when ReasonHook.
	Err error
	// FilesChanged are the files the run's Write, Edit and NotebookEdit
	// calls changed (its subagents' too), absolute, in the order first
	// changed. Changes made through Bash are not known.
	FilesChanged []string
}
