package builtin

import (
	"bytes"
	"regexp/syntax"
	"unicode/utf8"
)

// A prefilter finds the lines worth running a regular expression on: every
// match of the expression contains one of its literals, so a line holding
// none of them cannot match. Go's regexp engine has no DFA and runs a
// case-folded or alternation pattern at a few tens of MB/s; scanning for
// literals with bytes.Index runs at memory speed, and only the lines found
// are given to the engine.
type prefilter struct {
	lits []preLit
}

// preLit is one literal; fold means ASCII case-insensitive. A folded
// literal never holds k, s or non-ASCII letters, whose case folding reaches
// outside ASCII (K is also U+212A KELVIN SIGN), so that a byte-level
// case-insensitive search finds everything the engine would match.
type preLit struct {
	text []byte // lower-cased when fold
	fold bool
}

// Limits of the analysis: beyond them a pattern is left to the engine.
const (
	preMaxLits   = 16
	preMinLitLen = 2
)

// newPrefilter analyses a parsed pattern; nil means no useful prefilter.
func newPrefilter(re *syntax.Regexp) *prefilter {
	lits := required(re)
	if len(lits) == 0 {
		return nil
	}
	for _, l := range lits {
		if len(l.text) < preMinLitLen {
			return nil // too common to pay for itself
		}
	}
	return &prefilter{lits: lits}
}

// required returns literals one of which appears in every match of re, or
// nil when it cannot tell.
func required(re *syntax.Regexp) []preLit {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return []preLit{{text: []byte(string(re.Rune))}}
		}
		if l, ok := foldLiteral(re.Rune); ok {
			return []preLit{l}
		}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []preLit
		for _, sub := range re.Sub {
			if c := required(sub); c != nil && (best == nil || shortest(c) > shortest(best)) {
				best = c
			}
		}
		return best
	case syntax.OpAlternate:
		var all []preLit
		for _, sub := range re.Sub {
			c := required(sub)
			if c == nil || len(all)+len(c) > preMaxLits {
				return nil
			}
			all = append(all, c...)
		}
		return all
	}
	return nil
}

// foldLiteral returns the longest run of runes of a case-folded literal
// that an ASCII case-insensitive search can find exactly.
func foldLiteral(rs []rune) (preLit, bool) {
	var best, cur []byte
	for _, r := range rs {
		safe := r < utf8.RuneSelf && r != 'k' && r != 'K' && r != 's' && r != 'S'
		if safe {
			cur = append(cur, byte(lowerASCII(byte(r))))
			if len(cur) > len(best) {
				best = append(best[:0], cur...)
			}
			continue
		}
		cur = cur[:0]
	}
	return preLit{text: best, fold: true}, len(best) > 0
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func shortest(ls []preLit) int {
	n := -1
	for _, l := range ls {
		if n < 0 || len(l.text) < n {
			n = len(l.text)
		}
	}
	return n
}

// preScan searches one buffer for a prefilter's literals, remembering each
// literal's next occurrence so that repeated searches stay linear.
type preScan struct {
	p    *prefilter
	buf  []byte
	next []int // next occurrence of each literal at or after the last from; -1: none left
}

func (p *prefilter) scan(buf []byte) *preScan {
	s := &preScan{p: p, buf: buf, next: make([]int, len(p.lits))}
	for i := range s.next {
		s.next[i] = -2 // not searched yet
	}
	return s
}

// index returns the first position at or after from where a literal
// occurs, or -1.
func (s *preScan) index(from int) int {
	best := -1
	for i, l := range s.p.lits {
		n := s.next[i]
		if n == -1 {
			continue
		}
		if n < from {
			n = indexLit(s.buf, from, l)
			s.next[i] = n
			if n < 0 {
				continue
			}
		}
		if best < 0 || n < best {
			best = n
		}
	}
	return best
}

// indexLit finds l in buf at or after from.
func indexLit(buf []byte, from int, l preLit) int {
	if !l.fold {
		if i := bytes.Index(buf[from:], l.text); i >= 0 {
			return from + i
		}
		return -1
	}
	lo := l.text[0]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	nl, nu := -2, -2 // cached next positions of the first byte in each case
	for pos := from; pos+len(l.text) <= len(buf); {
		if nl != -1 && nl < pos {
			nl = indexByteFrom(buf, pos, lo)
		}
		if nu != -1 && nu < pos {
			nu = indexByteFrom(buf, pos, up)
		}
		i := nl
		if i < 0 || (nu >= 0 && nu < i) {
			i = nu
		}
		if i < 0 || i+len(l.text) > len(buf) {
			return -1
		}
		if equalFoldASCII(buf[i:i+len(l.text)], l.text) {
			return i
		}
		pos = i + 1
	}
	return -1
}

func indexByteFrom(b []byte, from int, c byte) int {
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

// equalFoldASCII compares b with the lower-case lit, ignoring ASCII case.
func equalFoldASCII(b, lit []byte) bool {
	for i, c := range b {
		if lowerASCII(c) != lit[i] {
			return false
		}
	}
	return true
}
