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
	// Width is the terminal's width; lines are cut to it. 0 is 80.
	Width int
	// Prompt is what each prompt is shown after, as the shell showed it.
	Prompt string
	// ParamOrder gives a tool's declared parameters, so that a call is
	// named by what it acts on (Read(main.go)); nil names it alone.
	ParamOrder func(tool string) []string
}

// Recap is the last exchanges of a conversation as the shell showed them:
// each prompt after the shell's prompt, a line per tool call, and the
// start of the model's answer, so that a resumed conversation picks up
// on screen where it left off. It is plain text, "" for no prompt.
func Recap(msgs []llm.Message, opts RecapOptions) string {
	width := opts.Width
	if width <= 0 {
		width = 80
	}
	start := len(msgs)
	for n := 0; start > 0 && n < max(opts.Exchanges, 1); {
		start--
		if msgs[start].Role == llm.RoleUser {
			n++
		}
	}
	var b strings.Builder
	for _, m := range msgs[start:] {
		switch m.Role {
		case llm.RoleUser:
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			recapPrompt(&b, m.Text, opts.Prompt, width)
		case llm.RoleAssistant:
			recapLines(&b, sanitizeText(m.Text), "", recapAnswerLines, width)
			for _, c := range m.ToolCalls {
				b.WriteString(clip("● "+callName(c, opts.ParamOrder), width) + "\n")
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// recapPrompt writes one prompt, noting a compaction it was joined to.
func recapPrompt(b *strings.Builder, text, prompt string, width int) {
	if rest, ok := agent.CutSummary(text); ok {
		b.WriteString("(the conversation before was compacted into a summary)\n")
		text = rest
	}
	recapLines(b, sanitizeText(text), prompt, recapPromptLines, width)
}

// recapLines writes at most n lines of text, the first after lead, each
// cut to width, and how many more there were.
func recapLines(b *strings.Builder, text, lead string, n, width int) {
	if text = strings.TrimSpace(text); text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if i == n {
			if more := len(lines) - n; more == 1 {
				b.WriteString("… 1 more line\n")
			} else {
				fmt.Fprintf(b, "… %d more lines\n", more)
			}
			return
		}
		if i == 0 {
			l = lead + l
		}
		b.WriteString(clip(l, width) + "\n")
	}
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
