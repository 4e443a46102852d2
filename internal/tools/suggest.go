package tools

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Suggest returns up to maxN candidates that name is probably a misspelling
// of, closest first, for "did you mean" messages about unknown tools and
// commands. It ignores case. A candidate qualifies when it equals name but
// for case, when its edit distance (Damerau: a swap of two neighbouring
// letters counts as one edit) is at most a third of the name's length
// (at least 1, at most 3), or when it begins with name (at least 2 letters).
// Ties are broken by name. maxN <= 0 means no limit; an empty name gets no
// suggestions.
func Suggest(name string, candidates []string, maxN int) []string {
	if name == "" {
		return nil
	}
	type scored struct {
		name  string
		class int // 0 same but for case, 1 close by distance, 2 prefix
		dist  int
	}
	lname := strings.ToLower(name)
	n := utf8.RuneCountInString(lname)
	within := min(max(1, n/3), 3)
	var found []scored
	seen := map[string]bool{}
	for _, c := range candidates {
		if seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		d := distance(lname, lc)
		switch {
		case lc == lname:
			found = append(found, scored{c, 0, 0})
		case d <= within:
			found = append(found, scored{c, 1, d})
		case n >= 2 && strings.HasPrefix(lc, lname):
			found = append(found, scored{c, 2, d})
		}
	}
	slices.SortFunc(found, func(a, b scored) int {
		if a.class != b.class {
			return a.class - b.class
		}
		if a.dist != b.dist {
			return a.dist - b.dist
		}
		return strings.Compare(a.name, b.name)
	})
	if maxN > 0 && len(found) > maxN {
		found = found[:maxN]
	}
	out := make([]string, len(found))
	for i, s := range found {
		out[i] = s.name
	}
	return out
}

// distance is the optimal string alignment distance between a and b, in
// runes: insertions, deletions, substitutions and swaps of neighbours.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// three rows: two back for swaps, one back, current
	prev2 := make([]int, len(rb)+1)
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
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
