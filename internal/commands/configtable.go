package commands

import (
	"strings"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/render"
)

// configValueWidth is the most the value column takes: longer values go
// on over lines of their own.
const configValueWidth = 40

// configText is the merged configuration as aligned rows of key, value
// and source, laid out to width cells (0: each row on one line, for
// whatever reads it). What does not fit goes on over lines aligned under
// the value column, broken where a word or a list item ends, never inside
// a word: a long source after its value, or a long value, its source then
// following in parentheses.
func configText(c config.Config, width int) string {
	return render.Fit(configHeader(c), width) + configRows(c.Entries(), width)
}

// configRows are configText's rows, each after a newline.
func configRows(entries []config.Entry, width int) string {
	var b strings.Builder
	kw, vw := 0, 0
	for _, e := range entries {
		kw = max(kw, len(e.Key))
		vw = max(vw, min(len(shownValue(e.Value)), configValueWidth))
	}
	valueCol := 2 + kw + 2
	if width > 0 {
		// The column narrows so that the rows with the shortest source
		// ("default") still fit on their line.
		shortest := width
		for _, e := range entries {
			shortest = min(shortest, len(e.Source))
		}
		vw = max(min(vw, width-valueCol-2-shortest), 0)
	}
	rest := max(width-valueCol, configValueWidth/2)
	for _, e := range entries {
		v := shownValue(e.Value)
		lead := "  " + pad(e.Key, kw) + "  "
		var lines []string
		switch {
		case width <= 0 || valueCol+max(len(v), vw)+2+len(e.Source) <= width:
			lines = []string{pad(v, vw) + "  " + e.Source}
		case len(v) <= vw:
			lines = sourceLines(e.Source, width-valueCol-vw-2, rest)
			lines[0] = pad(v, vw) + "  " + lines[0]
		default:
			lines = append(breakValue(v, rest, rest), breakValue("("+e.Source+")", rest, rest)...)
		}
		for i, l := range lines {
			if i > 0 {
				lead = strings.Repeat(" ", valueCol)
			}
			b.WriteString("\n" + strings.TrimRight(lead+l, " "))
		}
	}
	return b.String()
}

// pad is s with spaces after it up to n bytes (the keys and values it
// pads are forge's own ASCII, or are cut to their column before).
func pad(s string, n int) string { return s + strings.Repeat(" ", max(n-len(s), 0)) }

// breakValue cuts v into lines where a word or an item of a list ends:
// after a space, a comma, or the colon of a path list; the first line of
// at most first bytes, the others of at most rest. A piece longer than
// its line stays whole on a line of its own.
func breakValue(v string, first, rest int) []string {
	var out []string
	line, room := "", first
	for _, piece := range valuePieces(v) {
		if line != "" && len(strings.TrimRight(line+piece, " ")) > room {
			out = append(out, strings.TrimRight(line, " "))
			line, room = "", rest
		}
		line += piece
	}
	return append(out, strings.TrimRight(line, " "))
}

// sourceLines is a source too long for the first cells after its
// value: its kind there ("config file") and its file on the next line,
// or, when even its kind does not fit, the same on the lines after, of
// rest cells. A file is never broken.
func sourceLines(src string, first, rest int) []string {
	i := strings.LastIndexByte(src, ' ')
	switch {
	case len(src) <= first:
		return []string{src}
	case i > 0 && i <= first:
		return []string{src[:i], src[i+1:]}
	case first < rest:
		return append([]string{""}, sourceLines(src, rest, rest)...)
	case i > 0:
		return []string{src[:i], src[i+1:]}
	}
	return []string{src}
}

// valuePieces are v's words, each with the separator that ends it.
func valuePieces(v string) []string {
	var out []string
	start := 0
	for i := 0; i < len(v); i++ {
		if strings.IndexByte(" ,:", v[i]) >= 0 && (i+1 == len(v) || v[i+1] != ' ' || v[i] == ' ') {
			out = append(out, v[start:i+1])
			start = i + 1
		}
	}
	if start < len(v) {
		out = append(out, v[start:])
	}
	return out
}
