package render

import (
	"strings"
)

// Approval is a call put to the person, as the approval question shows it.
type Approval struct {
	Tool string
	// Preview is the call in full: a command, a diff, the arguments.
	Preview string
	// Reason is why the policy asks.
	Reason string
	// Always are the rules an "always" answer adds for the session.
	Always []string
}

// maxPreviewLines bounds the preview shown in a question.
const maxPreviewLines = 60

// ApprovalQuestion is the question of an approval: the tool, the call in
// full (a diff's added and removed lines coloured when color), and the
// answers, "always" naming the rule it would add.
func ApprovalQuestion(a Approval, color bool) string {
	r := New(Options{Color: color})
	var b strings.Builder
	b.WriteString(r.paint(r.st.warning, "Allow "+sanitizeText(a.Tool)+"?") + "\n")
	lines := sanitizeLines(strings.TrimRight(a.Preview, "\n"))
	if len(lines) > maxPreviewLines {
		more := len(lines) - maxPreviewLines
		lines = append(lines[:maxPreviewLines], "… "+plural(more, "more line"))
	}
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
			l = r.paint(r.st.success, l)
		case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
			l = r.paint(r.st.failure, l)
		}
		b.WriteString("  " + l + "\n")
	}
	if a.Reason != "" {
		b.WriteString(r.paint(r.st.hint, oneLineText(a.Reason)) + "\n")
	}
	b.WriteString("[y] yes, once  ")
	if len(a.Always) > 0 {
		b.WriteString("[a] always: " + sanitizeText(strings.Join(a.Always, ", ")) + " this session  ")
	}
	b.WriteString("[n] no")
	return b.String()
}
