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
// whatever reads it). A row too wide goes on over lines aligned under
// its value, broken where a word or a list item ends, never inside a
// word; its source then follows, in parentheses, on a line of its own.
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
	for _, e := range entries {
		v := shownValue(e.Value)
		lead := "  " + pad(e.Key, kw) + "  "
		if width <= 0 || valueCol+max(len(v), vw)+2+len(e.Source) <= width {
			b.WriteString("\n" + lead + pad(v, vw) + "  " + e.Source)
			continue
		}
		room := max(width-valueCol, configValueWidth/2)
		for i, l := range append(breakValue(v, room), breakValue("("+e.Source+")", room)...) {
			if i > 0 {
				lead = strings.Repeat(" ", valueCol)
			}
			b.WriteString("\n" + lead + l)
		}
	}
	return b.String()
}

// pad is s with spaces after it up to n bytes (the keys and values it
// pads are forge's own ASCII, or are cut to their column before).
func pad(s string, n int) string { return s + strings.Repeat(" ", max(n-len(s), 0)) }

// breakValue cuts v into lines of at most room bytes where a word or an
// item of a list ends: after a space, a comma, or the colon of a path
// list. A piece longer than room stays whole on a line of its own.
func breakValue(v string, room int) []string {
	var out []string
	line := ""
	for _, piece := range valuePieces(v) {
		if line != "" && len(strings.TrimRight(line+piece, " ")) > room {
			out = append(out, strings.TrimRight(line, " "))
			line = ""
		}
		line += piece
	}
	return append(out, strings.TrimRight(line, " "))
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
