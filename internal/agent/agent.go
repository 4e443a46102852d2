// Package agent is forge's agent loop: a prompt goes to the model with the
// registry's tools; the model's calls are checked against the approval
// policy, run through the executor and answered; the next request carries
// the results, until the model is done or a limit stops it. The loop never
// prints and never reads a terminal: it emits Events, and asks for
// approval through an Approver.
package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// Format is how tools are offered to the model.
type Format string

// The tool formats.
const (
	// FormatNative uses the provider's own tool calling.
	FormatNative Format = "native"
	// FormatXML describes the tools in the system prompt and reads calls
	// as <tool>{...}</tool> blocks from the model's text, for models
	// without tool calling.
	FormatXML Format = "xml"
)

// DefaultMaxTurns bounds the model requests of one prompt.
const DefaultMaxTurns = 50

// Config is what an Agent works with.
type Config struct {
	Model llm.Model
	// ModelName is sent with each request; "" means the Model's default.
	ModelName string
	Executor  *tools.Executor
	// Policy decides each call; Mode plan offers read-only tools only.
	Policy *permission.Policy
	// Approver asks the person about a call; nil means nobody can answer,
	// and such calls are denied with the way to allow them.
	Approver Approver
	// Unasked says, in the refusal of a call nobody could approve, why
	// nobody can ("no terminal" when empty).
	Unasked string
	// Exec is the context every call starts from. Its Asker, when set,
	// lets ask_question put its question to the person.
	Exec tools.ExecutionContext
	// System is the system prompt (SystemPrompt, or the user's own).
	System string
	// Notices are what the person should know before the run (an
	// instructions file SystemPrompt did not read): each one becomes a
	// notice event at the run's start.
	Notices       []string
	MaxTurns      int
	LoopDetection bool
	ToolFormat    Format
	// MaxAnswerTokens bounds each answer (the providers' max_tokens); 0
	// is the provider's default. Budget.Tokens bounds a whole prompt.
	MaxAnswerTokens int
	// Effort asks a model that reasons to think this hard; "" is the
	// model's default.
	Effort llm.Effort
	// Budget bounds what one prompt may spend.
	Budget Budget
	// Price is the model's; nil when unknown (costs are then not counted).
	Price *llm.Price
	// ContextWindow is the model's window in tokens: the conversation is
	// compacted before a request would fill most of it. 0 (unknown)
	// compacts only when the provider says the request was too long.
	ContextWindow int
	// Hooks runs the person's hooks; nil runs none. A subagent runs the
	// tool hooks of its calls, not the session's or the prompt's.
	Hooks Hooks
	// Scope, when set, narrows the tools offered and run to those its
	// rules name (a custom command's allowed-tools); the policy still
	// decides each call in scope.
	Scope *permission.Scope
	// Subagents are the subagents the Task tool offers besides the
	// general one (custom agents).
	Subagents []Profile
	// SkillScopes are the allowed-tools of the skills that have them, by
	// name: once the model loads one with the Skill tool, the rest of the
	// prompt works within it.
	SkillScopes map[string]*permission.Scope
	// Sandbox confines the commands of the calls of tools that run
	// confined (Bash, plugin tools): such a call runs in it without a
	// question unless a deny or ask rule could match it, or it asks to
	// leave it (sandbox: false). ReadOnlySandbox is plan mode's, which
	// lets plan offer Bash. nil runs the commands unconfined, and they ask.
	Sandbox, ReadOnlySandbox tools.Sandbox
	// Checkpointer, when set, keeps the files Write, Edit and NotebookEdit
	// calls change, before they change them, for undo. A subagent shares
	// its parent's: its changes belong to the parent's prompt.
	Checkpointer Checkpointer
	// ShowChanges works out, before it runs, the change of each file
	// edit, so that its result can show the person what it did
	// (CallResult.Change): unseen when it ran without a question
	// (auto-edit, an "always" answer, an allow rule), again on demand when
	// the question showed it. A front end that shows no such thing leaves
	// it off and spares the file reads.
	ShowChanges bool

	// readOnly offers and allows read-only tools only (a subagent).
	readOnly bool
	// depth is 0 for the person's agent, 1 for a subagent, which starts
	// no subagent of its own.
	depth int
}

// Agent runs prompts. It is safe to run one prompt at a time per
// Conversation; an Agent itself keeps no per-run state.
type Agent struct {
	cfg Config
	// own serves the tools the agent carries out itself (ownTools).
	own *tools.Executor
}

// New returns an agent for cfg.
func New(cfg Config) *Agent {
	if cfg.MaxTurns <= 0 {
		cfg.MaxTurns = DefaultMaxTurns
	}
	if cfg.ToolFormat == "" {
		cfg.ToolFormat = FormatNative
	}
	return &Agent{cfg: cfg, own: ownTools()}
}

// ToolNames are the tools the agent offers the model.
func (a *Agent) ToolNames() []string {
	specs := a.toolSpecs()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}

// run is the state of one prompt's run.
type run struct {
	a     *Agent
	conv  *Conversation
	emit  func(Event)
	specs []llm.ToolSpec
	// specsMode is the approval mode specs were made for: a mode changed
	// in the middle of a run (a plan approved) changes the tools offered.
	specsMode permission.Mode
	loops     loopDetector
	done      Done
	// parseErrs are the text-format call blocks of the last answer that
	// could not be read.
	parseErrs []string
	// fixed is the estimate of the system prompt and tool specs.
	fixed int64
	// serverWindow and serverUsed are the window the provider named when
	// it refused a request as too long, and what it counted the request
	// to need; 0 when it has not.
	serverWindow, serverUsed int64
	// logReported says the session log's failure was reported.
	logReported bool
	// stopBlocks counts the times Stop hooks kept the run going.
	stopBlocks int
	// todosChanged says the model wrote its task list in this run, and
	// todosReminded that it was reminded of the items it left.
	todosChanged, todosReminded bool
	// mu guards done while subagents run beside each other.
	mu sync.Mutex
	// asking puts the questions of subagents side by side one at a time.
	asking sync.Mutex
	// single says the run is one caller's call (Agent.Call), not a
	// prompt's: there is no run for a question to end.
	single bool
}

// Run sends prompt, continuing conv, and works until the model is done or a
// limit stops it. Every event goes to emit, the last one a done event,
// whose summary Run also returns. Whatever happens, conv is left valid: each
// tool call of it has its result.
func (a *Agent) Run(ctx context.Context, conv *Conversation, prompt string, emit func(Event)) Done {
	r := &run{a: a, conv: conv, emit: serialized(emit), loops: loopDetector{off: !a.cfg.LoopDetection}}
	r.refreshSpecs()
	r.done.Priced = a.cfg.Price != nil
	for _, n := range a.cfg.Notices {
		r.notice(n)
	}
	extra, blocked := r.startHooks(ctx, prompt)
	if blocked {
		conv.attached = nil // the images go with the prompt they came with
		d := r.done
		emit(Event{Type: EventDone, Done: &d})
		return d
	}
	conv.appendPrompt(prompt + extra)
	r.loop(ctx)
	for r.stopHooks(ctx) {
		r.loop(ctx)
	}
	if notes := conv.Repair(); len(notes) > 0 {
		r.notice("conversation repaired: " + strings.Join(notes, "; "))
	}
	d := r.done
	emit(Event{Type: EventDone, Done: &d})
	return d
}

// loop is the turns of a run; it fills r.done.
func (r *run) loop(ctx context.Context) {
	for {
		if r.done.Turns >= r.a.cfg.MaxTurns {
			r.done.Reason = ReasonMaxTurns
			return
		}
		if notes := r.conv.Repair(); len(notes) > 0 {
			r.notice("conversation repaired before sending: " + strings.Join(notes, "; "))
		}
		if r.fitWindow(ctx) {
			return
		}
		msg, err := r.request(ctx)
		if err != nil && llm.IsContextOverflow(err) && ctx.Err() == nil {
			// The window is smaller than forge knew, or unknown: compact to
			// fit what was just refused, then try once more.
			r.done.Turns--
			if r.refitAfterOverflow(ctx, err) {
				return
			}
			msg, err = r.request(ctx)
			if err != nil && llm.IsContextOverflow(err) {
				r.noteOverflow(err)
				r.stopForContext(r.estimate())
				return
			}
		}
		if err != nil {
			r.fail(ctx, err)
			return
		}
		r.conv.append(msg)
		r.reportLogError()
		if t := llm.ReasoningText(msg.Reasoning); t != "" {
			r.emit(Event{Type: EventThinking, Text: t})
		}
		if msg.Text != "" {
			r.done.Text = visibleText(msg.Text, r.a.cfg.ToolFormat)
			r.emit(Event{Type: EventText, Text: r.done.Text})
		}
		if why := r.spent(); why != "" && len(msg.ToolCalls) > 0 {
			r.stopForBudget(why, msg.ToolCalls)
			return
		}
		if len(msg.ToolCalls) > 0 {
			if stop := r.runCalls(ctx, msg.ToolCalls); stop {
				return
			}
		}
		if len(r.parseErrs) > 0 {
			r.conv.append(llm.Message{Role: llm.RoleUser, Text: unreadableCalls(r.parseErrs)})
			r.parseErrs = nil
			continue
		}
		if len(msg.ToolCalls) == 0 {
			if r.remindTodos() {
				continue
			}
			r.done.Reason = ReasonStop
			return
		}
	}
}

// request sends the conversation and returns the assistant's message.
func (r *run) request(ctx context.Context) (llm.Message, error) {
	r.done.Turns++
	r.done.Requests++
	r.emit(Event{Type: EventRequest})
	r.refreshSpecs()
	req := r.a.buildRequest(r.conv.Messages, r.specs)
	resp, err := r.a.cfg.Model.Stream(ctx, req, func(d llm.Delta) {
		if d.Thinking != "" {
			r.emit(Event{Type: EventThoughtDelta, Text: d.Thinking})
		}
		if d.Text != "" {
			r.emit(Event{Type: EventTextDelta, Text: d.Text})
		}
	})
	if err != nil {
		return llm.Message{}, err
	}
	r.addUsage(resp.Usage)
	r.counted(resp.Usage)
	r.done.Model = resp.Model
	if r.done.Model == "" {
		r.done.Model = r.a.cfg.ModelName
	}
	msg := resp.Message
	msg.Role = llm.RoleAssistant
	if r.a.cfg.ToolFormat == FormatXML {
		msg.ToolCalls = r.textCalls(msg.Text)
	}
	return msg, nil
}

// fail ends the run on a request that failed.
func (r *run) fail(ctx context.Context, err error) {
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		r.done.Reason = ReasonCancelled
		return
	}
	r.done.Reason, r.done.Err = ReasonError, err
}

// reportLogError tells the person, once, that the session log failed:
// the conversation goes on, but a resume would miss what followed.
func (r *run) reportLogError() {
	if err := r.conv.logErr; err != nil && !r.logReported {
		r.logReported = true
		r.notice("the session log could not be written: " + err.Error())
	}
}

// notice emits a notice event.
func (r *run) notice(text string) { r.emit(Event{Type: EventNotice, Text: text}) }

// serialized is emit made safe to call from subagents running side by
// side: a printer writes one event at a time.
func serialized(emit func(Event)) func(Event) {
	var mu sync.Mutex
	return func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		emit(e)
	}
}

// toolSpecs are the tools offered to the model: all of the registry's, or
// only the read-only ones in plan mode (with those that run in its
// read-only sandbox, when there is one) and to a subagent, which is not
// offered Task either; only those in the Scope, when there is one.
func (a *Agent) toolSpecs() []llm.ToolSpec {
	reg := a.cfg.Executor.Registry()
	plan := a.planMode()
	readOnly := a.cfg.readOnly || plan
	var specs []llm.ToolSpec
	for _, t := range reg.ListAll() {
		offered := !readOnly || tools.IsReadOnly(t) || (plan && !a.cfg.readOnly && a.cfg.ReadOnlySandbox != nil && tools.RunsConfined(t))
		if !offered || (a.cfg.depth > 0 && t.Name() == TaskToolName) || !a.cfg.Scope.Offers(t.Name()) {
			continue
		}
		d := tools.Describe(t)
		if t.Name() == TaskToolName {
			d = taskDescriptorFor(a.cfg.Subagents)
		}
		specs = append(specs, llm.ToolSpec{Name: d.Name, Description: d.Description, InputSchema: tools.InputSchema(d)})
	}
	return append(specs, a.ownSpecs()...)
}

// refreshSpecs makes the tools offered those of the approval mode, when
// it changed since they were made.
func (r *run) refreshSpecs() {
	m := r.a.mode()
	if r.specs != nil && m == r.specsMode {
		return
	}
	r.specs, r.specsMode = r.a.toolSpecs(), m
}

// mode is the policy's approval mode; ask without a policy.
func (a *Agent) mode() permission.Mode {
	if a.cfg.Policy == nil {
		return permission.ModeAsk
	}
	return a.cfg.Policy.Mode()
}

// planMode says the policy's mode is plan.
func (a *Agent) planMode() bool {
	return a.cfg.Policy != nil && a.cfg.Policy.Mode() == permission.ModePlan
}

// sandbox is the sandbox the agent's calls run in: plan mode's read-only
// one in plan mode; nil for none.
func (a *Agent) sandbox() tools.Sandbox {
	if a.planMode() {
		return a.cfg.ReadOnlySandbox
	}
	return a.cfg.Sandbox
}

// buildRequest is the request for msgs: native tool calling, or the text
// format (no tools sent; calls and results as text).
func (a *Agent) buildRequest(msgs []llm.Message, specs []llm.ToolSpec) llm.Request {
	system := a.cfg.System
	if a.planMode() && a.cfg.depth == 0 {
		system += planModePrompt
	}
	req := llm.Request{Model: a.cfg.ModelName, System: system, Messages: msgs, Tools: specs, MaxTokens: a.cfg.MaxAnswerTokens,
		Effort: a.cfg.Effort, CacheKey: a.cfg.Exec.SessionID}
	if !llm.TakesImages(a.cfg.ModelName) {
		req.Messages = llm.WithoutImages(msgs, a.cfg.ModelName)
	}
	if a.cfg.ToolFormat != FormatXML {
		return req
	}
	req.Tools = nil
	req.System = system + "\n" + llm.TextToolPrompt(specs)
	req.Messages = textMessages(req.Messages)
	return req
}

// visibleText is an assistant's text as the person reads it: in the text
// format, without the call blocks.
func visibleText(text string, f Format) string {
	if f != FormatXML {
		return strings.TrimSpace(text)
	}
	var b strings.Builder
	for {
		i := strings.Index(text, "<tool>")
		if i < 0 {
			b.WriteString(text)
			break
		}
		b.WriteString(text[:i])
		j := strings.Index(text[i:], "</tool>")
		if j < 0 {
			break
		}
		text = text[i+j+len("</tool>"):]
	}
	return strings.TrimSpace(b.String())
}

// String names a reason for messages.
func (r Reason) String() string { return string(r) }

// Summary is one line on how a run ended, for the person.
func (d Done) Summary() string {
	switch d.Reason {
	case ReasonMaxTurns:
		return fmt.Sprintf("stopped after %d model requests (--max-turns)", d.Turns)
	case ReasonLoop:
		return "stopped: the model kept repeating the same calls"
	case ReasonContext:
		if d.Err != nil {
			return "stopped: " + d.Err.Error()
		}
		return "stopped: the conversation does not fit the model's window"
	case ReasonBudget:
		if d.Err != nil {
			return "stopped: " + d.Err.Error()
		}
		return "stopped: the prompt's budget is spent"
	case ReasonCancelled:
		return "cancelled"
	case ReasonHook:
		if d.Err != nil {
			return "the prompt was blocked by a hook: " + firstLine(d.Err.Error())
		}
		return "the prompt was blocked by a hook"
	case ReasonError:
		if d.Err != nil {
			return d.Err.Error()
		}
		return "the model request failed"
	}
	return ""
}
