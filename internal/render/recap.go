package render

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
)

// Bounds of a recap: it reminds the person where the conversation was,
// it does not reprint it.
const (
	recapPromptLines = 3
	recapAnswerLines = 6
)

// RecapOptions say how a resumed conversation is replayed.
type RecapOptions struct {
	// Exchanges is how many of the last exchanges (a prompt and what
	// answered it) are shown.
	Exchanges int
	// Width is the terminal's width; lines fit it. 0 is 80.
	Width int
	// Color styles the recap as the shell styled the conversation: its
	// answers' Markdown, its calls' marks.
	Color bool
	// Prompt is what each prompt is shown after, as the shell showed it.
	Prompt string
	// ParamOrder gives a tool's declared parameters, so that a call is
	// named by what it acts on (Read(main.go)); nil names it alone.
	ParamOrder func(tool string) []string
	// Typed maps prompts, by their text as the model got it, to what the
	// person typed (a paste as its mark, an @mention as written); a
	// prompt it does not hold is shown as the model got it.
	Typed map[string]string
	// Outcomes are how calls that did not succeed ended, by call id; a
	// call it does not hold is shown by its result (succeeded, failed,
	// cancelled).
	Outcomes map[string]CallOutcome
}

// CallOutcome is how a call ended, as the shell showed it.
type CallOutcome struct {
	Status agent.Status
	// Note is a few words on it ("denied by you"); Exit how a command
	// that ran and failed exited ("exit 1").
	Note, Exit string
}

// Recap is the last exchanges of a conversation as the shell showed them:
// each prompt after the shell's prompt as the person typed it, a line per
// tool call with how it ended, and the start of the model's answer, its
// Markdown rendered, so that a resumed conversation picks up on screen
// where it left off. It is "" for no prompt.
func Recap(msgs []llm.Message, opts RecapOptions) string {
	width := opts.Width
	if width <= 0 {
		width = 80
	}
	start := len(msgs)
	for n := 0; start > 0 && n < max(opts.Exchanges, 1); {
		start--
		if msgs[start].Role == llm.RoleUser && !agent.IsReminder(msgs[start]) {
			n++
		}
	}
	rc := recap{opts: opts, width: width, r: New(Options{Width: width, Color: opts.Color}),
		md: NewMarkdown(MarkdownOptions{Width: width, Color: opts.Color}), results: map[string]*llm.ToolResult{}}
	for _, m := range msgs[start:] {
		if m.Role == llm.RoleTool && m.Result != nil {
			rc.results[m.Result.CallID] = m.Result
		}
	}
	for _, m := range msgs[start:] {
		switch m.Role {
		case llm.RoleUser:
			if agent.IsReminder(m) {
				continue // forge's, not the person's
			}
			if rc.b.Len() > 0 {
				rc.b.WriteString("\n")
			}
			rc.prompt(m.Text)
		case llm.RoleAssistant:
			rc.answer(m.Text)
			for _, c := range m.ToolCalls {
				rc.call(c)
			}
		}
	}
	return strings.TrimRight(rc.b.String(), "\n")
}

// recap is Recap's state as it writes.
type recap struct {
	opts    RecapOptions
	width   int
	r       *Renderer
	md      *Markdown
	results map[string]*llm.ToolResult
	b       strings.Builder
}

// prompt writes one prompt as the person typed it, noting a compaction
// it was joined to.
func (rc *recap) prompt(text string) {
	typed, isTyped := rc.opts.Typed[text]
	if rest, ok := agent.CutSummary(text); ok {
		rc.b.WriteString(rc.r.paint(rc.r.st.hint, Fit("(the conversation before was compacted into a summary)", rc.width)) + "\n")
		text = rest
	}
	if isTyped {
		text = typed
	}
	lines := rc.lines(sanitizeText(strings.TrimSpace(text)), recapPromptLines)
	for i, l := range lines {
		if i == 0 {
			l = rc.opts.Prompt + l
		}
		rc.b.WriteString(clipCells(l, rc.width) + "\n")
	}
}

// answer writes the start of an answer, its Markdown rendered as the
// shell renders it.
func (rc *recap) answer(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	for _, l := range rc.lines(strings.TrimRight(rc.md.Render(text), "\n"), recapAnswerLines) {
		rc.b.WriteString(l + "\n")
	}
}

// call writes a call's line as the shell left it: its mark, its name,
// and how it ended when it did not succeed.
func (rc *recap) call(c llm.ToolCall) {
	glyph, note := "✓", ""
	res := rc.results[c.ID]
	o, ok := rc.opts.Outcomes[c.ID]
	switch {
	case ok && (o.Status == agent.StatusDenied || o.Status == agent.StatusCancelled):
		glyph, note = "⊘", colonNote(o.Note)
	case ok && o.Status == agent.StatusTimedOut:
		glyph, note = "⏱", colonNote(o.Note)
	case ok && o.Exit != "":
		glyph, note = "✗", " · "+o.Exit
	case ok:
		glyph, note = "✗", colonNote(o.Note)
	case res != nil && res.IsError && res.Content == llm.CancelledResult:
		glyph, note = "⊘", ": cancelled"
	case res != nil && res.IsError:
		glyph = "✗"
	}
	style := rc.r.st.label
	if glyph == "⊘" || glyph == "⏱" {
		style = rc.r.st.warning
	}
	note = oneLineText(note)
	for _, l := range rc.r.callHead(glyph, callName(c, rc.opts.ParamOrder), note, rc.r.paint(style, note), style, rc.width) {
		rc.b.WriteString(l + "\n")
	}
}

// colonNote is a note as a call's line ends with it: ": denied by you".
func colonNote(note string) string {
	if note == "" {
		return ""
	}
	return ": " + note
}

// lines are at most n lines of text, and how many more there were.
func (rc *recap) lines(text string, n int) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(text, "\n")
	if len(lines) <= n {
		return lines
	}
	more := "… 1 more line"
	if m := len(lines) - n; m > 1 {
		more = fmt.Sprintf("… %d more lines", m)
	}
	return append(lines[:n], rc.r.paint(rc.r.st.hint, more))
}

// callName names a call by its tool and its first string argument in the
// tool's order: Read(main.go).
func callName(c llm.ToolCall, order func(string) []string) string {
	name := sanitizeText(c.Name)
	var args map[string]any
	if order == nil || json.Unmarshal(c.Arguments, &args) != nil {
		return name
	}
	for _, p := range order(c.Name) {
		if s, ok := args[p].(string); ok && strings.TrimSpace(s) != "" {
			return name + "(" + oneLineText(strings.Join(strings.Fields(s), " ")) + ")"
		}
	}
	return name
}

// ResumedView is a conversation that goes on from a kept session, as
// the shell shows it: Header says which it is ("Continuing session …: 2
// prompts, 12 messages."), then where it left off, its last exchanges
// recapped (Recap; the width and colour are the printer's). Value is what
// it is for programs.
type ResumedView struct {
	Header   string
	Messages []llm.Message
	Recap    RecapOptions
	// Todos is the model's task list as the conversation left it.
	Todos agent.Todos
	Value any
}

// ResumedText is the text of a resumed conversation on a terminal of
// width cells (0: not a terminal, nothing is fitted), in colour or not.
func ResumedText(rv ResumedView, width int, color bool) string {
	opts := rv.Recap
	opts.Width, opts.Color = width, color
	header := sanitizeText(rv.Header)
	recap := Recap(rv.Messages, opts)
	todos := ""
	if len(rv.Todos) > 0 {
		todos = "\n" + New(Options{Width: width, Color: color}).TodoList(rv.Todos) + "\n"
	}
	if recap == "" {
		return Fit(header, width) + todos
	}
	return Fit(header+" Where it left off:", width) + "\n\n" + recap + "\n" + todos
}
