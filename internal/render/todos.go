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
		mark, text, style := todoPendingMark, t.Content, r.st.name
		switch t.Status {
		case agent.TodoCompleted:
			mark, style = todoDoneMark, r.st.label
		case agent.TodoInProgress:
			mark, style = todoCurrentMark, r.st.title
			if t.ActiveForm != "" {
				text = t.ActiveForm
			}
		}
		line := Fit("  "+mark+" "+oneLineText(text), r.cols)
		b.WriteString("\n")
		if t.Status == agent.TodoPending {
			b.WriteString(line)
			continue
		}
		b.WriteString(r.paintLines(style, line))
	}
	return b.String()
}
