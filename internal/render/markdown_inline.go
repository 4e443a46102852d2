package render

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"
)

// inlineText is the text of a paragraph, heading or table cell: sanitized
// plain text, with runs saying which attributes style which part. Wrapping
// measures the plain text; styles are applied to the wrapped pieces.
type inlineText struct {
	plain []byte // "\n" only at hard line breaks
	runs  []textRun
	// oneLine turns hard line breaks into spaces (table cells).
	oneLine bool
}

// textRun styles plain text up to end (from the previous run's end).
type textRun struct {
	end  int
	attr mdAttr
}

func (t *inlineText) reset() {
	t.plain, t.runs, t.oneLine = t.plain[:0], t.runs[:0], false
}

// add appends sanitized text s in the style a.
func (t *inlineText) add(s string, a mdAttr) {
	if s == "" {
		return
	}
	t.plain = append(t.plain, s...)
	if n := len(t.runs); n > 0 && t.runs[n-1].attr == a {
		t.runs[n-1].end = len(t.plain)
		return
	}
	t.runs = append(t.runs, textRun{end: len(t.plain), attr: a})
}

func (t *inlineText) hardBreak() {
	if t.oneLine {
		t.add(" ", 0)
		return
	}
	t.add("\n", 0)
}

// inlines adds the inline children of n to t, in the style a.
func (r *mdRenderer) inlines(t *inlineText, n ast.Node, a mdAttr) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(t, c, a)
	}
}

// inline adds one inline node to t. Without colour, emphasis, strikethrough
// and code keep their Markdown markers, which say what the style would.
func (r *mdRenderer) inline(t *inlineText, n ast.Node, a mdAttr) {
	color := r.m.color
	switch n := n.(type) {
	case *ast.Text:
		v := n.Segment.Value(r.src)
		if n.IsRaw() {
			t.add(sanitizeInline(string(v)), a)
		} else {
			t.add(sanitizeInline(unescapeText(v)), a)
		}
		switch {
		case n.HardLineBreak():
			t.hardBreak()
		case n.SoftLineBreak():
			t.add(" ", a)
		}
	case *ast.String:
		if n.IsCode() || n.IsRaw() {
			t.add(sanitizeInline(string(n.Value)), a)
		} else {
			t.add(sanitizeInline(unescapeText(n.Value)), a)
		}
	case *ast.CodeSpan:
		code := sanitizeInline(r.codeSpan(n))
		if color {
			t.add(code, a|attrCode)
		} else {
			t.add("`"+code+"`", a)
		}
	case *ast.Emphasis:
		style, marker := attrEmph, "*"
		if n.Level >= 2 {
			style, marker = attrStrong, "**"
		}
		r.wrapped(t, n, a, style, marker)
	case *east.Strikethrough:
		r.wrapped(t, n, a, attrStrike, "~~")
	case *ast.Link:
		start := len(t.plain)
		r.inlines(t, n, a|attrLink)
		r.linkURL(t, string(t.plain[start:]), n.Destination, a)
	case *ast.Image:
		t.add("image: ", a)
		start := len(t.plain)
		r.inlines(t, n, a)
		r.linkURL(t, string(t.plain[start:]), n.Destination, a)
	case *ast.AutoLink:
		t.add(sanitizeInline(string(n.Label(r.src))), a|attrLink)
	case *ast.RawHTML:
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			t.add(sanitizeInline(string(seg.Value(r.src))), a)
		}
	case *east.TaskCheckBox:
		if n.IsChecked {
			t.add("[x]", a|attrChecked)
		} else {
			t.add("[ ]", a)
		}
		t.add(" ", a)
	default:
		r.inlines(t, n, a)
	}
}

// wrapped adds n's children in the style a|style, or between markers
// without colour.
func (r *mdRenderer) wrapped(t *inlineText, n ast.Node, a, style mdAttr, marker string) {
	if !r.m.color {
		t.add(marker, a)
		r.inlines(t, n, a)
		t.add(marker, a)
		return
	}
	r.inlines(t, n, a|style)
}

// linkURL adds a link's destination in parentheses after its text, unless
// the text already says it.
func (r *mdRenderer) linkURL(t *inlineText, label string, dest []byte, a mdAttr) {
	url := sanitizeInline(unescapeText(dest))
	if url == "" || url == label {
		return
	}
	t.add(" ", a)
	t.add("("+url+")", a|attrURL)
}

// codeSpan returns the text of an inline code span: its lines joined by
// spaces, backslashes kept.
func (r *mdRenderer) codeSpan(n *ast.CodeSpan) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		var v []byte
		switch c := c.(type) {
		case *ast.Text:
			v = c.Segment.Value(r.src)
		case *ast.String:
			v = c.Value
		}
		if len(v) > 0 && v[len(v)-1] == '\n' {
			b.Write(v[:len(v)-1])
			b.WriteByte(' ')
			continue
		}
		b.Write(v)
	}
	return b.String()
}

// sanitizeInline makes text from the model safe to print inside a line: as
// sanitizeLines, with line breaks turned into spaces.
func sanitizeInline(s string) string {
	if isPlainASCII(s) && strings.IndexByte(s, '\n') < 0 {
		return s
	}
	return strings.Join(sanitizeLines(s), " ")
}

// unescapeText resolves what Markdown text escapes in one pass, as an HTML
// renderer would: backslash escapes of punctuation and entity references
// ("&amp;", "&#27;"). What they stand for is sanitized afterwards, so "&#27;"
// shows as "^[" and never reaches the terminal as ESC.
func unescapeText(v []byte) string {
	if bytes.IndexByte(v, '\\') < 0 && bytes.IndexByte(v, '&') < 0 {
		return string(v)
	}
	var b strings.Builder
	b.Grow(len(v))
	for i := 0; i < len(v); {
		c := v[i]
		if c == '\\' && i+1 < len(v) && util.IsPunct(v[i+1]) {
			b.WriteByte(v[i+1])
			i += 2
			continue
		}
		if c == '&' {
			if s, n := entity(v[i:]); n > 0 {
				b.WriteString(s)
				i += n
				continue
			}
		}
		b.WriteByte(c)
		i++
	}
	return b.String()
}

// entity decodes the entity reference at the start of v ("&amp;", "&#65;",
// "&#x41;"), returning its text and length, or a length of 0.
func entity(v []byte) (string, int) {
	end := bytes.IndexByte(v, ';')
	if end < 2 || end > 40 {
		return "", 0
	}
	name := string(v[1:end])
	if name[0] != '#' {
		if e, ok := util.LookUpHTML5EntityByName(name); ok {
			return string(e.Characters), end + 1
		}
		return "", 0
	}
	digits, base, maxDigits := name[1:], 10, 7
	if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base, maxDigits = digits[1:], 16, 6
	}
	if digits == "" || len(digits) > maxDigits {
		return "", 0
	}
	code, err := strconv.ParseUint(digits, base, 32)
	if err != nil {
		return "", 0
	}
	r := rune(code)
	if r == 0 || !utf8.ValidRune(r) {
		r = utf8.RuneError
	}
	return string(r), end + 1
}

// flow draws inline text wrapped at the room left, a line per hard break.
func (r *mdRenderer) flow(t *inlineText) {
	if len(t.plain) == 0 {
		return
	}
	s := string(t.plain)
	w := r.width()
	run := 0
	for start := 0; ; {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		seg := s[start:end]
		pos := 0
		for _, piece := range wrap(seg, w, w) {
			// wrap drops only spaces between pieces: find where this one
			// starts to style it.
			for !strings.HasPrefix(seg[pos:], piece) {
				pos++
			}
			r.beginLine()
			r.out, run = r.appendRuns(r.out, s, t.runs, run, start+pos, start+pos+len(piece))
			r.endLine()
			pos += len(piece)
		}
		if end == len(s) {
			return
		}
		start = end + 1
	}
}

// appendRuns appends s[from:to] styled by runs, starting the search at run
// index i (pieces come in order); it returns the index to start the next
// search at.
func (r *mdRenderer) appendRuns(dst []byte, s string, runs []textRun, i, from, to int) ([]byte, int) {
	if !r.m.color {
		return append(dst, s[from:to]...), i
	}
	for i < len(runs) && runs[i].end <= from {
		i++
	}
	for from < to && i < len(runs) {
		end := min(runs[i].end, to)
		dst = r.m.appendStyled(dst, s[from:end], runs[i].attr)
		from = end
		if end == runs[i].end {
			i++
		}
	}
	return dst, i
}
