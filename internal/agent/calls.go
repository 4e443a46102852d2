package agent

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// askQuestion is the tool that puts a question to the person: with someone
// to answer it runs and the answer goes back to the model; with nobody, the
// run ends with the question as its final text.
const askQuestion = "ask_question"

// pending is one call of a turn on its way to a result.
type pending struct {
	llm  llm.ToolCall
	call Call
	tool tools.Tool // nil when the name is unknown
	res  *CallResult
	// ran says the executor ran (or refused) it, so its result is final.
	ran bool
	// reported says its result event was emitted.
	reported bool
	// asked says the person was asked about it, and so has seen what it
	// would do.
	asked bool
	// ends says the call ended the run, having set how (a plan put to
	// nobody: it is the final answer).
	ends bool
	// judged are where the policy judged the call's paths to be
	// (tools.ExecutionContext.Judged); nil without a policy.
	judged []string
}

// runCalls answers every call of one assistant message, in order, and
// appends the results to the conversation. Consecutive read-only calls run
// concurrently; the others one at a time, in order, each after its
// approval. It reports whether the run must stop (a loop-breaking tool, a
// loop, a cancellation), having set r.done.
func (r *run) runCalls(ctx context.Context, calls []llm.ToolCall) bool {
	ps := make([]*pending, len(calls))
	for i, c := range calls {
		ps[i] = r.prepare(c)
		call := ps[i].call // a hook may rewrite p's arguments: the event keeps the model's
		r.emit(Event{Type: EventToolCall, Call: &call})
	}
	stop := false
	for i := 0; i < len(ps) && !stop; {
		j := i + 1
		if r.concurrent(ps[i]) {
			for j < len(ps) && r.concurrent(ps[j]) {
				j++
			}
		}
		stop = r.runBatch(ctx, ps[i:j])
		i = j
	}
	for _, p := range ps {
		if p.res == nil { // not reached: the run stopped before it
			p.res = refusedFor(StatusCancelled, cancelledResult, "cancelled")
		}
		r.report(p)
		msg := toolMessage(p.llm, forModel(p.res.Output), p.res.Status != StatusSuccess)
		msg.Result.Images = llmImages(p.res.Result.Images)
		r.conv.appendResult(msg, p.res.Output)
	}
	r.narrowForSkills(ps)
	if !stop && ctx.Err() != nil {
		r.done.Reason, stop = ReasonCancelled, true
	}
	return stop
}

// prepare decodes a call and finds its tool.
func (r *run) prepare(c llm.ToolCall) *pending {
	p := &pending{llm: c, call: Call{ID: c.ID, Name: c.Name, Raw: c.Arguments}}
	if args, err := tools.DecodeArgs(c.Arguments); err == nil {
		p.call.Args = args
	}
	t, ok := r.a.cfg.Executor.Registry().Get(c.Name)
	if !ok {
		t, ok = r.a.ownTool(c.Name)
	}
	if ok {
		p.tool = t
		p.call.Args = tools.AdoptArgs(t, p.call.Args)
		p.call.ReadOnly = tools.IsReadOnly(t)
		p.call.Sandboxed = r.sandboxFor(p) != nil
	}
	return p
}

// sandboxFor is the sandbox p's commands run in; nil when p's tool does
// not run confined, the call asks to leave the sandbox, or there is none.
func (r *run) sandboxFor(p *pending) tools.Sandbox {
	sb := r.a.sandbox()
	if sb == nil || p.tool == nil || !tools.RunsConfined(p.tool) || tools.LeavesSandbox(p.call.Args) {
		return nil
	}
	return sb
}

// concurrent says p may run beside its neighbours: a read-only tool that
// will not ask the person anything. The Task tool counts as read-only, but
// a subagent whose profile gives it tools that write does not: two of them
// side by side could lose each other's edits, and their checkpoints would
// interleave.
func (r *run) concurrent(p *pending) bool {
	if p.tool == nil || !p.call.ReadOnly || p.call.Name == askQuestion || r.isOwn(p) {
		return false
	}
	if p.call.Name == TaskToolName && p.call.Args != nil {
		prof, err := r.a.profile(p.call.Args.String("subagent_type"))
		return err != nil || !r.a.subagentWrites(prof)
	}
	return true
}

// runBatch runs calls that may run together (or one call alone) and
// reports whether the run must stop.
func (r *run) runBatch(ctx context.Context, batch []*pending) bool {
	var ready []*pending
	for _, p := range batch {
		if ctx.Err() != nil {
			return false // the rest are answered as cancelled
		}
		if stop := r.admit(ctx, p); stop {
			return true
		}
		if p.res == nil {
			ready = append(ready, p)
		}
	}
	var wg sync.WaitGroup
	for _, p := range ready {
		if len(ready) == 1 {
			r.execute(ctx, p)
			break
		}
		wg.Go(func() { r.execute(ctx, p) })
	}
	wg.Wait()
	stop := false
	for _, p := range batch {
		r.report(p)
		if p.ran && !stop {
			stop = r.breaksLoop(p)
		}
	}
	return stop
}

// report emits p's result once it has one, and only once.
func (r *run) report(p *pending) {
	if p.res == nil || p.reported {
		return
	}
	p.reported = true
	r.emit(Event{Type: EventToolResult, Call: &p.call, Result: p.res})
}

// admit decides whether p may run: loop detection, then the policy and
// the person. It leaves p.res nil for a call to execute, sets it for a call
// refused, and reports whether the run must stop.
func (r *run) admit(ctx context.Context, p *pending) bool {
	switch v, msg := r.loops.check(p.call); v {
	case loopStop:
		p.res = refusedFor(StatusFailed, msg, "not run: the model kept repeating this call")
		r.done.Reason = ReasonLoop
		return true
	case loopWarn:
		p.res = refusedFor(StatusFailed, msg+loopAdvice, "not run: a repeated call; the model was told to change course")
		r.notice("the model repeats itself: " + msg)
		return false
	}
	if p.tool == nil || p.call.Args == nil || !r.valid(p) {
		return false // the executor answers with the error, for the model to correct
	}
	if r.a.cfg.readOnly && !p.call.ReadOnly {
		p.res = refusedFor(StatusDenied, "Denied: a subagent may only use read-only tools. Report what should change instead; "+
			"the agent that started you decides.", "denied: a subagent may only read")
		return false
	}
	// The scope is checked here, before any hook sees the call, and again
	// in approve on the arguments a hook may have rewritten.
	if r.outOfScope(p, r.permissionCall(p)) {
		return false
	}
	if r.a.cfg.depth > 0 && p.call.Name == TaskToolName {
		p.res = refusedFor(StatusDenied, "Denied: a subagent cannot start subagents; do the work yourself.", "denied: subagents start none")
		return false
	}
	if p.call.Name == askQuestion && r.a.cfg.Exec.Asker == nil && !r.single {
		r.endWithQuestion(p)
		return true
	}
	hook := r.preToolUse(ctx, p)
	if p.res != nil {
		return false
	}
	return r.approve(ctx, p, hook)
}

// valid says p's arguments satisfy its tool's parameters: an invalid call
// is not put to the person, the executor reports it to the model.
func (r *run) valid(p *pending) bool {
	_, verr := tools.ValidateFor(p.tool, p.call.Args)
	return verr == nil
}

// approve applies the scope and the policy to p as it will run (after any
// hook's rewrite), asking the person when the policy says so; a refusal
// sets p.res. hook is what the PreToolUse hooks said: their allow skips
// the question but not a deny rule or the scope; their ask puts the
// question even when the policy allows the call (yolo included). It
// reports whether the run must stop: the person interrupted the question
// (Ctrl-C), which cancels the turn as it would while a tool runs.
func (r *run) approve(ctx context.Context, p *pending, hook hooks.Decision) bool {
	pol := r.a.cfg.Policy
	pc := r.permissionCall(p)
	if r.outOfScope(p, pc) {
		return false // a hook's rewrite took the call outside the scope
	}
	v := permission.Verdict{Decision: permission.Allow}
	if pol != nil {
		v = pol.Decide(pc)
		p.judged = v.Judged
	}
	switch {
	case v.Decision == permission.Deny:
		p.res = refused(StatusDenied, "Denied: "+v.Reason)
		return false
	case r.unchanged(p):
		return false // nothing to ask about, or to do
	case hook == hooks.Allow && !v.Protected:
		return false
	case hook == hooks.Ask:
		v.Decision, v.Reason, v.Why = permission.Ask, "a hook asks for your approval", ""
	case v.Decision == permission.Allow:
		return false
	}
	if r.a.cfg.Approver == nil {
		if hook == hooks.Ask {
			p.res = refusedFor(StatusDenied, "Denied: a PreToolUse hook asks for the person's approval of this call, and nobody can "+
				"give it here ("+r.a.unasked()+"). Do something else, or leave this step to the person.",
				"denied: a hook asks for approval, and there is "+r.a.nobody())
			return false
		}
		p.res = refusedFor(StatusDenied, unapproved(v.Reason, r.a.unasked()), "needs approval, and there is "+r.a.nobody()+": "+v.Reason)
		return false
	}
	r.emit(Event{Type: EventApproval, Call: &p.call})
	p.asked = true
	ans, feedback, err := askApprover(ctx, r.a.cfg.Approver, Approval{Call: p.call, Tool: p.tool, Exec: r.a.cfg.Exec, Reason: v.AskReason(), Always: v.Always})
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled)):
		p.res = refusedFor(StatusCancelled, cancelledResult, "cancelled")
		r.done.Reason = ReasonCancelled
		return true
	case err != nil:
		p.res = refusedFor(StatusDenied, "Denied: the approval could not be asked: "+err.Error(), "denied: no answer ("+err.Error()+")")
	case ans == Reject && strings.TrimSpace(feedback) != "":
		words := strings.TrimSpace(feedback)
		p.res = refusedFor(StatusDenied, "Denied: the person refused this call and said: \""+words+"\""+
			". Take this into account: do not retry the call unchanged.", "denied by you: "+words)
	case ans == Reject:
		p.res = refusedFor(StatusDenied, "Denied: the person refused this call. Do not retry it unchanged; ask or do something else.", "denied by you")
	case ans == AllowAlways && pol != nil:
		pol.Remember(pc)
	}
	return false
}

// permissionCall is p as the policy judges it, with its arguments as they
// stand (a hook may have rewritten them), where it would send data and
// how the sandbox confines it.
func (r *run) permissionCall(p *pending) permission.Call {
	eg := tools.EgressOf(p.tool, r.a.cfg.Exec, p.call.Args)
	c := permission.Call{Tool: p.call.Name, Args: p.call.Args, ReadOnly: p.call.ReadOnly, EditsFiles: editsFiles(p.tool),
		Hosts: eg.Hosts, OpenWorld: eg.OpenWorld}
	if sb := r.a.sandbox(); sb != nil && p.tool != nil && tools.RunsConfined(p.tool) {
		c.Sandbox = permission.SandboxWorkspace
		if sb.ReadOnly() {
			c.Sandbox = permission.SandboxReadOnly
		}
		c.LeavesSandbox = tools.LeavesSandbox(p.call.Args)
	}
	p.call.Sandboxed = c.Sandbox != permission.SandboxNone && !c.LeavesSandbox
	return c
}

// outOfScope refuses c, p's call as it would run, when the scope does
// not allow it.
func (r *run) outOfScope(p *pending, c permission.Call) bool {
	ok, why := r.a.cfg.Scope.Allows(c)
	if !ok {
		p.res = refused(StatusDenied, "Denied: "+why+".")
	}
	return !ok
}

// unapproved is the result of a call that needed approval with nobody to
// give it: why, and how the person can allow such calls (once: the
// policy's reason often says it already). unasked says why nobody can.
func unapproved(reason, unasked string) string {
	msg := "Denied: this call needs approval and nobody can give it here (" + unasked + "): " + reason + "."
	switch {
	case strings.Contains(reason, "--approval"):
	case strings.Contains(reason, "allow rule"):
		msg += " Rules go in permissions.allow in the configuration; --approval yolo allows everything."
	default:
		msg += " To allow such calls, add a rule to permissions.allow in the configuration, or run forge with" +
			" --approval yolo (everything) or --approval auto-edit (file edits in the working directory)."
	}
	return msg
}

// unasked says why nobody can answer the agent's questions: the
// caller's words, or that there is no terminal.
func (a *Agent) unasked() string {
	if a.cfg.Unasked != "" {
		return a.cfg.Unasked
	}
	return "no terminal"
}

// nobody is unasked for the person's line: "no terminal to ask".
func (a *Agent) nobody() string {
	if a.cfg.Unasked != "" {
		return a.cfg.Unasked
	}
	return "no terminal to ask"
}

// editsFiles says t changes files (auto-edit mode allows those inside the
// working directory).
func editsFiles(t tools.Tool) bool {
	if tools.IsReadOnly(t) {
		return false
	}
	c := t.Category()
	return c == tools.CategoryFile || c == tools.CategoryNotebook
}

// execute runs p through the executor and sets its result.
func (r *run) execute(ctx context.Context, p *pending) {
	defer r.postToolUse(ctx, p)
	// An invalid Task call goes to the executor, which words the error for
	// the model, rather than starting a subagent without a prompt.
	// An agent without a model (one running a caller's single calls) lets
	// the registry's Task tool start the subagent.
	if p.call.Name == TaskToolName && r.a.cfg.depth == 0 && r.a.cfg.Model != nil && p.tool != nil && p.call.Args != nil && r.valid(p) {
		r.emit(Event{Type: EventToolStart, Call: &p.call})
		r.runSubagent(ctx, p)
		return
	}
	afterCall, err := r.checkpoint(p)
	if err != nil {
		p.res = notCheckpointed(err)
		return
	}
	change := r.changeToShow(p)
	ec, live := r.callContext(p)
	r.emit(Event{Type: EventToolStart, Call: &p.call})
	var res tools.Result
	ec.Sandbox = r.a.sandbox() // a tool that runs confined honours the call's sandbox: false
	ec.Judged = p.judged
	exec := r.a.cfg.Executor
	if r.isOwn(p) {
		// The agent's own tools change the run, not the world: a dry run
		// runs them, so that it still shows the plan and the task list.
		exec, ec.DryRun = r.a.own, false
	}
	if p.call.Args != nil {
		res = exec.Execute(ctx, p.call.Name, ec, p.call.Args)
	} else {
		// Not a JSON object: the executor words the error for the model.
		res = exec.ExecuteJSON(ctx, p.call.Name, ec, p.call.Raw)
	}
	live.close()
	p.ran = true
	p.res = outcome(p.call.Name, res, r.offered)
	keepPrinted(p.res, live)
	if change != nil && res.Status == tools.StatusSuccess {
		p.res.Change, p.res.ChangeSeen = change, p.asked
	}
	if r.isOwn(p) {
		r.ownEffects(ctx, p)
	}
	afterCall()
}

// breaksLoop ends the run after a loop-breaking tool that succeeded: its
// output is the final answer. ask_question with someone to answer is not
// one: the answer goes back to the model.
func (r *run) breaksLoop(p *pending) bool {
	if p.ends {
		return true
	}
	if p.tool == nil || !tools.IsLoopBreaking(p.tool) || p.res.Status != StatusSuccess || p.call.Name == askQuestion {
		return false
	}
	r.done.Reason, r.done.Text = ReasonStop, p.res.Output
	return true
}

// endWithQuestion ends a run that has nobody to ask: the question is the
// final text, and the model learns that the answer comes as the next
// message.
func (r *run) endWithQuestion(p *pending) {
	q := p.call.Args.String("question")
	for i, o := range p.call.Args.Strings("options") {
		q += "\n  " + string(rune('1'+i)) + ". " + o
	}
	p.res = &CallResult{Status: StatusSuccess,
		Output: "The question was given to the person as this task's final answer; their reply, if any, comes as the next message."}
	r.done.Reason, r.done.Text = ReasonStop, q
}

// refused is the result of a call that did not run, its message for the
// model and the person alike.
func refused(s Status, msg string) *CallResult { return refusedFor(s, msg, msg) }

// refusedFor is refused with a message for the model (what to do next)
// and a shorter one for the person.
func refusedFor(s Status, model, person string) *CallResult {
	return &CallResult{Status: s, Output: model, Error: person}
}

// outcome turns an executor result into a call result for the model.
func outcome(name string, res tools.Result, offered func() []string) *CallResult {
	out := &CallResult{Result: res, Output: res.Display()}
	switch res.Status {
	case tools.StatusSuccess, tools.StatusDryRun:
		out.Status = StatusSuccess
	case tools.StatusTimedOut:
		out.Status = StatusTimedOut
	case tools.StatusCancelled:
		out.Status = StatusCancelled
	default:
		out.Status = StatusFailed
	}
	if res.Status != tools.StatusSuccess && res.Status != tools.StatusDryRun {
		out.Error = res.Error
	}
	if res.ErrorKind == tools.KindUnknownTool {
		names := offered() // only here: most results need no list of tools
		if s := tools.Suggest(name, names, 3); len(s) > 0 {
			out.Output += ". Did you mean " + joinOr(s) + "?"
		} else {
			out.Output += ". The tools you can call are: " + strings.Join(names, ", ") + "."
		}
	}
	return out
}

func joinOr(xs []string) string {
	switch len(xs) {
	case 1:
		return xs[0]
	case 2:
		return xs[0] + " or " + xs[1]
	}
	out := ""
	for i, x := range xs {
		switch {
		case i == len(xs)-1:
			out += ", or " + x
		case i > 0:
			out += ", " + x
		default:
			out += x
		}
	}
	return out
}

// offered are the names of the tools the model was offered.
func (r *run) offered() []string {
	names := make([]string, len(r.specs))
	for i, s := range r.specs {
		names[i] = s.Name
	}
	return names
}
