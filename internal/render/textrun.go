package render

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/tools"
)

// Run starts the view of an agent run. On a terminal the model's text
// appears as it streams, its Markdown rendered, with a spinner while the
// model thinks; otherwise only the final answer is written, when the run
// ends, so that a pipe receives the answer and nothing else. Each call gets
// a compact line; a failed call expands to its panel.
func (p textPrinter) Run(_ RunInfo, opts RunOptions) RunView {
	v := &runView{p: p, opts: opts, progress: p.Out}
	if opts.ProgressToErr {
		v.progress = p.Err
	}
	if p.Terminal {
		v.md = newMarkdownStream(p.Renderer)
		v.live = newLiveArea(p.Out, &v.mu, p.Renderer, p.Cols)
	}
	return v
}

// runView is the text view of one run.
type runView struct {
	p        textPrinter
	opts     RunOptions
	progress io.Writer
	md       markdownStream // nil: not streaming (a pipe)
	// live is the spinner and the running calls' output, redrawn in
	// place on a terminal; nil otherwise.
	live    *liveArea
	mu      sync.Mutex // orders the live area's writes with the view's
	midLine bool       // streamed text ended without a newline
	// thinking says a model request is under way, and nothing came yet.
	thinking bool
	// running are the calls under way, in the order they started;
	// paused says one of them is asking the person something.
	running []*runningCall
	paused  bool
	// shownText is the last message's text as it streamed, to tell
	// whether the final answer was already shown (it was not when a
	// loop-breaking tool such as task_completion gave it).
	shownText string
	// nested says the line being written is a subagent's.
	nested bool
	// thought is the model's thinking as it streams, shown dimmed in the
	// live area until it ends, then folded to one line; nil when the
	// model is not thinking.
	thought      *tailBuffer
	thoughtStart time.Time
}

// markdownStream turns streamed Markdown into terminal text, block by
// block.
type markdownStream interface {
	Write(delta string) string
	Flush() string
}

func (v *runView) Event(e agent.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch {
	case e.Type == agent.EventToolOutput:
		v.output(e)
		return
	case e.Type == agent.EventToolProgress:
		if e.Progress != nil {
			e.Text = progressLine(*e.Progress)
			v.output(e)
		}
		return
	case e.Type == agent.EventThoughtDelta:
		v.think(e)
		return
	case e.ParentID != "" && e.Type == agent.EventRequest:
		return // the Task call it works for shows as running
	}
	// Anything else is written above the live area: erase it first, and
	// draw it again below once written.
	v.thinking = e.Type == agent.EventRequest
	v.live.erase()
	if e.ParentID == "" {
		v.foldThought()
	}
	defer v.redraw()
	switch e.Type {
	case agent.EventToolStart:
		v.paused = false
		if e.ParentID == "" {
			v.started(e.Call)
		}
		return
	case agent.EventToolQuestion, agent.EventApproval, agent.EventPlan:
		// The person is asked something: nothing may draw over it.
		v.paused = true
		v.announce(e.ParentID)
		return
	}
	if e.ParentID != "" {
		v.subagentEvent(e)
		return
	}
	switch e.Type {
	case agent.EventTextDelta:
		if v.md != nil {
			v.write(v.p.Out, v.md.Write(e.Text))
		}
	case agent.EventText:
		if v.md != nil {
			v.write(v.p.Out, v.md.Flush())
			v.endLine(v.p.Out)
			v.shownText = e.Text
		}
	case agent.EventToolResult:
		rc := v.finished(e.Call)
		if v.p.Terminal && e.Result.Status == agent.StatusSuccess && (e.Call.Name == agent.TodoToolName || e.Call.Name == agent.PlanToolName) {
			// Shown otherwise: the list it wrote (EventTodo), the plan
			// the person just approved.
			return
		}
		v.result(e.Call, e.Result, rc)
	case agent.EventTodo:
		if v.p.Terminal {
			v.line(v.progress, v.p.Renderer.TodoList(e.Todos))
		}
	case agent.EventCompaction:
		v.line(v.progress, v.p.Renderer.paint(v.p.Renderer.st.hint, "note: conversation "+oneLineText(e.Text)))
	case agent.EventNotice:
		v.line(v.progress, v.p.Renderer.paint(v.p.Renderer.st.hint, "note: "+oneLineText(e.Text)))
	case agent.EventHook:
		v.hook(e.Hook)
	case agent.EventDone:
		v.done(e.Done)
	}
}

// result shows a call's outcome: a short line, with a preview of what it
// did on a terminal, or the panel of a failure. rc is the call as it ran,
// nil when it did not run here.
func (v *runView) result(c *agent.Call, r *agent.CallResult, rc *runningCall) {
	r0 := v.p.Renderer
	switch {
	case r.Status == agent.StatusSuccess && v.p.Terminal:
		v.lines(v.progress, r0.callLines(v.successPreview(c, r), v.cols()))
	case r.Status == agent.StatusSuccess:
		v.line(v.progress, "✓ "+v.headline(c)+v.sandboxTag(c))
		v.sandboxNotes(r)
	case r.Status == agent.StatusCancelled && v.p.Terminal:
		// The terminal echoed ^C where the cursor was: write over it.
		_, _ = io.WriteString(v.progress, "\r")
		cp := callPreview{Glyph: "⊘", Headline: v.headline(c), Note: ": cancelled", Bare: true}
		if rc != nil && rc.tail.lineCount() > 0 {
			// What it printed until then stays in view (the model has it
			// too, in the call's result).
			cp.Bare, cp.Tail = false, rc.tail.last(previewLines)
			cp.TailMore = rc.tail.lineCount() - len(cp.Tail)
		}
		v.lines(v.progress, r0.callLines(cp, v.cols()))
	case r.Status == agent.StatusCancelled:
		v.line(v.progress, r0.paint(r0.st.warning, "⊘ "+v.headline(c)+": cancelled"))
	case (r.Status == agent.StatusDenied || r.Result.Status == "") && v.p.Terminal:
		note := ": " + oneLineText(r.Error)
		v.lines(v.progress, r0.callHead("⊘", v.headline(c), note, r0.paint(r0.st.warning, note), r0.st.warning, v.cols()))
	case r.Status == agent.StatusDenied || r.Result.Status == "":
		v.line(v.progress, r0.paint(r0.st.warning, "⊘ "+v.headline(c)+": "+oneLineText(r.Error)))
	case !v.p.Terminal:
		v.line(v.progress, "✗ "+v.headline(c)+v.sandboxTag(c)+": "+oneLineText(r.Error))
		v.sandboxNotes(r)
	case r.Result.ErrorKind == tools.KindValidation || r.Result.ErrorKind == tools.KindUnknownTool:
		// The model's mistake, which it is told in full and corrects:
		// one line for the person, not a panel.
		v.lines(v.progress, r0.callLines(mistakePreview(v.headline(c), r.Result), v.cols()))
	default:
		call := Call{Tool: c.Name, Args: c.Args, Result: r.Result}
		if t, ok := v.lookup(c.Name); ok {
			call.Descriptor = tools.Describe(t)
			call.Presentation = tools.Present(t, c.Args, r.Result)
		}
		if f := call.Presentation.Failure; f != nil && f.Exit != "" {
			// It ran and failed: what it printed says why, as a
			// successful call's output would.
			v.lines(v.progress, r0.callLines(failedPreview(v.headline(c), r.Result, f), v.cols()))
			return
		}
		sub := textPrinter{TextOptions{Out: v.progress, Err: v.progress, Renderer: r0}}
		sub.Result(call)
	}
}

// mistakePreview is a call the model got wrong (arguments its tool does
// not take, a tool that does not exist) as its line shows it: what was
// wrong after the call, going on below when long.
func mistakePreview(headline string, res tools.Result) callPreview {
	msg := oneLineText(res.Error)
	if res.ErrorKind == tools.KindValidation && !strings.HasPrefix(msg, "Invalid ") {
		msg = "invalid arguments: " + msg
	}
	return callPreview{Glyph: "✗", Headline: headline, Note: " · " + msg, Bare: true}
}

// failedPreview is a call that ran and failed on its own terms, as its
// line shows it: how it ended and how long it took, then the last lines
// of what it printed.
func failedPreview(headline string, res tools.Result, f *tools.Failure) callPreview {
	cp := callPreview{Glyph: "✗", Headline: headline, Note: " · " + oneLineText(f.Exit)}
	if res.DurationMS > 0 {
		cp.Note += " · " + callDuration(time.Duration(res.DurationMS*float64(time.Millisecond)))
	}
	cp.Tail, cp.TailMore = previewTail(f.Error, previewTailLines)
	if len(cp.Tail) == 0 {
		cp.Tail = []string{"(no output)"}
	}
	return cp
}

// done ends the run: the final answer when it was not streamed, and why
// the run stopped when it did not finish.
func (v *runView) done(d *agent.Done) {
	switch {
	case d.Text == "" || (v.md != nil && d.Text == v.shownText):
	case v.md != nil:
		v.write(v.p.Out, v.md.Write(d.Text)+v.md.Flush())
		v.endLine(v.p.Out)
	default:
		v.write(v.p.Out, sanitizeText(d.Text))
		v.endLine(v.p.Out)
	}
	switch d.Reason {
	case agent.ReasonStop:
	case agent.ReasonError:
		msg := "Error: " + sanitizeText(d.Summary())
		if h, ok := d.Err.(interface{ Hint() string }); ok && h.Hint() != "" {
			msg += "\n" + sanitizeText(h.Hint())
		}
		v.line(v.p.Err, msg)
	default:
		v.line(v.p.Err, "forge: "+d.Summary())
	}
	if v.p.Terminal {
		v.footer(d)
	}
}

// footer is one faint line after a prompt on a terminal: what it took,
// its figures kept whole when the terminal is too narrow for the line.
func (v *runView) footer(d *agent.Done) {
	figures := usageFigures(d.Usage, d.Cost, d.Priced)
	if len(figures) == 0 {
		return
	}
	// The requests are those whose tokens and cost the figures sum: the
	// subagents' are among them, and said so.
	requests := plural(d.Requests, "request")
	if d.SubagentRequests > 0 {
		requests += fmt.Sprintf(" (%d by subagents)", d.SubagentRequests)
	}
	figures = append([]string{requests}, figures...)
	if d.Model != "" {
		figures = append([]string{d.Model}, figures...)
	}
	switch n := len(d.FilesChanged); n {
	case 0:
	case 1:
		figures = append(figures, "1 file changed ("+v.p.Renderer.Command("undo")+" reverts it)")
	default:
		figures = append(figures, fmt.Sprintf("%d files changed (%s reverts them)", n, v.p.Renderer.Command("undo")))
	}
	r0 := v.p.Renderer
	for _, l := range flow("", figures, " · ", r0.cols, 2, 2) {
		v.line(v.progress, r0.paint(r0.st.label, l))
	}
}

func (v *runView) Close() { v.live.stop() }

// sandboxTag marks a call whose commands run in forge's sandbox, which is
// why it ran without a question.
func (v *runView) sandboxTag(c *agent.Call) string {
	if !c.Sandboxed {
		return ""
	}
	return " " + v.p.Renderer.paint(v.p.Renderer.st.hint, sandboxedTag)
}

// sandboxNotes shows, under a call's one line, what the sandbox blocked
// or did about the command (a repository it set aside), which the model
// reads in the result and the person should see too.
func (v *runView) sandboxNotes(r *agent.CallResult) {
	notes, _ := r.Result.Metadata["sandbox_blocked"].(string)
	for _, l := range strings.Split(strings.TrimSpace(notes), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			v.line(v.progress, "  "+v.p.Renderer.paint(v.p.Renderer.st.hint, sanitizeText(l)))
		}
	}
}

// sandboxedTag follows the line of a call that ran in the sandbox.
const sandboxedTag = "[sandboxed]"

// cols is the room a call's lines have on a terminal: its width now,
// less the mark of a subagent's line.
func (v *runView) cols() int {
	c := v.p.Renderer.Cols()
	if v.live != nil {
		v.live.measure()
		c = v.live.cols
	}
	if v.nested {
		return c - 4 // "  ↳ "
	}
	return c
}

// headline names a call in one line: the tool and what it acts on.
func (v *runView) headline(c *agent.Call) string { return CallHeadline(c, v.opts.Lookup) }

// CallHeadline names a call in one line, as a run shows it: the tool and
// what it acts on (its first string argument), "Bash(go test ./...)",
// then what the model said the call is for, when it did ("· Run the
// tests"). lookup finds the tool's parameters; nil names the tool alone.
func CallHeadline(c *agent.Call, lookup func(name string) (tools.Tool, bool)) string {
	subject, purpose := "", ""
	if t, ok := lookupTool(lookup, c.Name); ok {
		for _, p := range t.Parameters() {
			if s, ok := c.Args[p.Name].(string); ok && s != "" {
				subject = s
				break
			}
		}
		purpose = CallPurpose(t, c.Args)
	}
	subject = clip(strings.Join(strings.Fields(subject), " "), 80)
	line := c.Name
	if subject != "" {
		line += "(" + subject + ")"
	}
	if purpose != "" {
		line += " · " + purpose
	}
	return sanitizeText(line)
}

// CallPurpose is what a call of t with args is for, in the model's words
// (Bash's description), on one line and short; "" when it said nothing.
func CallPurpose(t tools.Tool, args tools.Args) string {
	if t == nil || args == nil {
		return ""
	}
	return clip(strings.Join(strings.Fields(tools.Present(t, args, tools.Result{}).Purpose), " "), 60)
}

func (v *runView) lookup(name string) (tools.Tool, bool) { return lookupTool(v.opts.Lookup, name) }

func lookupTool(lookup func(string) (tools.Tool, bool), name string) (tools.Tool, bool) {
	if lookup == nil {
		return nil, false
	}
	return lookup(name)
}

// write writes streamed text, remembering whether it ended a line.
func (v *runView) write(w io.Writer, s string) {
	if s == "" {
		return
	}
	_, _ = io.WriteString(w, s)
	if w == v.p.Out {
		v.midLine = !strings.HasSuffix(s, "\n")
	}
}

// endLine ends a line of streamed text left open.
func (v *runView) endLine(w io.Writer) {
	if w == v.p.Out && v.midLine {
		_, _ = io.WriteString(w, "\n")
		v.midLine = false
	}
}

// line writes one line of progress, on a line of its own.
// subagentEvent shows a subagent's calls, indented under its Task call;
// its text is its report, which the Task call's result carries.
func (v *runView) subagentEvent(e agent.Event) {
	v.nested = true
	defer func() { v.nested = false }()
	v.announce(e.ParentID)
	switch e.Type {
	case agent.EventToolResult:
		v.nestedResult(e.Call, e.Result)
	case agent.EventNotice, agent.EventCompaction:
		v.line(v.progress, v.p.Renderer.paint(v.p.Renderer.st.hint, "note: "+oneLineText(e.Text)))
	case agent.EventHook:
		v.hook(e.Hook)
	}
}

// hook shows what a hook did, one line. A call a hook refused is not
// repeated: its result's line says so.
func (v *runView) hook(n *hooks.Note) {
	if n.Event == hooks.PreToolUse && n.Kind == hooks.NoteBlocked {
		return
	}
	r0 := v.p.Renderer
	style := r0.st.hint
	if n.Kind == hooks.NoteError || n.Kind == hooks.NoteBlocked || n.Kind == hooks.NoteCut {
		style = r0.st.warning
	}
	v.line(v.progress, r0.paint(style, HookLine(n)))
}

func (v *runView) line(w io.Writer, s string) {
	if v.nested {
		s = "  ↳ " + s
	}
	v.endLine(v.p.Out)
	fmt.Fprintln(w, s)
}

// newMarkdownStream is the Markdown renderer of a terminal, at the width
// and with the colours of its panels.
func newMarkdownStream(r *Renderer) markdownStream {
	return NewMarkdown(MarkdownOptions{Width: r.width, Color: r.color}).Stream()
}

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// oneLineText is the first line of an outside message, sanitised, whole.
func oneLineText(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return sanitizeText(first)
}
