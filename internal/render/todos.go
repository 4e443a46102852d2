package render

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/agent"
)

// The marks of a task list's items: done, under way, to do.
const (
	todoDoneMark    = "✓"
	todoCurrentMark = "▸"
	todoPendingMark = "○"
)

// TodoList is a task list as the shell shows it: a line saying how far
// along it is, then a line per item, the one under way marked and named
// as it is being done ("Running the tests"), each fitted to the terminal.
func (r *Renderer) TodoList(ts agent.Todos) string {
	if len(ts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(r.paint(r.st.label, fmt.Sprintf("Tasks · %d of %d done", ts.Done(), len(ts))))
	for _, t := range ts {
		b.WriteString("\n")
		switch t.Status {
		case agent.TodoCompleted:
			b.WriteString(r.paintLines(r.st.label, todoLine(todoDoneMark, t.Content, r.cols)))
		case agent.TodoInProgress:
			text := t.Content
			if t.ActiveForm != "" {
				text = t.ActiveForm
			}
			b.WriteString(r.paintLines(r.st.title, todoLine(todoCurrentMark, text, r.cols)))
		default:
			b.WriteString(todoLine(todoPendingMark, t.Content, r.cols))
		}
	}
	return b.String()
}

// todoLine is one item of a task list, made safe and fitted to cols.
func todoLine(mark, text string, cols int) string {
	return Fit("  "+mark+" "+oneLineText(text), cols)
}
