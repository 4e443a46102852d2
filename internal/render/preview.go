package render

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// How much of a finished call a terminal shows under its line: a few
// lines of its output, a few more of a change's diff. /last shows all.
const (
	previewLines     = 4
	previewDiffLines = 8
	// previewTailLines are the last lines of a failed command shown:
	// where a failing test or build says what failed.
	previewTailLines = 6
	// previewIndent is the room the "  ⎿ " before a preview line takes.
	previewIndent = 4
)

// moreHint ends a preview that leaves lines out.
const moreHint = " (/last shows all)"

// callPreview is a finished call as its line and preview show it.
type callPreview struct {
	// Glyph is the status's ("✓"), Headline the call's ("Bash(ls)"),
	// Note what follows it (": cancelled", " · exit 1 · 3.2s").
	Glyph, Headline, Note string
	// Brief stands for the output (tools.Presentation.Brief).
	Brief string
	// Output is what the call returned, whose first lines are shown.
	Output string
	// Change is what an edit did, shown as a short diff instead; only
	// its counts when ChangeSeen (the question showed the diff).
	Change     *tools.Change
	ChangeSeen bool
	// Tail is the last lines a call printed (a cancelled or failed one),
	// shown instead of Output; TailMore counts the lines before them.
	Tail     []string
	TailMore int
	// Bare shows the line alone (an output that is the run's answer).
	Bare bool
	// Sandboxed tags the line "[sandboxed]": the call ran confined, which
	// is why it was not asked. The tag is kept whole; the headline is cut.
	Sandboxed bool
}

// callLines are the lines a finished call leaves on a terminal of cols
// cells: its line, then a preview of its output or change, each line
// sanitised and cut to fit.
func (r *Renderer) callLines(c callPreview, cols int) []string {
	var plainNote, note string // what follows the headline, plain and painted
	add := func(st lipgloss.Style, s string) {
		plainNote += s
		note += r.paint(st, s)
	}
	if c.Sandboxed {
		add(r.st.hint, " "+sandboxedTag)
	}
	var body []string
	more := 0
	switch {
	case c.Bare:
	case c.Change != nil && c.Change.Unshown != "":
		add(r.st.label, " · not shown: "+oneLineText(c.Change.Unshown))
	case c.Change != nil && changeNote(*c.Change) != "":
		add(r.st.label, " · "+changeNote(*c.Change))
	case c.Change != nil:
		diff, added, removed := changeDiff(*c.Change)
		plus, minus := changeCounts(added, removed)
		for _, n := range []struct {
			count string
			st    lipgloss.Style
		}{{plus, r.st.success}, {minus, r.st.failure}} {
			if n.count != "" {
				plainNote, note = plainNote+" ", note+" "
				add(n.st, n.count)
			}
		}
		if !c.ChangeSeen {
			body, more = r.diffPreview(diff, cols)
		}
	case c.Brief != "":
		add(r.st.label, " · "+oneLineText(c.Brief))
	case c.Tail != nil:
		body = clipAll(c.Tail, cols-previewIndent)
		if c.TailMore > 0 {
			body = append([]string{r.paint(r.st.hint, "… "+plural(c.TailMore, "line")+" before"+moreHint)}, body...)
		}
	default:
		body, more = previewHead(c.Output, previewLines, cols-previewIndent)
		if len(body) == 0 {
			body = []string{r.paint(r.st.hint, "(no output)")}
		}
	}
	style := r.st.label
	if c.Glyph == "⊘" {
		style = r.st.warning
	}
	if c.Note != "" {
		add(style, c.Note)
	}
	out := r.callHead(c.Glyph, c.Headline, plainNote, note, style, cols)
	for i, l := range body {
		lead := "    "
		if i == 0 {
			lead = "  ⎿ "
		}
		out = append(out, lead+l)
	}
	if more > 0 {
		out = append(out, "    "+r.paint(r.st.hint, "… +"+plural(more, "line")+moreHint))
	}
	return out
}

// minHeadline is the least of a call's headline its line keeps when what
// follows it is long: enough to tell the call.
const minHeadline = 16

// callHead is a call's line, fitted to cols cells as the live line is:
// the glyph, the headline (cut first) and what follows it (plainNote,
// painted as note). When even a short headline leaves the note no room,
// the line goes on over lines of its own, indented (painted in style).
func (r *Renderer) callHead(glyph, headline, plainNote, note string, style lipgloss.Style, cols int) []string {
	room := cols - 2 - textWidth(plainNote)
	switch {
	case cols <= 0:
	case room >= min(textWidth(headline), minHeadline):
		headline = clipCells(headline, room)
	default:
		// The headline keeps at most half the line, so that the note
		// begins on it.
		pieces := wrap(clipCells(headline, max(minHeadline, (cols-2)/2))+plainNote, cols-2, cols-2)
		out := []string{r.statusGlyph(glyph) + " " + pieces[0]}
		for _, p := range pieces[1:] {
			out = append(out, "  "+r.paint(style, p))
		}
		return out
	}
	return []string{r.statusGlyph(glyph) + " " + headline + note}
}

// statusGlyph paints a call's status glyph as the panels do.
func (r *Renderer) statusGlyph(g string) string {
	switch g {
	case "✓":
		return r.paint(r.st.success, g)
	case "✗":
		return r.paint(r.st.failure, g)
	}
	return r.paint(r.st.warning, g)
}

// diffPreview is the first lines of a change's diff without its file
// header (the call's line names the file), coloured, and how many it
// leaves out.
func (r *Renderer) diffPreview(diff string, cols int) ([]string, int) {
	lines := strings.Split(diff, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "@@") {
			lines = lines[i:]
			break
		}
	}
	more := 0
	if len(lines) > previewDiffLines+1 {
		lines, more = lines[:previewDiffLines], len(lines)-previewDiffLines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		l = clipCells(displayLine(l), cols-previewIndent)
		switch {
		case strings.HasPrefix(l, "+"):
			l = r.paint(r.st.success, l)
		case strings.HasPrefix(l, "-"):
			l = r.paint(r.st.failure, l)
		case strings.HasPrefix(l, "@@"):
			l = r.paint(r.st.label, l)
		}
		out[i] = l
	}
	return out, more
}

// previewHead is the first n lines of text as a terminal shows them, each
// cut to width cells, and how many lines it leaves out; none for text
// that is only blank. A last line of one more is shown rather than
// counted. It reads no further than it shows: outputs can be long.
func previewHead(text string, n, width int) ([]string, int) {
	text = strings.TrimRight(text, "\n")
	if strings.TrimSpace(text) == "" {
		return nil, 0
	}
	var lines []string
	rest := text
	for len(lines) < n+1 && rest != "" {
		l, after, found := strings.Cut(rest, "\n")
		lines = append(lines, l)
		rest = after
		if !found {
			break
		}
	}
	if rest == "" {
		return clipAll(lines, width), 0
	}
	more := strings.Count(rest, "\n") + 1 + len(lines) - n
	return clipAll(lines[:n], width), more
}

// previewTail is the last n lines of text (its trailing blank lines
// left out), as previewHead gives the first, and how many come before
// them; none for text that is only blank.
func previewTail(text string, n int) ([]string, int) {
	text = strings.TrimRight(text, "\n")
	if strings.TrimSpace(text) == "" {
		return nil, 0
	}
	start := len(text)
	for k := 0; k < n && start > 0; k++ {
		start = strings.LastIndexByte(text[:start], '\n')
		if start < 0 {
			start = 0
			break
		}
	}
	if start > 0 {
		start++ // after the newline
	}
	tail := strings.Split(text[start:], "\n")
	before := 0
	if start > 0 {
		before = strings.Count(text[:start], "\n")
	}
	if before == 1 { // one line more is shown rather than counted
		return strings.Split(text, "\n"), 0
	}
	return tail, before
}

// callDuration is how long a call took, as its line says it: <0.1s,
// 0.4s, 3.2s, 12s, 2m05s.
func callDuration(d time.Duration) string {
	switch {
	case d < 100*time.Millisecond:
		return "<0.1s"
	case d < 10*time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	}
	return formatElapsed(d)
}

// clipAll is each raw line as displayLine shows it, cut to width cells.
func clipAll(lines []string, width int) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = clipCells(displayLine(l), width)
	}
	return out
}

// displayLine is one raw line of output as a terminal would leave it
// (after its last carriage return, where a progress bar redraws itself),
// sanitised.
func displayLine(l string) string {
	l = strings.TrimSuffix(l, "\r")
	if i := strings.LastIndexByte(l, '\r'); i >= 0 {
		l = l[i+1:]
	}
	return strings.Join(sanitizeLines(l), " ")
}

// clipCells cuts sanitised s to at most w cells, marking the cut.
func clipCells(s string, w int) string {
	w = max(w, 2)
	if len(s) <= w && isPlainASCII(s) {
		return s
	}
	if textWidth(s) <= w {
		return s
	}
	return fitWidth(s, w-1) + "…"
}

// LastCall is a finished call in full, as /last shows it: its line, then
// its whole output, or, for an edit, the whole diff of the change it made
// with its counts.
func LastCall(headline string, r *agent.CallResult) string {
	glyph := map[agent.Status]string{agent.StatusSuccess: "✓", agent.StatusTimedOut: "⏱",
		agent.StatusCancelled: "⊘", agent.StatusDenied: "⊘"}[r.Status]
	if glyph == "" {
		glyph = "✗"
	}
	if r.Change != nil {
		diff, added, removed := changeDiff(*r.Change)
		line := glyph + " " + headline
		for _, n := range changeCountList(added, removed) {
			line += " " + n
		}
		return line + "\n" + diff
	}
	out := strings.TrimRight(r.Output, "\n")
	if out == "" {
		out = "(no output)"
	}
	return glyph + " " + headline + "\n" + out
}

// changeCountList is changeCounts without the empty ones.
func changeCountList(added, removed int) []string {
	var out []string
	plus, minus := changeCounts(added, removed)
	for _, n := range []string{plus, minus} {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// changeCounts are the lines a change adds and removes as a diffstat
// writes them ("+3", "−1"), each "" when none.
func changeCounts(added, removed int) (plus, minus string) {
	if added > 0 {
		plus = "+" + strconv.Itoa(added)
	}
	if removed > 0 {
		minus = "−" + strconv.Itoa(removed)
	}
	return plus, minus
}
