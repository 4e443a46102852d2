package render

import (
	"bytes"
	"strings"
)

// MarkdownStream renders a Markdown answer while it streams in: each block is
// drawn as soon as it is complete, so the person reads the answer as it
// comes without ever seeing half-parsed Markdown.
//
// A block ends at a blank line outside a code fence, after a closing fence
// and after an ATX heading, once the next line starts flush left; a next line
// that is indented continues the block (a list item's second paragraph, an
// indented code block). Everything a block holds is parsed together, so a
// fence, a table or a list item is never drawn half done.
//
// A MarkdownStream is not safe for concurrent use.
type MarkdownStream struct {
	r   mdRenderer // renders each block, its buffers reused
	out []byte     // what a call returns, reused

	block []byte // the complete lines of the current block
	tail  []byte // the line still being written

	hasContent bool // block holds a line that is not blank
	// mayEnd says the block ends before the next line that starts flush
	// left: the last line was blank, closed a fence or was a heading.
	mayEnd bool
	fence  fence

	carry listCarry // numbering of an ordered list split into blocks
	wrote bool      // a block was drawn: the next is separated by a blank line
}

// Stream returns a stream that renders with m.
func (m *Markdown) Stream() *MarkdownStream { return &MarkdownStream{r: mdRenderer{m: m}} }

// Write takes the next piece of the answer, cut anywhere (even inside a
// UTF-8 character), and returns the rendering of every block it completed,
// or "" while the block is still open.
func (s *MarkdownStream) Write(delta string) string {
	out := s.out[:0]
	for delta != "" {
		i := strings.IndexByte(delta, '\n')
		if i < 0 {
			s.tail = append(s.tail, delta...)
			break
		}
		s.tail = append(s.tail, delta[:i+1]...)
		delta = delta[i+1:]
		out = s.addLine(out, s.tail)
		s.tail = s.tail[:0]
	}
	// The first character of the next line decides whether the block
	// ended: draw it without waiting for the rest of that line.
	if s.mayEnd && s.hasContent && len(s.tail) > 0 && !isBlankByte(s.tail[0]) {
		out = s.end(out)
	}
	s.out = out
	return string(out)
}

// Flush renders what is left, an unterminated last line and an unclosed
// fence included, and resets the stream for a new answer.
func (s *MarkdownStream) Flush() string {
	out := s.out[:0]
	if len(s.tail) > 0 {
		out = s.addLine(out, s.tail)
	}
	if s.hasContent {
		out = s.end(out)
	}
	*s = MarkdownStream{r: s.r, out: out, block: s.block[:0], tail: s.tail[:0]}
	return string(out)
}

// addLine adds one line (with its newline, if it has one) to the block,
// drawing the block first if the line starts the next one.
func (s *MarkdownStream) addLine(out, line []byte) []byte {
	blank := isBlankLine(line)
	if s.mayEnd && s.hasContent && !blank && !isBlankByte(line[0]) {
		out = s.end(out)
	}
	s.block = append(s.block, line...)
	if blank {
		if s.fence.n == 0 {
			s.mayEnd = true
		}
		return out
	}
	s.hasContent = true
	s.mayEnd = false
	switch {
	case s.fence.n > 0:
		if s.fence.closedBy(line) {
			s.fence = fence{}
			s.mayEnd = true
		}
	case openFence(line, &s.fence):
	case isATXHeading(line):
		s.mayEnd = true
	}
	return out
}

// end draws the block and starts the next.
func (s *MarkdownStream) end(out []byte) []byte {
	if r := s.r.document(s.block, &s.carry); len(r) > 0 {
		if s.wrote {
			out = append(out, '\n')
		}
		out = append(out, r...)
		s.wrote = true
	}
	s.block = s.block[:0]
	s.hasContent, s.mayEnd = false, false
	return out
}

// fence is an open code fence: its character and length (n 0: none).
type fence struct {
	char byte
	n    int
}

// openFence reports whether line opens a code fence ("```go", "~~~"), and
// records it in f. Indentation and quote markers before it are skipped: a
// fence inside a list item or a quote holds blank lines too.
func openFence(line []byte, f *fence) bool {
	l := skipContainers(line)
	if len(l) == 0 || (l[0] != '`' && l[0] != '~') {
		return false
	}
	n := runLength(l, l[0])
	if n < 3 {
		return false
	}
	if l[0] == '`' && bytes.IndexByte(l[n:], '`') >= 0 {
		return false // "```a```" is inline code, not a fence
	}
	*f = fence{char: l[0], n: n}
	return true
}

// closedBy reports whether line closes the fence: a run of the same
// character at least as long, and nothing after it.
func (f fence) closedBy(line []byte) bool {
	l := skipContainers(line)
	n := runLength(l, f.char)
	return n >= f.n && isBlankLine(l[n:])
}

// skipContainers skips leading indentation and block quote markers.
func skipContainers(l []byte) []byte {
	for len(l) > 0 && (isBlankByte(l[0]) || l[0] == '>') {
		l = l[1:]
	}
	return l
}

func runLength(l []byte, c byte) int {
	n := 0
	for n < len(l) && l[n] == c {
		n++
	}
	return n
}

// isATXHeading reports whether line is a heading such as "## Title": a
// one-line block, so whatever follows it flush left is a new block.
func isATXHeading(line []byte) bool {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	n := runLength(line[i:], '#')
	if n < 1 || n > 6 {
		return false
	}
	rest := line[i+n:]
	return len(rest) == 0 || isBlankByte(rest[0]) || rest[0] == '\n'
}

// isBlankLine reports whether line holds only whitespace.
func isBlankLine(line []byte) bool {
	for _, c := range line {
		if !isBlankByte(c) && c != '\n' {
			return false
		}
	}
	return true
}

// isBlankByte reports the whitespace a line may start with or hold when
// blank.
func isBlankByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }
