package builtin

import (
	"bytes"
	"fmt"
	"strings"
)

// Bounds of the closest-lines search, so that a miss in a huge file stays
// cheap: lines compared per file, lines of old_string considered, candidate
// windows scored in full, and lines shown.
const (
	hintMaxFileLines = 200000
	hintMaxOldLines  = 60
	hintCandidates   = 8
	hintMinScore     = 0.35
	hintLineCut      = 400
)

// notFoundMessage explains that old was not found in path and shows the lines
// of content most like it, with whitespace made visible (→ tab, · trailing
// space, ␍ carriage return), so the caller can see what it got wrong.
func notFoundMessage(path string, content []byte, old string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "old_string was not found in %s.", path)
	fileLines := strings.Split(string(content), "\n")
	if len(fileLines) > 0 && fileLines[len(fileLines)-1] == "" {
		fileLines = fileLines[:len(fileLines)-1]
	}
	oldLines := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	start, score := closestWindow(fileLines, oldLines)
	if start < 0 || score < hintMinScore {
		b.WriteString(" No similar lines were found: read the file again and copy old_string exactly.")
		return b.String()
	}
	end := min(start+len(oldLines), len(fileLines))
	if end-start > hintMaxOldLines {
		end = start + hintMaxOldLines
	}
	where := fmt.Sprintf("lines are %d-%d", start+1, end)
	if end == start+1 {
		where = fmt.Sprintf("line is %d", end)
	}
	fmt.Fprintf(&b, "\nThe most similar %s (%.0f%% alike). Whitespace is shown as → tab, · trailing space, ␍ carriage return.\n", where, score*100)
	if sameButWhitespace(fileLines[start:end], oldLines) {
		b.WriteString("They differ from old_string only in whitespace (indentation, tabs, trailing spaces or line endings).\n")
	}
	for i := start; i < end; i++ {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, visibleWhitespace(fileLines[i]))
	}
	b.WriteString("old_string, shown the same way:\n")
	for i, l := range oldLines {
		if i == hintMaxOldLines {
			b.WriteString("\t…\n")
			break
		}
		fmt.Fprintf(&b, "\t%s\n", visibleWhitespace(l))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// closestWindow returns the start of the window of len(old) lines of file
// most like old, and its similarity in [0, 1]; -1 when file is empty. Only
// windows around the lines most like old's most distinctive line are scored
// in full, which keeps the search linear in the file's length.
func closestWindow(file, old []string) (int, float64) {
	if len(file) == 0 || len(old) == 0 {
		return -1, 0
	}
	if len(file) > hintMaxFileLines {
		file = file[:hintMaxFileLines]
	}
	if len(old) > hintMaxOldLines {
		old = old[:hintMaxOldLines]
	}
	anchor := 0
	for i, l := range old {
		if len(strings.TrimSpace(l)) > len(strings.TrimSpace(old[anchor])) {
			anchor = i
		}
	}
	type cand struct {
		line  int
		score float64
	}
	var top []cand
	ref := newBigrams(old[anchor])
	for i, l := range file {
		s := ref.similarity(l)
		if len(top) < hintCandidates || s > top[len(top)-1].score {
			top = append(top, cand{i, s})
			for j := len(top) - 1; j > 0 && top[j].score > top[j-1].score; j-- {
				top[j], top[j-1] = top[j-1], top[j]
			}
			if len(top) > hintCandidates {
				top = top[:hintCandidates]
			}
		}
	}
	best, bestScore := -1, -1.0
	for _, c := range top {
		start := max(0, min(c.line-anchor, len(file)-len(old)))
		total, n := 0.0, 0
		for j, l := range old {
			if start+j >= len(file) {
				break
			}
			total += newBigrams(l).similarity(file[start+j])
			n++
		}
		score := total / float64(len(old))
		if score > bestScore || (score == bestScore && start < best) {
			best, bestScore = start, score
		}
	}
	return best, bestScore
}

// bigrams is the set of byte pairs of a trimmed line, for a cheap Dice
// similarity that forgives whitespace and small typos. The set is a bitmap,
// so comparing it with a line costs no allocation.
type bigrams struct {
	text string
	n    int // distinct pairs
	set  *[1 << 16 / 64]uint64
}

func newBigrams(s string) bigrams {
	s = strings.TrimSpace(s)
	if len(s) > hintLineCut {
		s = s[:hintLineCut]
	}
	g := bigrams{text: s, set: new([1 << 16 / 64]uint64)}
	for i := 0; i+1 < len(s); i++ {
		k := uint16(s[i])<<8 | uint16(s[i+1])
		if g.set[k/64]&(1<<(k%64)) == 0 {
			g.set[k/64] |= 1 << (k % 64)
			g.n++
		}
	}
	return g
}

// similarity is 1 for lines equal but for surrounding whitespace, else
// (about) the Dice coefficient of their bigrams.
func (g bigrams) similarity(line string) float64 {
	t := strings.TrimSpace(line)
	if len(t) > hintLineCut {
		t = t[:hintLineCut]
	}
	if t == g.text {
		return 1
	}
	if g.n == 0 || len(t) < 2 {
		return 0
	}
	common := 0
	for i := 0; i+1 < len(t); i++ {
		k := uint16(t[i])<<8 | uint16(t[i+1])
		if g.set[k/64]&(1<<(k%64)) != 0 {
			common++
		}
	}
	return min(1, 2*float64(common)/float64(len(t)-1+g.n))
}

// sameButWhitespace reports whether a and b are equal once each line's
// whitespace runs are collapsed.
func sameButWhitespace(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(strings.Fields(a[i]), " ") != strings.Join(strings.Fields(b[i]), " ") {
			return false
		}
	}
	return true
}

// visibleWhitespace shows tabs as →, trailing spaces as · and a carriage
// return as ␍, and cuts very long lines.
func visibleWhitespace(s string) string {
	cr := strings.HasSuffix(s, "\r")
	s = strings.TrimSuffix(s, "\r")
	body := strings.TrimRight(s, " ")
	trailing := len(s) - len(body)
	if len(body) > hintLineCut {
		body = body[:hintLineCut] + "…"
	}
	var b bytes.Buffer
	b.WriteString(strings.ReplaceAll(body, "\t", "→"))
	b.WriteString(strings.Repeat("·", trailing))
	if cr {
		b.WriteString("␍")
	}
	return b.String()
}
