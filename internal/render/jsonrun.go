package render

import (
	"io"
	"math"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
)

// EventsVersion is the version of the JSON event stream; docs/events.schema.json
// describes it. A change that could break a reader makes a new version.
const EventsVersion = 1

// Run starts the JSON view of an agent run: JSON Lines, one event per line,
// the first an init event. Streamed text pieces are not sent: each complete
// message is one text event.
func (p jsonPrinter) Run(info RunInfo, _ RunOptions) RunView {
	tools := info.Tools
	if tools == nil {
		tools = []string{}
	}
	p.write(initEvent{Type: "init", Version: EventsVersion, Provider: info.Provider, Model: info.Model,
		WorkingDir: info.WorkingDir, Tools: tools, Approval: info.Approval, ToolFormat: info.ToolFormat, SessionID: info.SessionID})
	return jsonRun{out: p.out, priced: info.Priced, sessionID: info.SessionID, wd: info.WorkingDir}
}

type jsonRun struct {
	out       io.Writer
	priced    bool
	sessionID string
	wd        string
}

type initEvent struct {
	Type       string   `json:"type"`
	Version    int      `json:"version"`
	Provider   string   `json:"provider"`
	Model      string   `json:"model"`
	WorkingDir string   `json:"cwd"`
	Tools      []string `json:"tools"`
	Approval   string   `json:"approval"`
	ToolFormat string   `json:"tool_format"`
	SessionID  string   `json:"session_id,omitempty"`
}

type textEvent struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ParentID string `json:"parent_id,omitempty"`
}

type callEvent struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments any    `json:"arguments"`
	// RawArguments is what the model sent when it was not a JSON object.
	RawArguments string `json:"raw_arguments,omitempty"`
	Sandboxed    bool   `json:"sandboxed,omitempty"`
	ParentID     string `json:"parent_id,omitempty"`
}

type resultEvent struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Status    string `json:"status"`
	Output    string `json:"output"`
	Error     string `json:"error"`
	Sandboxed bool   `json:"sandboxed,omitempty"`
	ParentID  string `json:"parent_id,omitempty"`
}

// todoEvent is the model's task list each time it changes.
type todoEvent struct {
	Type     string      `json:"type"`
	Todos    agent.Todos `json:"todos"`
	ParentID string      `json:"parent_id,omitempty"`
}

// progressEvent is a running call's progress, as its server reports it.
type progressEvent struct {
	Type     string  `json:"type"`
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
	ParentID string  `json:"parent_id,omitempty"`
}

type usageJSON struct {
	InputTokens      int64 `json:"input_tokens"`
	OutputTokens     int64 `json:"output_tokens"`
	CacheReadTokens  int64 `json:"cache_read_tokens"`
	CacheWriteTokens int64 `json:"cache_write_tokens"`
}

type usageEvent struct {
	Type  string    `json:"type"`
	Usage usageJSON `json:"usage"`
	// CostUSD is null when the model's price is unknown.
	CostUSD  *float64 `json:"cost_usd"`
	ParentID string   `json:"parent_id,omitempty"`
}

type doneEvent struct {
	Type   string `json:"type"`
	Reason string `json:"reason"`
	Turns  int    `json:"turns"`
	// Requests are all the requests Usage sums: subagents' and
	// compactions' too.
	Requests int       `json:"requests"`
	Usage    usageJSON `json:"usage"`
	// CostUSD is null when the model's price is unknown.
	CostUSD   *float64 `json:"cost_usd"`
	Text      string   `json:"text"`
	Error     string   `json:"error,omitempty"`
	SessionID string   `json:"session_id,omitempty"`
	// FilesChanged are the files Write, Edit and NotebookEdit changed,
	// relative to the working directory when inside it.
	FilesChanged []string `json:"files_changed,omitempty"`
	// Model is the model that gave the last answer.
	Model string `json:"model,omitempty"`
}

func newUsage(u llm.Usage) usageJSON {
	return usageJSON{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
}

func (v jsonRun) Event(e agent.Event) {
	switch e.Type {
	case agent.EventText:
		v.write(textEvent{Type: "text", Text: e.Text, ParentID: e.ParentID})
	case agent.EventThinking:
		v.write(textEvent{Type: "thinking", Text: e.Text, ParentID: e.ParentID})
	case agent.EventNotice:
		v.write(textEvent{Type: "notice", Text: e.Text, ParentID: e.ParentID})
	case agent.EventCompaction:
		v.write(textEvent{Type: "compaction", Text: e.Text, ParentID: e.ParentID})
	case agent.EventHook:
		v.write(newHookEvent(e.Hook, e.ParentID))
	case agent.EventPlan:
		v.write(textEvent{Type: "plan", Text: e.Text, ParentID: e.ParentID})
	case agent.EventTodo:
		ts := e.Todos
		if ts == nil {
			ts = agent.Todos{}
		}
		v.write(todoEvent{Type: "todo", Todos: ts, ParentID: e.ParentID})
	case agent.EventToolCall, agent.EventApproval:
		ev := newCallEvent(string(e.Type), e.Call)
		ev.ParentID = e.ParentID
		v.write(ev)
	case agent.EventToolProgress:
		if e.Progress != nil {
			v.write(progressEvent{Type: "progress", ID: e.Call.ID, Name: e.Call.Name, Progress: e.Progress.Progress,
				Total: e.Progress.Total, Message: e.Progress.Message, ParentID: e.ParentID})
		}
	case agent.EventToolResult:
		v.write(resultEvent{Type: "tool_result", ID: e.Call.ID, Name: e.Call.Name, Status: string(e.Result.Status),
			Output: e.Result.Output, Error: e.Result.Error, Sandboxed: e.Call.Sandboxed && e.Result.Status != agent.StatusDenied,
			ParentID: e.ParentID})
	case agent.EventUsage:
		ev := usageEvent{Type: "usage", Usage: newUsage(e.Usage), ParentID: e.ParentID}
		if v.priced {
			ev.CostUSD = roundedCost(e.Cost)
		}
		v.write(ev)
	case agent.EventDone:
		d := doneEvent{Type: "done", Reason: string(e.Done.Reason), Turns: e.Done.Turns, Requests: e.Done.Requests, Usage: newUsage(e.Done.Usage),
			Text: e.Done.Text, SessionID: v.sessionID, Model: e.Done.Model, FilesChanged: RelPaths(v.wd, e.Done.FilesChanged)}
		if e.Done.Priced {
			d.CostUSD = roundedCost(e.Done.Cost)
		}
		if e.Done.Err != nil {
			d.Error = e.Done.Err.Error()
		}
		v.write(d)
	}
}

func newCallEvent(typ string, c *agent.Call) callEvent {
	ev := callEvent{Type: typ, ID: c.ID, Name: c.Name, Arguments: map[string]any{}, Sandboxed: c.Sandboxed}
	if c.Args != nil {
		ev.Arguments = c.Args
	} else if len(c.Raw) > 0 {
		ev.RawArguments = string(c.Raw)
	}
	return ev
}

func (v jsonRun) Close() {}

func (v jsonRun) write(x any) { WriteJSONLine(v.out, x) }

// roundedCost is a cost to the billionth of a dollar, far below what any
// provider bills, so that sums print as 0.0135 rather than
// 0.013499999999999998.
func roundedCost(c float64) *float64 {
	r := math.Round(c*1e9) / 1e9
	return &r
}
