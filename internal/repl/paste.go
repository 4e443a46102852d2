package repl

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/render"
)

// Pastes up to this size, on one line and without control characters,
// are typed into the line as they are; the line editor redraws per key, so
// anything longer is shown by a short mark instead.
const maxLiteralPaste = 400

// maxPasteMemory bounds the pastes a session keeps for their marks; the
// oldest go first.
const maxPasteMemory = 128 << 20

// pastes are the session's pastes that the line shows by a mark, such as
// "[pasted 6 lines, 312 bytes]", by that mark. A line is expanded when
// it is sent, so a line recalled from the history in the same session
// brings its paste back too.
type pastes struct {
	mu    sync.Mutex
	text  map[string]string
	order []string // marks, oldest first
	size  int
}

var pasteMark = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[pasted [^\[\]\n]*\]`) })

// add keeps a paste and returns what the line gets in its place: the text
// itself when short and plain, otherwise its mark. cut says the paste
// was longer than forge keeps.
func (p *pastes) add(text string, cut bool) string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n") // terminals send a paste's newlines as Enter
	if one := strings.TrimSuffix(text, "\n"); !cut && isPlainLine(one) {
		return one
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.text == nil {
		p.text = map[string]string{}
	}
	base := describePaste(text, cut)
	mark := "[" + base + "]"
	for n := 2; ; n++ {
		old, ok := p.text[mark]
		if !ok || old == text {
			break
		}
		mark = fmt.Sprintf("[%s #%d]", base, n)
	}
	if _, ok := p.text[mark]; !ok {
		p.text[mark] = text
		p.order = append(p.order, mark)
		p.size += len(text)
		for p.size > maxPasteMemory && len(p.order) > 1 {
			p.size -= len(p.text[p.order[0]])
			delete(p.text, p.order[0])
			p.order = p.order[1:]
		}
	}
	return mark
}

// expand puts the pastes back in place of their marks; a mark the session
// does not know (typed, or from an earlier session's history) stays.
func (p *pastes) expand(line string) string {
	if !strings.Contains(line, "[pasted ") {
		return line
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return pasteMark().ReplaceAllStringFunc(line, func(m string) string {
		if text, ok := p.text[m]; ok {
			return text
		}
		return m
	})
}

// isPlainLine says s can be typed into the line as it is: short, one
// line, printable.
func isPlainLine(s string) bool {
	if len(s) > maxLiteralPaste || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// describePaste is what a paste's mark says: "pasted 6 lines, 312 bytes".
func describePaste(text string, cut bool) string {
	lines := strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	s := fmt.Sprintf("pasted %s, %s", lineCount(lines), render.ByteSize(len(text)))
	if cut {
		s += ", cut there"
	}
	return s
}

func lineCount(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}
