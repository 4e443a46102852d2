package acp

import (
	"context"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// turn is one prompt as the editor sees it: the agent's events become
// session updates, and the calls it was told about are followed to
// their end.
type turn struct {
	s *server
	l *live
	// ctx is the prompt's: requests to the editor end with it. out
	// outlives a cancel, so that the editor still hears how each call
	// ended.
	ctx, out context.Context
	wd       string

	mu    sync.Mutex
	calls map[string]*shownCall
	order []string
	// plans are the calls that put a plan to the person, by plan.
	plans map[string]string
	// cost is what the prompt's requests have cost so far.
	cost float64
}

// shownCall is a call the editor was told about.
type shownCall struct {
	call agent.Call
	tool tools.Tool
	// output is what it printed so far, for calls forge runs itself.
	output strings.Builder
	// terminal is the editor's terminal it runs in; "" when none.
	terminal string
	// diff is the change the person was shown when asked.
	diff  *sdk.ToolCallContent
	ended bool
}

func (s *server) newTurn(ctx context.Context, l *live) *turn {
	return &turn{s: s, l: l, ctx: ctx, out: context.WithoutCancel(ctx), wd: l.dir, calls: map[string]*shownCall{}, plans: map[string]string{}}
}

// front is what the editor offers this prompt: it approves the calls
// and, when it says it can, runs the commands. Its file system methods
// are not used: the editor opens a path by name, following links, after
// forge judged it, and a link swapped in between would make the editor
// read or write a file forge never allowed; forge reads and writes
// through its own opens, which cannot be led outside, and the editor
// sees each change in the call's diff and reloads the file.
func (t *turn) front() Front {
	f := Front{Approver: t}
	if t.s.capabilities().Terminal {
		f.Terminals = editorTerminals{t: t}
	}
	return f
}

// send sends one update of the turn's session.
func (t *turn) send(u sdk.SessionUpdate) { t.s.update(t.out, t.l.id, u) }

// message sends text as the agent's.
func (t *turn) message(text string) { t.send(sdk.UpdateAgentMessageText(text)) }

// note sends forge's own remark (a notice, what a hook did) as a thought:
// the editor shows it apart from the answer.
func (t *turn) note(text string) {
	if strings.TrimSpace(text) != "" {
		t.send(sdk.UpdateAgentThoughtText(text + "\n"))
	}
}

// event turns one agent event into the editor's updates.
func (t *turn) event(e agent.Event) {
	switch e.Type {
	case agent.EventTextDelta:
		if e.ParentID == "" {
			t.message(e.Text)
		}
	case agent.EventThoughtDelta:
		if e.ParentID == "" {
			t.send(sdk.UpdateAgentThoughtText(e.Text))
		}
	case agent.EventToolCall:
		t.started(e.Call)
	case agent.EventToolStart:
		t.progress(e.Call.ID, sdk.ToolCallStatusInProgress, nil)
	case agent.EventToolOutput:
		t.output(e.Call.ID, e.Text)
	case agent.EventToolResult:
		t.ended(e.Call, e.Result)
	case agent.EventUsage:
		t.usage(e)
	case agent.EventTodo:
		if e.ParentID == "" {
			t.send(planUpdate(e.Todos))
		}
	case agent.EventPlan:
		t.planShown(e.Call, e.Text)
	case agent.EventNotice, agent.EventCompaction:
		t.note(e.Text)
	case agent.EventHook:
		if e.Hook != nil {
			t.note("hook " + string(e.Hook.Event) + ": " + e.Hook.Text)
		}
	}
	// An approved plan switches the mode in the middle of a run.
	t.s.syncMode(t.out, t.l)
}

// started tells the editor of a call the model made.
func (t *turn) started(c *agent.Call) {
	tool, _ := t.s.opts.Host.Lookup(c.Name)
	t.mu.Lock()
	if _, ok := t.calls[c.ID]; !ok {
		t.order = append(t.order, c.ID)
	}
	t.calls[c.ID] = &shownCall{call: *c, tool: tool}
	t.mu.Unlock()
	t.send(sdk.StartToolCall(sdk.ToolCallId(c.ID), title(c, tool, t.wd),
		sdk.WithStartKind(kindOf(c.Name, tool)), sdk.WithStartStatus(sdk.ToolCallStatusPending),
		sdk.WithStartLocations(locations(c, t.wd)), sdk.WithStartRawInput(rawInput(c))))
}

// rawInput is a call's arguments as the model sent them.
func rawInput(c *agent.Call) any {
	if c.Args != nil {
		return c.Args
	}
	return string(c.Raw)
}

// progress updates a call's status, and its content when given.
func (t *turn) progress(id string, st sdk.ToolCallStatus, content []sdk.ToolCallContent) {
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(st)}
	if content != nil {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	t.send(sdk.UpdateToolCall(sdk.ToolCallId(id), opts...))
}

// output shows what a call forge runs printed so far; a call in the
// editor's terminal is shown by the terminal.
func (t *turn) output(id, text string) {
	t.mu.Lock()
	sc := t.calls[id]
	if sc == nil || sc.terminal != "" {
		t.mu.Unlock()
		return
	}
	sc.output.WriteString(text)
	shown := tail(sc.output.String())
	t.mu.Unlock()
	t.progress(id, sdk.ToolCallStatusInProgress, textContent(shown))
}

// ended tells the editor how a call ended: the change an edit made, the
// terminal a command ran in, or what the model is told.
func (t *turn) ended(c *agent.Call, r *agent.CallResult) {
	t.mu.Lock()
	sc := t.calls[c.ID]
	if sc == nil {
		sc = &shownCall{call: *c}
	}
	sc.ended = true
	terminal, asked := sc.terminal, sc.diff
	t.mu.Unlock()
	var content []sdk.ToolCallContent
	switch {
	case r.Status == agent.StatusSuccess && r.Change != nil:
		if d, ok := diff(*r.Change); ok {
			content = []sdk.ToolCallContent{d}
		}
	case r.Status == agent.StatusSuccess && asked != nil:
		content = []sdk.ToolCallContent{*asked}
	}
	if content == nil && terminal == "" {
		text := r.Output
		if r.Status != agent.StatusSuccess && r.Error != "" {
			text = r.Error
		}
		content = textContent(tail(text))
	}
	opts := []sdk.ToolCallUpdateOpt{sdk.WithUpdateStatus(statusOf(r.Status))}
	if content != nil {
		opts = append(opts, sdk.WithUpdateContent(content))
	}
	if r.Status != agent.StatusSuccess {
		opts = append(opts, sdk.WithUpdateRawOutput(map[string]any{"status": string(r.Status), "error": r.Error}))
	}
	t.send(sdk.UpdateToolCall(sdk.ToolCallId(c.ID), opts...))
}

// usage reports how full the context window is and what the session has
// cost, where the editor shows it.
func (t *turn) usage(e agent.Event) {
	t.mu.Lock()
	t.cost += e.Cost
	cost := t.cost
	t.mu.Unlock()
	window := t.l.sess.ContextWindow()
	if window <= 0 {
		return
	}
	u := &sdk.SessionUsageUpdate{Size: window, Used: int(e.Usage.InputTokens + e.Usage.OutputTokens)}
	if spent, priced := t.l.sess.Spent(); priced || e.Cost > 0 {
		u.Cost = &sdk.Cost{Amount: spent + cost, Currency: "USD"}
	}
	t.send(sdk.SessionUpdate{UsageUpdate: u})
}

// finish ends, as failed, every call the editor was told of and never
// heard the end of (a cancelled prompt): none stays spinning.
func (t *turn) finish() {
	t.mu.Lock()
	var open []string
	for _, id := range t.order {
		if sc := t.calls[id]; !sc.ended {
			sc.ended = true
			open = append(open, id)
		}
	}
	t.mu.Unlock()
	for _, id := range open {
		t.progress(id, sdk.ToolCallStatusFailed, textContent("cancelled"))
	}
}

// terminalFor records that call id runs in the editor's terminal term.
func (t *turn) terminalFor(id, term string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if sc := t.calls[id]; sc != nil {
		sc.terminal = term
	}
}
