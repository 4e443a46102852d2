package render

import "strings"

// The keys that answer a plan's question, in the order it offers them.
const PlanKeys = "ykn"

// PlanQuestion is the question about a plan the model proposes in plan
// mode: the plan, its Markdown rendered for a terminal of width cells,
// then the choices: approve and let the edits run (auto-edit), approve
// and keep approving each change (ask), or keep planning.
func PlanQuestion(plan string, width int, color bool) string {
	r := New(Options{Color: color, Width: width})
	var b strings.Builder
	b.WriteString(r.paint(r.st.heading, "Plan") + "\n\n")
	b.WriteString(strings.TrimRight(NewMarkdown(MarkdownOptions{Width: width, Color: color}).Render(plan), "\n") + "\n\n")
	b.WriteString(r.paint(r.st.warning, "Approve this plan?") + "\n")
	b.WriteString(Choices("", []string{"[y] yes, and make the edits without asking (auto-edit)",
		"[k] yes, and ask before each change", "[n] no, keep planning (say what to change)"}, width))
	return b.String()
}
