package render

import "strings"

// Fit wraps forge's own text (messages, lists, questions: plain text,
// sanitized, without styles) to a terminal of width cells, at spaces, so
// that no word is broken at the terminal's edge. A line continues at its
// own indentation; a row of a list or a table (a first column followed by
// two spaces, "  1  just now  …" or "sess_…  2026-…") continues under the
// text after that column, so that it does not read as a row of its own.
// width <= 0 (not a terminal, or its width unknown) leaves text as it is.
func Fit(text string, width int) string {
	if width <= 0 || text == "" {
		return text
	}
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		out = append(out, fitLine(l, width)...)
	}
	return strings.Join(out, "\n")
}

// fitLine is one line of Fit.
func fitLine(l string, width int) []string {
	if len(l) <= width && isPlainASCII(l) || textWidth(l) <= width {
		return []string{l}
	}
	hang := hangOf(l, width)
	pieces := wrap(l, width, width-hang)
	for i := 1; i < len(pieces); i++ {
		pieces[i] = spaces(hang) + pieces[i]
	}
	return pieces
}

// hangOf is where the continuation lines of l begin: under the text after
// its first column when it is a row (a first word, then two spaces), else
// at its own indentation; never past half the width.
func hangOf(l string, width int) int {
	indent := len(l) - len(strings.TrimLeft(l, " "))
	hang := indent
	rest := l[indent:]
	if word, after, ok := strings.Cut(rest, "  "); ok && word != "" && !strings.Contains(word, " ") {
		hang = indent + textWidth(word) + len(after) - len(strings.TrimLeft(after, " ")) + 2
	}
	if hang > width/2 {
		hang = min(indent, width/2)
	}
	return hang
}

// flow lays items out on lines of at most width cells: lead first, then
// the items sep apart, a line ending where the next item does not fit, so
// that an item (an answer of a question, a figure of a footer) is never
// split across lines. Lines after the first begin with hang spaces. An
// item wider than a whole line is wrapped at its spaces, its own lines
// indented by indent more. width <= 0 puts all on one line. The text is
// plain, as Fit's.
func flow(lead string, items []string, sep string, width, hang, indent int) []string {
	if width <= 0 {
		return []string{lead + strings.Join(items, sep)}
	}
	var out []string
	line := lead
	if w := strings.TrimRight(lead, " "); textWidth(w) > width {
		ls := fitLine(w, width)
		out, line = ls[:len(ls)-1], ls[len(ls)-1]+lead[len(w):]
	}
	empty := true // no item on the line yet
	for _, it := range items {
		joint := sep
		switch {
		case empty && strings.TrimSpace(line) != "" && textWidth(line+it) > width:
			// Not even the first item fits after the lead.
			out = append(out, strings.TrimRight(line, " "))
			line, joint = spaces(hang), ""
		case empty:
			joint = ""
		case textWidth(line+sep+it) > width:
			out = append(out, line)
			line, joint = spaces(hang), ""
		}
		empty = false
		if textWidth(line+joint+it) <= width {
			line += joint + it
			continue
		}
		pieces := wrap(it, width-textWidth(line+joint), width-hang-indent)
		line += joint + pieces[0]
		for _, p := range pieces[1:] {
			out = append(out, line)
			line = spaces(hang+indent) + p
		}
	}
	return append(out, strings.TrimRight(line, " "))
}

// Choices is a question with its answers, as a terminal of width cells
// shows it: the answers two spaces apart after the question (or on the
// lines after it), none of them split across lines.
func Choices(question string, answers []string, width int) string {
	lead := question
	if lead != "" {
		lead += "  "
	}
	return strings.Join(flow(lead, answers, "  ", width, 2, 4), "\n")
}

// hardWrap cuts a line of text, whose every character matters (a line of
// a diff), into pieces of at most first cells, then rest cells: exactly
// where the width ends, keeping every space.
func hardWrap(s string, first, rest int) []string {
	first, rest = max(first, 2), max(rest, 2)
	var out []string
	limit := first
	for textWidth(s) > limit {
		piece := fitWidth(s, limit)
		if piece == "" { // a character wider than the room
			n, _ := nextSegment(s)
			piece = s[:n]
		}
		out = append(out, piece)
		s = s[len(piece):]
		limit = rest
	}
	return append(out, s)
}
