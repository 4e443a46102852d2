package render

import (
	"slices"
	"sort"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// lineEdit replaces the old lines [a0, a1) with the new lines [b0, b1).
type lineEdit struct{ a0, a1, b0, b1 int }

const (
	// maxDiffLines bounds the lines of each side that are diffed line by
	// line; a larger change is shown as one replacement, which is true but
	// not minimal.
	maxDiffLines = 200_000
	// maxAnchorDepth bounds how often a gap between anchors is anchored
	// again before the bounded LCS takes it.
	maxAnchorDepth = 4
)

// diffLines returns the edits that turn the lines a into b, in order. It
// anchors on lines that occur once on each side (patience diff) and diffs
// the gaps between anchors with go-udiff's LCS, which gives up minimality
// rather than time past a fixed number of differences. So the time stays
// near linear in the lines, whatever they are, and the result is always a
// correct diff, minimal for the small, scattered changes edits make. It
// reports whether the change was too large to diff line by line.
func diffLines(a, b []string) (edits []lineEdit, whole bool) {
	if len(a) > maxDiffLines || len(b) > maxDiffLines {
		a0, a1, b0, b1 := trimEqual(a, b, 0, len(a), 0, len(b))
		if a0 == a1 && b0 == b1 {
			return nil, false
		}
		return []lineEdit{{a0, a1, b0, b1}}, true
	}
	diffRange(a, b, 0, len(a), 0, len(b), 0, &edits)
	return edits, false
}

// trimEqual narrows the ranges a[a0:a1], b[b0:b1] by their equal first and
// last lines.
func trimEqual(a, b []string, a0, a1, b0, b1 int) (int, int, int, int) {
	for a0 < a1 && b0 < b1 && a[a0] == b[b0] {
		a0, b0 = a0+1, b0+1
	}
	for a0 < a1 && b0 < b1 && a[a1-1] == b[b1-1] {
		a1, b1 = a1-1, b1-1
	}
	return a0, a1, b0, b1
}

// diffRange appends to out the edits that turn a[a0:a1] into b[b0:b1].
func diffRange(a, b []string, a0, a1, b0, b1, depth int, out *[]lineEdit) {
	a0, a1, b0, b1 = trimEqual(a, b, a0, a1, b0, b1)
	switch {
	case a0 == a1 && b0 == b1:
		return
	case a0 == a1 || b0 == b1:
		*out = append(*out, lineEdit{a0, a1, b0, b1})
		return
	}
	var anchors []anchor
	if depth < maxAnchorDepth {
		anchors = uniqueAnchors(a[a0:a1], b[b0:b1])
	}
	if len(anchors) == 0 {
		for _, d := range lcs.DiffLines(a[a0:a1], b[b0:b1]) {
			*out = append(*out, lineEdit{a0 + d.Start, a0 + d.End, b0 + d.ReplStart, b0 + d.ReplEnd})
		}
		return
	}
	pa, pb := a0, b0
	for _, an := range anchors {
		diffRange(a, b, pa, a0+an.i, pb, b0+an.j, depth+1, out)
		pa, pb = a0+an.i+1, b0+an.j+1
	}
	diffRange(a, b, pa, a1, pb, b1, depth+1, out)
}

// anchor pairs a line of a with the equal line of b.
type anchor struct{ i, j int }

// uniqueAnchors are the lines that occur exactly once in a and once in b,
// the longest run of them that keeps its order on both sides.
func uniqueAnchors(a, b []string) []anchor {
	const many = -1
	inA := make(map[string]int, len(a))
	for i, l := range a {
		if _, seen := inA[l]; seen {
			inA[l] = many
		} else {
			inA[l] = i
		}
	}
	inB := make(map[string]int, len(b))
	for j, l := range b {
		if i, ok := inA[l]; !ok || i == many {
			continue
		}
		if _, seen := inB[l]; seen {
			inB[l] = many
		} else {
			inB[l] = j
		}
	}
	var pairs []anchor
	for i, l := range a {
		if j, ok := inB[l]; ok && j != many && inA[l] == i {
			pairs = append(pairs, anchor{i, j})
		}
	}
	return increasing(pairs)
}

// increasing is the longest subsequence of pairs (ordered by i) whose j
// increase too, found by patience sorting.
func increasing(pairs []anchor) []anchor {
	if len(pairs) == 0 {
		return nil
	}
	var tops []int                  // tops[k]: index in pairs of the smallest j ending a run of k+1
	prev := make([]int, len(pairs)) // the pair before each in its run
	for n, p := range pairs {
		k := sort.Search(len(tops), func(k int) bool { return pairs[tops[k]].j >= p.j })
		prev[n] = -1
		if k > 0 {
			prev[n] = tops[k-1]
		}
		if k == len(tops) {
			tops = append(tops, n)
		} else {
			tops[k] = n
		}
	}
	run := make([]anchor, 0, len(tops))
	for n := tops[len(tops)-1]; n >= 0; n = prev[n] {
		run = append(run, pairs[n])
	}
	slices.Reverse(run)
	return run
}
