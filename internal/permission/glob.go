package permission

import "strings"

// wild stands, in a command's matching text, for a part whose value is
// known only when the shell runs: an expansion ($X, $(cmd)), or for deny
// checks also a glob, brace or tilde the shell expands. Shell words cannot
// hold a NUL byte, so it never stands for itself.
const wild = '\x00'

// starMatch reports whether pattern, in which * matches any run of bytes
// (spaces included) and every other byte itself, matches every text that
// text can stand for: a wild byte is covered only by a *. Allow rules use
// it, so an expansion is allowed only where the rule allows anything.
func starMatch(pattern, text string) bool {
	p, t := 0, 0
	starP, starT := -1, -1
	for p < len(pattern) || t < len(text) {
		if p < len(pattern) {
			c := pattern[p]
			if c == '*' {
				starP, starT = p, t+1
				p++
				continue
			}
			if t < len(text) && text[t] == c && c != wild {
				p++
				t++
				continue
			}
		}
		if starP >= 0 && starT <= len(text) {
			p, t = starP, starT
			continue
		}
		return false
	}
	return true
}

// maxIntersectCells bounds the work of starIntersect; beyond it the answer
// is a conservative "could match" (deny rules use it).
const maxIntersectCells = 1 << 22

// starIntersect reports whether pattern (with * as in starMatch) could
// match some text that text stands for, each wild byte in text matching
// any run of bytes. Deny rules use it: an expansion could be anything.
func starIntersect(pattern, text string) bool {
	if strings.IndexByte(text, wild) < 0 {
		return starMatch(pattern, text)
	}
	m, n := len(pattern), len(text)
	if (m+1)*(n+1) > maxIntersectCells {
		return true
	}
	// reach[j] for row i: pattern[:i] and text[:j] can be consumed together,
	// in the product of the two patterns' automata. Every step moves i or j
	// forward, so one pass in row order settles each cell.
	prev := make([]bool, n+1)
	cur := make([]bool, n+1)
	for i := 0; i <= m; i++ {
		for j := 0; j <= n; j++ {
			ok := i == 0 && j == 0
			if !ok && i > 0 && pattern[i-1] == '*' && prev[j] {
				ok = true // the pattern's * produces nothing more
			}
			if !ok && j > 0 && text[j-1] == wild && cur[j-1] {
				ok = true // the text's wild part produces nothing more
			}
			if !ok && i > 0 && j > 0 && pattern[i-1] != '*' && text[j-1] != wild && pattern[i-1] == text[j-1] && prev[j-1] {
				ok = true // the same byte on both sides
			}
			if !ok && j > 0 && i < m && pattern[i] == '*' && text[j-1] != wild && cur[j-1] {
				ok = true // the pattern's * takes a byte of text
			}
			if !ok && i > 0 && j < n && text[j] == wild && pattern[i-1] != '*' && prev[j] {
				ok = true // the text's wild part produces a byte of pattern
			}
			cur[j] = ok
		}
		prev, cur = cur, prev
	}
	return prev[n]
}
