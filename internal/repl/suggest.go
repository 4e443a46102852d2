package repl

import (
	"sort"
	"strings"
)

// suggest returns up to max candidates close to name, closest first: a
// case-insensitive edit distance within a third of the name's length (at
// least 2), or a shared prefix.
//
// TODO(repl): switch to tools.Suggest once internal/tools/suggest.go lands.
func suggest(name string, candidates []string, max int) []string {
	type scored struct {
		s string
		d int
	}
	low := strings.ToLower(name)
	limit := len([]rune(name)) / 3
	if limit < 2 {
		limit = 2
	}
	var out []scored
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(low, lc)
		if lc == low {
			d = 0
		} else if strings.HasPrefix(lc, low) || strings.HasPrefix(low, lc) {
			if d > 1 {
				d = 1
			}
		}
		if d <= limit {
			out = append(out, scored{c, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].d != out[j].d {
			return out[i].d < out[j].d
		}
		return out[i].s < out[j].s
	})
	names := make([]string, 0, max)
	for _, o := range out {
		if len(names) == max {
			break
		}
		names = append(names, o.s)
	}
	return names
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
