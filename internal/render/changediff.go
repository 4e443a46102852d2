package render

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/tools"
)

// The bounds of a change's diff: what an approval question can show, with
// every line revealed, without flooding the terminal or the memory.
const (
	diffContext     = 3
	maxDiffOutLines = 10_000
	maxDiffOutBytes = 1 << 20
	maxDiffLineLen  = 16 << 10
)

// ChangePreview is a file change as an approval question shows it: the
// unified diff of the file before and after, or why it cannot be shown.
// Line endings that change, and carriage returns inside lines, are made
// visible, so that no change looks like none. Its time and size stay
// bounded for any file; where it is cut, it says so.
func ChangePreview(c tools.Change) string {
	d, _, _ := changeDiff(c)
	return d
}

// changeDiff is ChangePreview with the lines the change adds and removes,
// counted whole even where the diff is cut.
func changeDiff(c tools.Change) (diff string, added, removed int) {
	if note := changeNote(c); note != "" {
		return c.Path + ": " + note, 0, 0
	}
	from := c.Path
	if c.Created {
		from = "/dev/null"
	}
	w := diffWriter{showCR: showsCR(c.Old, c.New)}
	if oldCRLF, newCRLF := usesCRLF(c.Old), usesCRLF(c.New); !c.Created && oldCRLF != newCRLF {
		w.b.WriteString("(line endings change: " + eolName(oldCRLF) + " to " + eolName(newCRLF) + ")\n")
	}
	w.b.WriteString("--- " + from + "\n+++ " + c.Path + "\n")
	w.write(c.Old, c.New)
	return strings.TrimSuffix(w.b.String(), "\n"), w.added, w.removed
}

// changeNote says what a change is when it has no diff to show: why it
// cannot be shown, or that it creates an empty file or changes nothing;
// "" when it has a diff.
func changeNote(c tools.Change) string {
	switch {
	case c.Unshown != "":
		return "forge cannot show this change: " + c.Unshown + "."
	case c.Created && len(c.New) == 0:
		return "a new, empty file"
	case !c.Created && bytes.Equal(c.Old, c.New):
		return "no change: the file already has this content"
	}
	return ""
}

// showsCR reports whether a diff of old and new shows which lines end in
// CRLF: when not all their lines end alike, so that a line whose ending
// alone changes cannot look unchanged.
func showsCR(old, new []byte) bool {
	crlf := bytes.Count(old, []byte("\r\n")) + bytes.Count(new, []byte("\r\n"))
	return crlf > 0 && crlf != bytes.Count(old, []byte("\n"))+bytes.Count(new, []byte("\n"))
}

// usesCRLF reports whether most line endings of b are CRLF.
func usesCRLF(b []byte) bool {
	crlf := bytes.Count(b, []byte("\r\n"))
	return crlf > 0 && crlf*2 >= bytes.Count(b, []byte("\n"))
}

func eolName(crlf bool) string {
	if crlf {
		return "CRLF"
	}
	return "LF"
}

// diffWriter writes a unified diff, cut at the bounds.
type diffWriter struct {
	b      strings.Builder
	showCR bool // see showsCR
	lines  int
	// shown and total count the changed lines written and in all.
	shown, total int
	// added and removed count the lines the change adds and removes.
	added, removed int
}

// write writes the hunks that turn old into new. Only the part between
// their common first and last lines (and the context around it) is split
// into lines, so a small edit of a huge file costs little.
func (w *diffWriter) write(old, new []byte) {
	p, s := commonLines(old, new)
	p = backLines(old, p, diffContext)
	s = len(old) - forwardLines(old, len(old)-s, diffContext)
	base := bytes.Count(old[:p], []byte("\n"))
	a := splitKeep(string(old[p : len(old)-s]))
	b := splitKeep(string(new[p : len(new)-s]))
	edits, whole := diffLines(a, b)
	if whole {
		w.b.WriteString("(too many lines change to find the smallest diff: the changed part is shown whole)\n")
	}
	for _, e := range edits {
		w.removed += e.a1 - e.a0
		w.added += e.b1 - e.b0
	}
	w.total = w.added + w.removed
	for i := 0; i < len(edits); {
		j := i + 1
		for j < len(edits) && edits[j].a0-edits[j-1].a1 <= 2*diffContext {
			j++
		}
		if !w.hunk(a, b, edits[i:j], base) {
			w.b.WriteString("… the diff is cut here: " + plural(w.total-w.shown, "more changed line") + " not shown\n")
			return
		}
		i = j
	}
}

// hunk writes one hunk of edits (close enough to share context), and
// reports false when the bounds cut it.
func (w *diffWriter) hunk(a, b []string, edits []lineEdit, base int) bool {
	first, last := edits[0], edits[len(edits)-1]
	a0, a1 := max(0, first.a0-diffContext), min(len(a), last.a1+diffContext)
	b0, b1 := first.b0-(first.a0-a0), last.b1+(a1-last.a1)
	w.b.WriteString("@@ -" + hunkRange(base+a0, a1-a0) + " +" + hunkRange(base+b0, b1-b0) + " @@\n")
	i := a0
	for _, e := range edits {
		for ; i < e.a0; i++ {
			if !w.line(' ', a[i], 0) {
				return false
			}
		}
		if !w.replaced(a[e.a0:e.a1], b[e.b0:e.b1]) {
			return false
		}
		i = e.a1
	}
	for ; i < a1; i++ {
		if !w.line(' ', a[i], 0) {
			return false
		}
	}
	return true
}

// replaced writes the removed lines, then the added ones. A line too long
// to show whole that replaces a line of the same place is shown from a
// little before where the two first differ, so that the change itself is
// in view.
func (w *diffWriter) replaced(removed, added []string) bool {
	from := make([]int, max(len(removed), len(added)))
	if len(removed) == len(added) {
		for k := range removed {
			if len(removed[k]) > maxDiffLineLen || len(added[k]) > maxDiffLineLen {
				from[k] = max(0, firstDifference(removed[k], added[k])-maxDiffLineLen/4)
			}
		}
	}
	for k, l := range removed {
		if !w.line('-', l, from[k]) {
			return false
		}
		w.shown++
	}
	for k, l := range added {
		if !w.line('+', l, from[k]) {
			return false
		}
		w.shown++
	}
	return true
}

// firstDifference is the offset of the first byte where a and b differ.
func firstDifference(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// hunkRange is a hunk's start line and count as unified diffs write them.
func hunkRange(start, count int) string {
	if count == 0 {
		return strconv.Itoa(start) + ",0"
	}
	if count == 1 {
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
}

// line writes one line of the diff with its mark, or reports false when
// the bounds are reached. The line's ending is not shown, but for a CRLF
// shown as ␍ when the lines end in both ways (showCR); a carriage return
// inside the line is shown
// as ␍, never as a line break that would make added text look like
// context. A line longer than maxDiffLineLen is shown in part, from
// about the offset from.
func (w *diffWriter) line(mark byte, l string, from int) bool {
	if w.lines >= maxDiffOutLines || w.b.Len() >= maxDiffOutBytes {
		return false
	}
	w.lines++
	text, eol := strings.CutSuffix(l, "\n")
	text, cr := strings.CutSuffix(text, "\r")
	if cr && !eol {
		text, cr = text+"\r", false // a lone CR at the end of the file
	}
	before, more := 0, 0
	if len(text) > maxDiffLineLen {
		before = runeStart(text, min(from, len(text)-maxDiffLineLen))
		end := runeStart(text, before+maxDiffLineLen)
		text, more = text[before:end], len(text)-end
	}
	w.b.WriteByte(mark)
	if before > 0 {
		fmt.Fprintf(&w.b, "(line cut: %d bytes before) … ", before)
	}
	w.b.WriteString(strings.ReplaceAll(text, "\r", "␍"))
	if cr && w.showCR {
		w.b.WriteString("␍")
	}
	if more > 0 {
		fmt.Fprintf(&w.b, " … (line cut: %d more bytes)", more)
	}
	w.b.WriteByte('\n')
	if !eol {
		w.b.WriteString("\\ No newline at end of file\n")
	}
	return true
}

// runeStart moves i back to the start of the character it falls in.
func runeStart(s string, i int) int {
	for i > 0 && i < len(s) && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// commonLines returns the lengths of the longest common prefix and suffix
// of a and b made of whole lines, not overlapping.
func commonLines(a, b []byte) (prefix, suffix int) {
	n := min(len(a), len(b))
	for prefix < n && a[prefix] == b[prefix] {
		prefix++
	}
	prefix = bytes.LastIndexByte(a[:prefix], '\n') + 1
	for suffix < n-prefix && a[len(a)-1-suffix] == b[len(b)-1-suffix] {
		suffix++
	}
	sa, sb := len(a)-suffix, len(b)-suffix
	if (sa == prefix || a[sa-1] == '\n') && (sb == prefix || b[sb-1] == '\n') {
		return prefix, suffix
	}
	k := bytes.IndexByte(a[sa:], '\n')
	if k < 0 {
		return prefix, 0
	}
	return prefix, suffix - (k + 1)
}

// backLines moves the line start at back by up to n lines.
func backLines(b []byte, at, n int) int {
	for ; n > 0 && at > 0; n-- {
		at = bytes.LastIndexByte(b[:at-1], '\n') + 1
	}
	return at
}

// forwardLines moves the line start at forward by up to n lines.
func forwardLines(b []byte, at, n int) int {
	for ; n > 0 && at < len(b); n-- {
		k := bytes.IndexByte(b[at:], '\n')
		if k < 0 {
			return len(b)
		}
		at += k + 1
	}
	return at
}

// splitKeep splits s into lines that keep their "\n"; a last line without
// one is a line too.
func splitKeep(s string) []string {
	var out []string
	for l := range strings.Lines(s) {
		out = append(out, l)
	}
	return out
}
