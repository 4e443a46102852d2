package render

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Approval is a call put to the person, as the approval question shows it.
type Approval struct {
	Tool string
	// Purpose is what the call is for, in the model's words (Bash's
	// description); "" when it gave none.
	Purpose string
	// Preview is the call in full: a command, a diff, the arguments.
	Preview string
	// Reason is why the policy asks.
	Reason string
	// Always are the rules an "always" answer adds for the session.
	Always []string
	// Save offers to keep the Always rules in a settings file too.
	Save bool
	// Feedback offers to refuse with words for the model.
	Feedback bool
	// ShowAll shows every line of the preview, each whole; otherwise a
	// long preview is cut and the answers offer to show all of it.
	ShowAll bool
	// Width is the terminal's width in cells: the question's lines fit
	// it, a preview line wider than that cut (or, with ShowAll, continued
	// on lines marked as its continuation) and its words never broken at
	// the edge. 0 (unknown) lays nothing out.
	Width int
}

// The part of a preview a question shows before the person asks for all.
const (
	maxPreviewLines   = 60
	maxPreviewLineLen = 1000
)

// Hides reports whether the question of a hides part of its preview (or
// of its reason): then "show all" is one of the answers.
func (a Approval) Hides() bool {
	_, more, cut := a.previewLines()
	_, reasonCut := a.reason()
	return more > 0 || cut > 0 || reasonCut
}

// previewLead is what each line of a preview is shown after, and
// continuedLead what each of its continuations is: a mark where a
// diff's +, - or space would be, so that a continuation never reads as a
// line of its own.
const (
	previewLead   = "  "
	continuedLead = "  ↪ "
)

// reason is the reason on one line, made safe, cut when long unless all
// is shown.
func (a Approval) reason() (line string, cut bool) {
	line = oneLineText(a.Reason)
	if !a.ShowAll && len(line) > maxPreviewLineLen {
		return line[:runeStart(line, maxPreviewLineLen)] + " …", true
	}
	return line, false
}

// previewLines are the lines of the preview the question shows, made safe
// for the terminal, with how many lines it leaves out and how many it
// shows in part.
func (a Approval) previewLines() (lines []string, more, cut int) {
	lines = sanitizeLines(strings.TrimRight(a.Preview, "\n"))
	if a.ShowAll {
		return lines, 0, 0
	}
	if len(lines) > maxPreviewLines {
		lines, more = lines[:maxPreviewLines], len(lines)-maxPreviewLines
	}
	room := a.Width - len(previewLead)
	for i, l := range lines {
		switch {
		case len(l) > maxPreviewLineLen && (a.Width <= 0 || textWidth(l) <= room):
			lines[i] = l[:runeStart(l, maxPreviewLineLen)] + " …"
			cut++
		case a.Width > 0 && textWidth(l) > room && a.isDiff():
			lines[i] = fitWidth(l, room-1) + "…"
			cut++
		}
	}
	return lines, more, cut
}

// ApprovalQuestion is the question of an approval: the tool, the call in
// full or, when long, its beginning and what is hidden (a diff's added and
// removed lines coloured when color), why forge asks, and the answers,
// "always" naming the rule it would add and "show all" offered when
// something is hidden; laid out to a.Width.
func ApprovalQuestion(a Approval, color bool) string {
	r := New(Options{Color: color})
	var b strings.Builder
	title := "Allow " + a.Tool + "?"
	if p := strings.Join(strings.Fields(a.Purpose), " "); p != "" {
		title = "Allow " + a.Tool + " (" + clip(p, 80) + ")?"
	}
	b.WriteString(r.paintLines(r.st.warning, Fit(sanitizeText(title), a.Width)) + "\n")
	lines, more, cut := a.previewLines()
	reason, reasonCut := a.reason()
	if reasonCut {
		cut++
	}
	for _, l := range lines {
		style, painted := lipglossStyleOf(r, l)
		for i, piece := range a.previewPieces(l) {
			lead := previewLead
			if i > 0 {
				lead = continuedLead
			}
			if painted {
				piece = r.paint(style, piece)
			}
			b.WriteString(lead + piece + "\n")
		}
	}
	if hidden := hiddenNote(more, cut); hidden != "" {
		b.WriteString(r.paintLines(r.st.hint, Fit("  … "+hidden+": [s] shows all", a.Width)) + "\n")
	}
	if reason != "" {
		b.WriteString(r.paintLines(r.st.hint, Fit(reason, a.Width)) + "\n")
	}
	answers := []string{"[y] yes, once"}
	if len(a.Always) > 0 {
		answers = append(answers, "[a] always: "+sanitizeText(strings.Join(a.Always, ", "))+" this session")
		if a.Save {
			answers = append(answers, "[A] always, saved")
		}
	}
	if more > 0 || cut > 0 {
		answers = append(answers, "[s] show all")
	}
	answers = append(answers, "[n] no")
	if a.Feedback {
		answers = append(answers, "[t] no, and tell the model why")
	}
	b.WriteString(Choices("", answers, a.Width))
	return b.String()
}

// previewPieces are the lines a terminal shows for one line of the
// preview: the line, or the line cut where the width ends and continued,
// every character kept. A diff's lines are continued only with ShowAll
// (cut and marked otherwise, so the diff keeps its shape); a command's
// always are, since what is approved must be seen whole.
func (a Approval) previewPieces(l string) []string {
	room := a.Width - len(previewLead)
	if a.Width <= 0 || (!a.ShowAll && a.isDiff()) || textWidth(l) <= room {
		return []string{l}
	}
	return hardWrap(l, room, a.Width-textWidth(continuedLead))
}

// isDiff reports whether the preview is an edit's diff rather than a
// command or arguments.
func (a Approval) isDiff() bool {
	return strings.HasPrefix(a.Preview, "--- ") || strings.HasPrefix(a.Preview, "(line endings change")
}

// lipglossStyleOf is the style of a preview line: a diff's added lines
// green, its removed lines red, the rest (headers too) unpainted.
func lipglossStyleOf(r *Renderer, l string) (lipgloss.Style, bool) {
	switch {
	case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
		return r.st.success, true
	case strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
		return r.st.failure, true
	}
	return lipgloss.Style{}, false
}

// ApprovalKeys are the keys that answer the question of a, one each.
func ApprovalKeys(a Approval) string {
	keys := "yn"
	if len(a.Always) > 0 {
		keys += "a"
		if a.Save {
			keys += "A"
		}
	}
	if a.Hides() {
		keys += "s"
	}
	if a.Feedback {
		keys += "t"
	}
	return keys
}

// hiddenNote says what a question leaves out of a preview: "12 more
// lines", "2 long lines cut", both, or nothing.
func hiddenNote(more, cut int) string {
	var parts []string
	if more > 0 {
		parts = append(parts, plural(more, "more line"))
	}
	if cut > 0 {
		parts = append(parts, plural(cut, "long line")+" cut")
	}
	return strings.Join(parts, ", ")
}
