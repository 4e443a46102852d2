package builtin

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// sortHits orders hits by walk position: directory by directory, names in
// lexical order (`rg --sort path`).
func sortHits(hits []grepHit) {
	sort.Slice(hits, func(i, j int) bool { return hits[i].idx < hits[j].idx })
}

// report pages the hits (offset, head_limit) and formats them for the mode.
func (t *grepTool) report(ctx context.Context, q grepQuery, hits []grepHit, budget int) tools.Result {
	mode := q.job.mode
	files, matches := 0, 0
	for _, h := range hits {
		if h.err == nil {
			files++
			matches += h.count
		}
	}
	meta := []any{"path", q.root, "mode", mode, "files", files, "matches", matches}
	var entries []string // the result list, before paging
	uncounted := 0       // content lines counted but not kept, past the last page asked for
	switch mode {
	case modeFiles:
		for _, h := range hits {
			if h.err == nil {
				entries = append(entries, h.path)
			}
		}
	case modeCount:
		for _, h := range hits {
			if h.err == nil {
				entries = append(entries, h.path+":"+strconv.Itoa(h.count))
			}
		}
	default:
		entries, uncounted = t.contentLines(ctx, q, hits)
	}
	total := len(entries) + uncounted
	if total == 0 {
		return tools.OK("No matches found", append(meta, "total", 0, "shown", 0, "truncated", false)...)
	}
	start := min(q.offset, total)
	end := total
	if q.headLimit > 0 {
		end = min(total, start+q.headLimit)
	}
	var out strings.Builder
	shown := 0
	for _, e := range entries[min(start, len(entries)):min(end, len(entries))] {
		if out.Len()+len(e)+1 > budget-200 && shown > 0 {
			break
		}
		out.WriteString(e)
		out.WriteByte('\n')
		shown++
	}
	next := start + shown
	if start == total {
		fmt.Fprintf(&out, "(offset %d is past the end: there are %d results)", q.offset, total)
	} else if next < total {
		unit := "results"
		if mode == modeContent {
			unit = "lines"
		} else if mode == modeFiles {
			unit = "files"
		}
		fmt.Fprintf(&out, "(%d more %s not shown. Use offset=%d to see more.)", total-next, unit, next)
	}
	return tools.OK(strings.TrimSuffix(out.String(), "\n"), append(meta, "total", total, "shown", shown, "offset", q.offset, "truncated", next < total)...)
}

// contentLines renders content mode's lines in order: "path:12:text" for a
// match, "path-13-text" for context, "--" between separate groups. Lines of
// files whose text was not kept (the budget ran out while other files were
// searched) are searched again if they fall inside the page; past it they
// are only counted, in uncounted (their matches, not their context).
func (t *grepTool) contentLines(ctx context.Context, q grepQuery, hits []grepHit) (lines []string, uncounted int) {
	need := q.offset + q.headLimit
	groups := q.job.before > 0 || q.job.after > 0 // "--" separates groups only with context, as in ripgrep
	var out []string
	var buf []byte
	for i, h := range hits {
		if h.err != nil {
			continue
		}
		if h.truncated && (q.headLimit == 0 || len(out) < need) && ctx.Err() == nil {
			h.fileResult = q.job.searchFile(q.src, h.rel, func(int) bool { return true }, &buf)
			hits[i] = h
		}
		for j, l := range h.lines {
			if groups && (l.gap || (j == 0 && len(out) > 0)) {
				out = append(out, "--")
			}
			sep := "-"
			if l.match {
				sep = ":"
			}
			if q.numbers {
				out = append(out, h.path+sep+strconv.Itoa(l.no)+sep+l.text)
			} else {
				out = append(out, h.path+sep+l.text)
			}
		}
		if h.truncated {
			uncounted += h.count - countMatches(h.lines)
		}
	}
	return out, uncounted
}

func countMatches(ls []grepLine) int {
	n := 0
	for _, l := range ls {
		if l.match {
			n++
		}
	}
	return n
}
