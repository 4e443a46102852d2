package render

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// line is one row of a panel's text: s as drawn (possibly styled) and its
// display width, measured on the plain text before styling.
type line struct {
	s     string
	w     int
	check bool // s holds non-ASCII text: verify the row's width when drawn
}

// panel collects the rows of one panel in sections; String draws them with
// a separator between sections.
type panel struct {
	r        *Renderer
	sections [][]line
}

func (r *Renderer) newPanel() *panel {
	return &panel{r: r, sections: make([][]line, 1, 3)}
}

// section starts a new section: a separator is drawn before it.
func (p *panel) section() {
	p.sections = append(p.sections, nil)
}

func (p *panel) add(l line) {
	n := len(p.sections) - 1
	p.sections[n] = append(p.sections[n], l)
}

// blank adds an empty row.
func (p *panel) blank() { p.add(line{}) }

// paint applies st to s when colour is on.
func (r *Renderer) paint(st lipgloss.Style, s string) string {
	if !r.color || s == "" {
		return s
	}
	return st.Render(s)
}

// paintLines paints each line of s on its own (lipgloss would pad the
// lines of a block to one width).
func (r *Renderer) paintLines(st lipgloss.Style, s string) string {
	if !r.color || !strings.Contains(s, "\n") {
		return r.paint(st, s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = r.paint(st, l)
	}
	return strings.Join(lines, "\n")
}

// plain measures a piece of sanitized text for a row.
func plain(s string) line {
	if isPlainASCII(s) {
		return line{s: s, w: len(s)}
	}
	return line{s: s, w: textWidth(s), check: true}
}

// title adds the panel's title, bold.
func (p *panel) title(s string) {
	p.text(s, &p.r.st.title, 0)
}

// text adds s (any text: it is sanitized) line by line, each wrapped to the
// panel and indented by indent cells, in style st (nil: unstyled).
func (p *panel) text(s string, st *lipgloss.Style, indent int) {
	indent = p.fitIndent(indent, 0)
	avail := p.r.inner - indent
	pad := spaces(indent)
	for _, ln := range sanitizeLines(s) {
		for _, piece := range wrap(ln, avail, avail) {
			l := plain(piece)
			if st != nil {
				l.s = p.r.paint(*st, l.s)
			}
			if indent > 0 {
				l.s, l.w = pad+l.s, l.w+indent
			}
			p.add(l)
		}
	}
}

// field adds "label value": the label (which ends in ": " or a space) is dim,
// the value in style st (nil: unstyled) is wrapped with a hanging indent
// under its first character; further lines of a multi-line value keep that
// indent too. indent moves the whole field right.
func (p *panel) field(indent int, label, value string, st *lipgloss.Style) {
	p.labeled(indent, label, &p.r.st.label, value, st)
}

// labeled is field with the label's style chosen by the caller. A label
// too wide to leave room for a hanging indent flows with its value instead,
// continuation rows indented by two more cells.
func (p *panel) labeled(indent int, label string, lst *lipgloss.Style, value string, st *lipgloss.Style) {
	label = sanitizeLines(label)[0]
	lw := textWidth(label)
	headW := indent + lw
	if headW > p.r.inner-p.r.inner/3 {
		p.flow(indent, label, lst, value, st, indent+2)
		return
	}
	labelASCII := isPlainASCII(label)
	head := spaces(indent) + p.r.paint(*lst, label)
	cont := spaces(headW)
	avail := p.r.inner - headW
	first := true
	for _, ln := range sanitizeLines(value) {
		for _, piece := range wrap(ln, avail, avail) {
			l := plain(piece)
			if st != nil {
				l.s = p.r.paint(*st, l.s)
			}
			if first {
				l.s, l.w = head+l.s, l.w+headW
				first = false
			} else {
				l.s, l.w = cont+l.s, l.w+headW
			}
			l.check = l.check || !labelASCII
			p.add(l)
		}
	}
}

// flow adds label and value as one text at indent, wrapped with
// continuation rows at cont: "• name (type) - description" that goes on
// below, or a parameter's heading. The label keeps its style when it fits on
// the first row.
func (p *panel) flow(indent int, label string, lst *lipgloss.Style, value string, st *lipgloss.Style, cont int) {
	label = sanitizeLines(label)[0]
	indent, cont = p.fitIndent(indent, 0), p.fitIndent(cont, 0)
	for i, ln := range sanitizeLines(value) {
		text, at := ln, cont
		if i == 0 {
			text, at = label+ln, indent
		}
		for j, piece := range wrap(text, p.r.inner-at, p.r.inner-cont) {
			l := plain(piece)
			switch {
			case i == 0 && j == 0 && len(piece) >= len(label):
				rest := piece[len(label):]
				if st != nil {
					rest = p.r.paint(*st, rest)
				}
				l.s = p.r.paint(*lst, label) + rest
			case st != nil:
				l.s = p.r.paint(*st, l.s)
			}
			pad := cont
			if j == 0 {
				pad = at
			}
			l.s, l.w = spaces(pad)+l.s, l.w+pad
			p.add(l)
		}
	}
}

// fitIndent returns the indent for text after indent+extra cells, reduced so
// that at least a third of the panel's text width remains for the text.
func (p *panel) fitIndent(indent, extra int) int {
	hang := indent + extra
	if room := p.r.inner / 3; p.r.inner-hang < room {
		hang = min(indent, p.r.inner-room)
		hang = max(hang, 0)
	}
	return hang
}

// String draws the panel: top border, the sections' rows separated by
// separator rows, bottom border, without a final newline.
func (p *panel) String() string {
	r := p.r
	n := 0
	for _, sec := range p.sections {
		for _, l := range sec {
			n += len(l.s) + r.inner - l.w + len(r.left) + len(r.right) + 1
		}
		n += len(r.sep) + 1
	}
	var b strings.Builder
	b.Grow(n + len(r.top) + len(r.bottom) + 2)
	b.WriteString(r.top)
	b.WriteByte('\n')
	first := true
	for _, sec := range p.sections {
		if len(sec) == 0 {
			continue
		}
		if !first {
			b.WriteString(r.sep)
			b.WriteByte('\n')
		}
		first = false
		for _, l := range sec {
			p.writeRow(&b, l)
		}
	}
	b.WriteString(r.bottom)
	return b.String()
}

// writeRow draws one row padded to the panel's width. For rows with
// non-ASCII text it checks the result with ansi.StringWidth, the measure
// lipgloss uses, and corrects the padding should a grapheme cluster have
// reached into it.
func (p *panel) writeRow(b *strings.Builder, l line) {
	r := p.r
	pad := max(r.inner-l.w, 0)
	if l.check {
		row := r.left + l.s + spaces(pad) + r.right
		if got := ansi.StringWidth(row); got != r.width {
			pad = max(pad+r.width-got, 0)
		}
	}
	b.WriteString(r.left)
	b.WriteString(l.s)
	b.WriteString(spaces(pad))
	b.WriteString(r.right)
	b.WriteByte('\n')
}
