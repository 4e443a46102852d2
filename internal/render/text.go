package render

import (
	"strings"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// maxClusterBytes bounds how far nextSegment looks for the end of a
// grapheme cluster.
const maxClusterBytes = 48

// tabStop is where a tab in tool output moves the column to.
const tabStop = 8

// sanitizeLines turns arbitrary text (tool output, user input, file names)
// into display lines that cannot steer the terminal: it splits at "\n",
// "\r\n" and a lone "\r", expands tabs to spaces, shows C0 controls and DEL in
// caret notation (ESC as "^["), and replaces C1 controls, bidirectional
// overrides and invalid UTF-8 with U+FFFD. The result holds no escape
// sequence, so no tool can recolour, move the cursor or retitle the terminal.
func sanitizeLines(s string) []string {
	if isPlainASCII(s) {
		return strings.Split(s, "\n")
	}
	var (
		lines []string
		b     strings.Builder
		col   int // display column at measured, for tab stops
		// measured is how much of the line (in b) col accounts for: wide
		// text is measured only when a tab needs the column.
		measured int
	)
	flush := func() {
		lines = append(lines, b.String())
		b.Reset()
		col, measured = 0, 0
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '\n':
				flush()
			case c == '\r':
				if i < len(s) && s[i] == '\n' {
					i++
				}
				flush()
			case c == '\t':
				col += textWidth(b.String()[measured:])
				n := tabStop - col%tabStop
				b.WriteString(spaces(n))
				col += n
				measured = b.Len()
			case c < 0x20 || c == 0x7f:
				b.WriteByte('^')
				b.WriteByte(c ^ 0x40) // ^@ .. ^_, and ^? for DEL
			default:
				b.WriteByte(c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || isUnsafeRune(r) {
			b.WriteRune(utf8.RuneError)
			i += size
			continue
		}
		// Non-ASCII text is copied whole up to the next ASCII byte or unsafe
		// rune; the column (needed only for tabs) is measured lazily.
		j := i + size
		for j < len(s) && s[j] >= utf8.RuneSelf {
			r2, size2 := utf8.DecodeRuneInString(s[j:])
			if r2 == utf8.RuneError || isUnsafeRune(r2) {
				break
			}
			j += size2
		}
		b.WriteString(s[i:j])
		i = j
	}
	flush()
	return lines
}

// isPlainASCII reports whether s holds only printable ASCII and newlines: the
// common case, which needs no rewriting.
func isPlainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

// isUnsafeRune reports runes that terminals act on instead of printing, or
// that reorder text across the panel's borders: C1 controls (U+009B is a
// one-byte CSI for some terminals) and the bidirectional embeddings,
// overrides and isolates.
func isUnsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0xfeff: // a byte-order mark inside text is invisible and confuses widths
		return true
	}
	return false
}

// nextSegment returns the length in bytes and the width in cells of the unit
// of text at the start of s, splitting exactly as ansi.StringWidth (and so
// lipgloss.Width) does: one cell per ASCII byte, and whole grapheme clusters
// measured by uniseg otherwise. Breaking lines only between such units keeps
// the width of every piece equal to what lipgloss measures.
func nextSegment(s string) (n, width int) {
	if s[0] < utf8.RuneSelf {
		return 1, 1
	}
	// Grapheme rules can glue a whole run into one cluster (a million
	// combining marks, a run of prepended concatenation marks); looking at a
	// bounded window keeps wrapping linear. Real clusters are far shorter.
	look := s
	if len(look) > maxClusterBytes {
		cut := maxClusterBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		look = s[:cut]
	}
	cluster, _, w, _ := uniseg.FirstGraphemeClusterInString(look, -1)
	if len(cluster) == 0 {
		return 1, 1
	}
	if w > 2 {
		// No real character is wider than two cells; a longer "cluster" is a
		// run that grapheme rules glue together (prepended concatenation
		// marks: "\u0600\u0600..."), whose width uniseg sums rune by rune.
		// Break it between runes so that it can wrap.
		_, size := utf8.DecodeRuneInString(s)
		return size, uniseg.StringWidth(s[:size])
	}
	return len(cluster), w
}

// textWidth is the display width of sanitized text (no escapes).
func textWidth(s string) int {
	w := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			w++
			continue
		}
		n, cw := nextSegment(s[i:])
		i += n
		w += cw
	}
	return w
}

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
