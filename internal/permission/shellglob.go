package permission

import "strings"

// globItem is one element of a path pattern (see pathRef).
type globItem struct {
	kind  byte // 'l' a literal byte, '?' any byte, '*' a run within a name, '[' a class, 'w' anything
	c     byte
	class string // the class's body, between [ and ]
}

// parseGlob splits a path pattern into its elements.
func parseGlob(p string) []globItem {
	items := make([]globItem, 0, len(p))
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == wild:
			items = append(items, globItem{kind: 'w'})
		case c == '\\' && i+1 < len(p):
			i++
			items = append(items, globItem{kind: 'l', c: p[i]})
		case c == '*':
			items = append(items, globItem{kind: '*'})
		case c == '?':
			items = append(items, globItem{kind: '?'})
		case c == '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end == 0 { // []...] holds a ] first
				end = strings.IndexByte(p[i+2:], ']') + 1
			}
			if end <= 0 {
				items = append(items, globItem{kind: 'l', c: c})
				continue
			}
			items = append(items, globItem{kind: '[', class: p[i+1 : i+1+end]})
			i += end + 1
		default:
			items = append(items, globItem{kind: 'l', c: c})
		}
	}
	return items
}

// literalPrefixOf returns the part of a pattern before its first glob or
// wild element, unquoted.
func literalPrefixOf(items []globItem) string {
	var b strings.Builder
	for _, it := range items {
		if it.kind != 'l' {
			break
		}
		b.WriteByte(it.c)
	}
	return b.String()
}

// couldName reports whether the pattern could stand for target or for a
// path below it, once the shell has expanded it. Globs follow bash's
// rules: they never match a slash, nor a leading dot; loose (the line may
// set dotglob or nocaseglob) lets them match a leading dot and either case.
func couldName(items []globItem, target string, loose bool) bool {
	dots := loose
	foldFrom := len(items) // nocaseglob folds the case of the whole name a glob is in
	if loose {
		foldFrom = globNameStart(items)
	}
	n := 0 // the literal items first: most targets differ there
	for ; n < len(items) && items[n].kind == 'l'; n++ {
		if n == len(target) {
			return items[n].c == '/' // a path below the target
		}
		if !sameByte(items[n].c, target[n], n >= foldFrom) {
			return false
		}
	}
	if n == len(items) { // no glob at all: the target itself, or not
		return n == len(target)
	}
	cur := make([]bool, len(items)+1)
	next := make([]bool, len(items)+1)
	cur[n] = true
	skipEmpty(items, cur)
	for j := n; j < len(target); j++ {
		c := target[j]
		hiddenDot := c == '.' && !dots && (j == 0 || target[j-1] == '/')
		clear(next)
		live := false
		for i, on := range cur[:len(items)] {
			if !on {
				continue
			}
			switch it := items[i]; it.kind {
			case 'l':
				next[i+1] = next[i+1] || sameByte(it.c, c, loose)
			case '?':
				next[i+1] = next[i+1] || c != '/' && !hiddenDot
			case '[':
				next[i+1] = next[i+1] || c != '/' && !hiddenDot && (classMatches(it.class, c) || loose && classMatches(it.class, otherCase(c)))
			case '*':
				next[i] = next[i] || c != '/' && !hiddenDot
			case 'w':
				next[i] = true
			}
		}
		skipEmpty(items, next)
		for _, on := range next {
			live = live || on
		}
		if !live {
			return false
		}
		cur, next = next, cur
	}
	for i, on := range cur {
		if on && couldContinue(items[i:]) {
			return true
		}
	}
	return false
}

// sameByte compares two bytes, in either ASCII case when fold is set.
func sameByte(a, b byte, fold bool) bool {
	return a == b || fold && otherCase(a) == b
}

// otherCase returns an ASCII letter in its other case, any other byte as it is.
func otherCase(c byte) byte {
	switch {
	case 'a' <= c && c <= 'z':
		return c - 'a' + 'A'
	case 'A' <= c && c <= 'Z':
		return c - 'A' + 'a'
	}
	return c
}

// globNameStart is the index where the name holding a pattern's first
// glob element begins: nocaseglob folds the case of that whole name,
// never that of the literal directories before it.
func globNameStart(items []globItem) int {
	start := 0
	for i, it := range items {
		switch {
		case it.kind != 'l':
			return start
		case it.c == '/':
			start = i + 1
		}
	}
	return len(items)
}

// couldBe reports whether the pattern could stand for exactly path, dots
// and case aside (a conservative answer).
func couldBe(items []globItem, path string) bool {
	cur := make([]bool, len(items)+1)
	next := make([]bool, len(items)+1)
	cur[0] = true
	skipEmpty(items, cur)
	for j := 0; j < len(path); j++ {
		c := path[j]
		clear(next)
		for i, on := range cur[:len(items)] {
			if !on {
				continue
			}
			switch it := items[i]; it.kind {
			case 'l':
				next[i+1] = next[i+1] || it.c == c
			case '?', '[':
				next[i+1] = next[i+1] || c != '/'
			case '*':
				next[i] = next[i] || c != '/'
			case 'w':
				next[i] = true
			}
		}
		skipEmpty(items, next)
		cur, next = next, cur
	}
	return cur[len(items)]
}

// skipEmpty adds to states those reached by matching nothing: past a *
// or a wild part.
func skipEmpty(items []globItem, states []bool) {
	for i := range items {
		if states[i] && (items[i].kind == '*' || items[i].kind == 'w') {
			states[i+1] = true
		}
	}
}

// couldContinue reports whether the rest of a pattern could match nothing
// (the target itself) or a slash and more (a path below it).
func couldContinue(items []globItem) bool {
	for _, it := range items {
		switch {
		case it.kind == 'w' || it.kind == 'l' && it.c == '/':
			return true
		case it.kind != '*':
			return false
		}
	}
	return true
}

// classMatches reports whether the byte c is in the bracket class body.
func classMatches(class string, c byte) bool {
	negate := false
	if class != "" && (class[0] == '!' || class[0] == '^') {
		negate, class = true, class[1:]
	}
	in := false
	for i := 0; i < len(class); i++ {
		lo := class[i]
		if lo == '\\' && i+1 < len(class) {
			i++
			lo = class[i]
		}
		hi := lo
		if i+2 < len(class) && class[i+1] == '-' {
			hi = class[i+2]
			i += 2
		}
		if lo <= c && c <= hi {
			in = true
		}
	}
	return in != negate
}
