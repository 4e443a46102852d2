// Package termsafe is forge's one terminal sanitiser: everything a tool, a
// server or a model produced passes through it before it reaches a
// terminal or a text stream (panels, lists, error messages, logs), so that
// no escape sequence from outside forge can recolour the screen, move the
// cursor, retitle the window or hide text. It also measures display width
// exactly as lipgloss does.
package termsafe

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

// Lines turns arbitrary text (tool output, user input, file names)
// into display lines that cannot steer the terminal: it splits at "\n",
// "\r\n" and a lone "\r", expands tabs to spaces, shows C0 controls and DEL in
// caret notation (ESC as "^["), and replaces C1 controls, bidirectional
// overrides and invalid UTF-8 with U+FFFD. The result holds no escape
// sequence, so no tool can recolour, move the cursor or retitle the terminal.
func Lines(s string) []string { return lines(s, false) }

// Text is s made safe as Lines makes it, its lines joined again, with its
// tabs kept: for text a reader may save or pipe (a model's answer holding
// a Makefile), where a tab is content, not layout.
func Text(s string) string { return strings.Join(lines(s, true), "\n") }

func lines(s string, keepTabs bool) []string {
	if PlainASCII(s) {
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
			case c == '\t' && keepTabs:
				b.WriteByte(c)
			case c == '\t':
				col += Width(b.String()[measured:])
				n := tabStop - col%tabStop
				b.WriteString(strings.Repeat(" ", n))
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

// PlainASCII reports whether s holds only printable ASCII and newlines: the
// common case, which needs no rewriting.
func PlainASCII(s string) bool {
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

// Segment returns the length in bytes and the width in cells of the unit
// of text at the start of s, splitting exactly as ansi.StringWidth (and so
// lipgloss.Width) does: one cell per ASCII byte, and whole grapheme clusters
// measured by uniseg otherwise. Breaking lines only between such units keeps
// the width of every piece equal to what lipgloss measures.
func Segment(s string) (n, width int) {
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

// Width is the display width of sanitized text (no escapes).
func Width(s string) int {
	w := 0
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			w++
			continue
		}
		n, cw := Segment(s[i:])
		i += n
		w += cw
	}
	return w
}

// String is s made safe as Lines makes it, its lines joined again by "\n".
func String(s string) string {
	if PlainASCII(s) {
		return s
	}
	return strings.Join(Lines(s), "\n")
}
