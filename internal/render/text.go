package render

import (
	"strings"

	"github.com/forgehq/forge/internal/termsafe"
)

// The terminal sanitiser and width measure are termsafe's, one for all of
// forge; these are their names in render.

func sanitizeLines(s string) []string     { return termsafe.Lines(s) }
func isPlainASCII(s string) bool          { return termsafe.PlainASCII(s) }
func nextSegment(s string) (n, width int) { return termsafe.Segment(s) }
func textWidth(s string) int              { return termsafe.Width(s) }

// wrap breaks one sanitized line into pieces of at most first cells (the
// first piece) and rest cells (the others), at spaces where it can; a word
// wider than a whole line is broken between grapheme clusters. Spaces at a
// break are dropped; everything else is kept, so no text is ever lost.
func wrap(s string, first, rest int) []string {
	first, rest = max(first, 2), max(rest, 2)
	if len(s) <= first && isPlainASCII(s) {
		return []string{s}
	}
	w := wrapper{s: s, limit: first, rest: rest}
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			i = w.space(i)
		} else {
			i = w.word(i)
		}
	}
	if w.start < len(s) || len(w.out) == 0 {
		w.out = append(w.out, s[w.start:])
	}
	return w.out
}

// wrapper is wrap's state as it walks a line. Each step takes what begins
// at i (a space or a word) and returns where the next begins.
type wrapper struct {
	s       string
	out     []string
	start   int  // where the current piece begins
	width   int  // its width so far
	limit   int  // the width it may take
	rest    int  // the width of every piece after the first
	hasWord bool // the piece holds more than leading spaces
}

// breakAt ends the current piece at end (its trailing spaces dropped) and
// starts the next there.
func (w *wrapper) breakAt(end int) {
	piece := w.s[w.start:end]
	if w.hasWord {
		piece = strings.TrimRight(piece, " ")
	}
	w.out = append(w.out, piece)
	w.start, w.width, w.limit, w.hasWord = end, 0, w.rest, false
}

// space takes the space at i. On a full piece it breaks there, and the
// spaces at the break are dropped.
func (w *wrapper) space(i int) int {
	if w.width+1 <= w.limit {
		w.width++
		return i + 1
	}
	w.breakAt(i)
	for i < len(w.s) && w.s[i] == ' ' {
		i++
	}
	w.start = i
	return i
}

// word takes the word at i: onto the current piece if it fits, else onto
// the next, and broken up if it is wider than a whole line.
func (w *wrapper) word(i int) int {
	end, width := i, 0
	for end < len(w.s) && w.s[end] != ' ' {
		n, cw := nextSegment(w.s[end:])
		end += n
		width += cw
	}
	if w.width+width <= w.limit {
		w.width += width
		w.hasWord = true
		return end
	}
	if w.hasWord {
		w.breakAt(i)
		if width <= w.limit {
			w.width, w.hasWord = width, true
			return end
		}
	}
	w.breakWord(i, end)
	return end
}

// breakWord places the word s[i:end], too wide for any line, filling the
// current piece and breaking between grapheme clusters.
func (w *wrapper) breakWord(i, end int) {
	for i < end {
		n, cw := nextSegment(w.s[i:])
		if w.width+cw > w.limit && w.width > 0 {
			w.breakAt(i)
		}
		w.width += cw
		w.hasWord = true
		i += n
	}
}

// fitWidth returns the longest prefix of sanitized text s that is at most w
// cells wide, cut between grapheme clusters.
func fitWidth(s string, w int) string {
	width := 0
	for i := 0; i < len(s); {
		n, cw := nextSegment(s[i:])
		if width+cw > w {
			return s[:i]
		}
		width += cw
		i += n
	}
	return s
}

// spaces returns n spaces (none for n <= 0).
func spaces(n int) string {
	const blank = "                                                                                                                                "
	if n <= 0 {
		return ""
	}
	if n <= len(blank) {
		return blank[:n]
	}
	return strings.Repeat(" ", n)
}
