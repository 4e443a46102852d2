package render

import (
	"io"
	"math/bits"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Widths of rendered Markdown, in terminal cells.
const (
	// DefaultMarkdownWidth is the wrapping width when the terminal's width
	// is unknown (piped output, tests).
	DefaultMarkdownWidth = 80
	// minMarkdownWidth is the narrowest wrapping width: below it a nested
	// list has no room left for its words.
	minMarkdownWidth = 20
)

// MarkdownOptions say how Markdown is drawn.
type MarkdownOptions struct {
	// Width is the terminal's width in cells: paragraphs wrap at it. 0
	// (unknown) wraps at DefaultMarkdownWidth; other values are clamped to
	// [20, MaxWidth], as longer lines are hard to read.
	Width int
	// Color turns on styles (bold coloured headings, bold, italic, coloured
	// code, dim quotes and rules). Without it the output holds no escape
	// codes, and emphasis and inline code keep their Markdown markers.
	Color bool
}

// Markdown renders a model's Markdown answer as terminal text. It is safe for
// concurrent use: it holds only the parser and precomputed styles.
type Markdown struct {
	width  int
	color  bool
	parser parser.Parser
	// open holds the escape sequence that starts each attribute's style,
	// and reset the one that ends any of them; all empty without colour.
	open  [attrCount]string
	reset string
	quote string // the block quote's bar, styled
}

// mdAttr is a set of text attributes; each has one style.
type mdAttr uint16

const (
	attrStrong mdAttr = 1 << iota
	attrEmph
	attrStrike
	attrCode
	attrLink
	attrURL
	attrH1
	attrH2
	attrH3 // and the deeper levels
	attrDim
	attrCodeBlock
	attrChecked

	attrCount = iota
)

// NewMarkdown returns a Markdown renderer for opts. As in New, every style
// comes from one lipgloss renderer whose profile is fixed, so the terminal is
// never inspected.
func NewMarkdown(opts MarkdownOptions) *Markdown {
	lr := lipgloss.NewRenderer(io.Discard)
	lr.SetHasDarkBackground(true)
	if opts.Color {
		lr.SetColorProfile(termenv.ANSI256)
	} else {
		lr.SetColorProfile(termenv.Ascii)
	}
	p := goldmark.New(goldmark.WithExtensions(
		extension.Table, extension.Strikethrough, extension.TaskList,
	)).Parser()
	m := &Markdown{width: clampMarkdownWidth(opts.Width), color: opts.Color, parser: p}
	type color = lipgloss.Color
	for a, st := range map[mdAttr]lipgloss.Style{
		attrStrong:    lr.NewStyle().Bold(true),
		attrEmph:      lr.NewStyle().Italic(true),
		attrStrike:    lr.NewStyle().Strikethrough(true),
		attrCode:      lr.NewStyle().Foreground(color("6")),
		attrLink:      lr.NewStyle().Underline(true).Foreground(color("4")),
		attrURL:       lr.NewStyle().Faint(true),
		attrH1:        lr.NewStyle().Bold(true).Foreground(color("5")),
		attrH2:        lr.NewStyle().Bold(true).Foreground(color("4")),
		attrH3:        lr.NewStyle().Bold(true).Foreground(color("6")),
		attrDim:       lr.NewStyle().Foreground(color("240")),
		attrCodeBlock: lr.NewStyle().Foreground(color("245")),
		attrChecked:   lr.NewStyle().Foreground(color("2")),
	} {
		// Rendering a sentinel splits a style into the sequence that opens
		// it and the one that closes it, so text is styled by appending
		// strings instead of by a lipgloss call per piece.
		s := st.Render("x")
		if at := strings.IndexByte(s, 'x'); at > 0 {
			m.open[bits.TrailingZeros16(uint16(a))] = s[:at]
			m.reset = s[at+1:]
		}
	}
	m.quote = string(m.appendStyled(nil, "│", attrDim)) + " "
	return m
}

// clampMarkdownWidth chooses the wrapping width for a terminal of w cells.
func clampMarkdownWidth(w int) int {
	return clampCells(w, DefaultMarkdownWidth, minMarkdownWidth, MaxWidth)
}

// Render renders a whole Markdown text. It renders it block by block, exactly
// as a MarkdownStream fed the same text does, so that an answer looks the
// same streamed or not. Every line ends with a newline; blocks are separated
// by one blank line.
func (m *Markdown) Render(src string) string {
	s := m.Stream()
	return s.Write(src) + s.Flush()
}

// appendStyled appends s to dst in the style of the attributes a.
func (m *Markdown) appendStyled(dst []byte, s string, a mdAttr) []byte {
	if a == 0 || !m.color || s == "" {
		return append(dst, s...)
	}
	for i := range attrCount {
		if a&(1<<i) != 0 {
			dst = append(dst, m.open[i]...)
		}
	}
	dst = append(dst, s...)
	return append(dst, m.reset...)
}

// listCarry continues the numbers of an ordered list that the stream cut
// into blocks at its blank lines: "1. a", blank, "1. b" is one loose list
// numbered 1, 2 in CommonMark.
type listCarry struct {
	ok     bool
	marker byte // '.' or ')': another marker starts a new list
	next   int
}

// mdRenderer renders the nodes of one block into out, line by line.
type mdRenderer struct {
	m   *Markdown
	src []byte
	out []byte

	// prefixes are the open containers' margins (quote bars, list
	// markers), outermost first; indent is their total width.
	prefixes []mdPrefix
	indent   int
	// blankPending asks for a blank line before the next line, so that a
	// separator is drawn only between blocks that drew something; it is
	// drawn with the margins of the blankAt outermost containers, those
	// open when it was asked for.
	blankPending bool
	blankAt      int
	lines        int // lines drawn so far
	depth        int // nesting of lists, which picks the bullet

	text inlineText // reused for every paragraph
}

// mdPrefix is the margin a container draws before each of its lines: first
// on its first line (a list item's marker), rest after.
type mdPrefix struct {
	first, rest string
	width       int
	pending     bool // first has not been drawn yet
}

// reset prepares r to render src, keeping its buffers.
func (r *mdRenderer) reset(src []byte) {
	*r = mdRenderer{
		m: r.m, src: src, out: r.out[:0], prefixes: r.prefixes[:0], text: r.text,
	}
}

// document renders one block of Markdown source (one or more top-level
// nodes) as lines, each ending with a newline, and updates carry for the
// next block. The result is valid until the next call: r's buffers are
// reused from block to block.
func (r *mdRenderer) document(src []byte, carry *listCarry) []byte {
	r.reset(src)
	doc := r.m.parser.Parse(text.NewReader(src))
	next := *carry // a block of blank lines changes nothing
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if r.lines > 0 {
			r.separate()
		}
		next = listCarry{}
		l, ok := n.(*ast.List)
		if !ok || !l.IsOrdered() {
			r.block(n)
			continue
		}
		start := l.Start
		if n == doc.FirstChild() && carry.ok && carry.marker == l.Marker {
			start = carry.next
		}
		r.list(l, start)
		next = listCarry{ok: true, marker: l.Marker, next: start + l.ChildCount()}
	}
	*carry = next
	return r.out
}

// width is the room left for text inside the open containers.
func (r *mdRenderer) width() int { return max(r.m.width-r.indent, 2) }

func (r *mdRenderer) push(p mdPrefix) {
	r.prefixes = append(r.prefixes, p)
	r.indent += p.width
}

func (r *mdRenderer) pop() {
	r.indent -= r.prefixes[len(r.prefixes)-1].width
	r.prefixes = r.prefixes[:len(r.prefixes)-1]
}

// beginLine starts a line: the pending separator, then the margins.
func (r *mdRenderer) beginLine() {
	if r.blankPending {
		r.blankPending = false
		for _, p := range r.prefixes[:min(r.blankAt, len(r.prefixes))] {
			r.out = append(r.out, p.rest...)
		}
		r.endLine()
	}
	for i := range r.prefixes {
		p := &r.prefixes[i]
		if p.pending {
			r.out = append(r.out, p.first...)
			p.pending = false
		} else {
			r.out = append(r.out, p.rest...)
		}
	}
}

// endLine ends a line, dropping trailing spaces (an empty line in a list
// item or a code block would otherwise end in its margin).
func (r *mdRenderer) endLine() {
	for len(r.out) > 0 && r.out[len(r.out)-1] == ' ' {
		r.out = r.out[:len(r.out)-1]
	}
	r.out = append(r.out, '\n')
	r.lines++
}

// separate asks for a blank line before the next line drawn.
func (r *mdRenderer) separate() {
	r.blankPending, r.blankAt = true, len(r.prefixes)
}

// line draws one line of already sanitized text in the style a.
func (r *mdRenderer) line(s string, a mdAttr) {
	r.beginLine()
	r.out = r.m.appendStyled(r.out, s, a)
	r.endLine()
}

// children draws the block children of n, separated by blank lines when sep
// is set (a tight list's items hold their text and sublists together).
func (r *mdRenderer) children(n ast.Node, sep bool) {
	start := r.lines
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if sep && r.lines > start {
			r.separate()
		}
		r.block(c)
	}
}

// block draws one block node.
func (r *mdRenderer) block(n ast.Node) {
	switch n := n.(type) {
	case *ast.Heading:
		r.heading(n)
	case *ast.Paragraph, *ast.TextBlock:
		r.text.reset()
		r.inlines(&r.text, n, 0)
		r.flow(&r.text)
	case *ast.ThematicBreak:
		r.line(strings.Repeat("─", r.width()), attrDim)
	case *ast.CodeBlock:
		r.code(n.Lines())
	case *ast.FencedCodeBlock:
		r.code(n.Lines())
	case *ast.Blockquote:
		r.push(mdPrefix{first: r.m.quote, rest: r.m.quote, width: 2})
		r.children(n, true)
		r.pop()
	case *ast.List:
		r.list(n, n.Start)
	case *ast.HTMLBlock:
		r.rawLines(n.Lines())
		if n.HasClosure() {
			r.plainLines(n.ClosureLine.Value(r.src))
		}
	case *east.Table:
		r.table(n)
	case *ast.LinkReferenceDefinition:
		// Only the links that use it show its URL.
	default:
		if n.HasChildren() {
			r.children(n, true)
		} else {
			r.rawLines(n.Lines())
		}
	}
}

// heading draws a heading with its level's marker ("##"), which keeps the
// level readable without colour.
func (r *mdRenderer) heading(n *ast.Heading) {
	a := attrH3
	switch n.Level {
	case 1:
		a = attrH1
	case 2:
		a = attrH2
	}
	t := &r.text
	t.reset()
	t.add(strings.Repeat("#", n.Level)+" ", a)
	r.inlines(t, n, a)
	r.flow(t)
}

// code draws the lines of a code block as they are (not wrapped), indented
// and dim.
func (r *mdRenderer) code(lines *text.Segments) {
	r.push(mdPrefix{first: "  ", rest: "  ", width: 2})
	for i := range lines.Len() {
		seg := lines.At(i)
		v := seg.Value(r.src)
		v = trimEOL(v)
		for _, l := range sanitizeLines(string(v)) {
			r.line(l, attrCodeBlock)
		}
	}
	r.pop()
}

// rawLines draws source lines (raw HTML) as plain wrapped text.
func (r *mdRenderer) rawLines(lines *text.Segments) {
	for i := range lines.Len() {
		seg := lines.At(i)
		r.plainLines(seg.Value(r.src))
	}
}

// plainLines draws one source line as plain wrapped text.
func (r *mdRenderer) plainLines(v []byte) {
	for _, l := range sanitizeLines(string(trimEOL(v))) {
		for _, piece := range wrap(l, r.width(), r.width()) {
			r.line(piece, 0)
		}
	}
}

// trimEOL drops a line's ending ("\n" or "\r\n").
func trimEOL(v []byte) []byte {
	if n := len(v); n > 0 && v[n-1] == '\n' {
		v = v[:n-1]
	}
	if n := len(v); n > 0 && v[n-1] == '\r' {
		v = v[:n-1]
	}
	return v
}

// bullets mark the items of bullet lists, one per nesting level.
var bullets = [...]string{"•", "◦", "▪"}

// list draws a list, numbering an ordered one from start. Numbers are
// right-aligned so that the items' text lines up.
func (r *mdRenderer) list(l *ast.List, start int) {
	count := l.ChildCount()
	numWidth := len(strconv.Itoa(start + count - 1))
	bullet := bullets[r.depth%len(bullets)]
	r.depth++
	i := 0
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := bullet
		if l.IsOrdered() {
			num := strconv.Itoa(start + i)
			marker = spaces(numWidth-len(num)) + num + string(l.Marker)
		}
		w := textWidth(marker) + 1
		if i > 0 && !l.IsTight {
			r.separate()
		}
		r.push(mdPrefix{first: marker + " ", rest: spaces(w), width: w, pending: true})
		r.children(item, !l.IsTight)
		if r.prefixes[len(r.prefixes)-1].pending {
			r.line("", 0) // an empty item still shows its marker
		}
		r.pop()
		i++
	}
	r.depth--
}
