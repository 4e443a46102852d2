package permission

import "strings"

// harmlessSed reports whether the sed script p only prints, deletes,
// substitutes and moves between lines and buffers: it has no command that
// runs a program (e, s///e), writes a file (w, W, s///w) or reads one
// (r, R), and forge could read all of it. Whatever it cannot read is not
// harmless.
func harmlessSed(p string) bool {
	s := sedScanner{p: p}
	for s.skipSpace(); s.i < len(s.p); s.skipSpace() {
		if !s.command() {
			return false
		}
	}
	return true
}

// sedScanner reads a sed script.
type sedScanner struct {
	p string
	i int
}

// skipSpace skips blanks, newlines and the ; between commands.
func (s *sedScanner) skipSpace() {
	for s.i < len(s.p) && strings.IndexByte(" \t\n;", s.p[s.i]) >= 0 {
		s.i++
	}
}

// command reads one command with its addresses; false when it is not a
// harmless one, or not one forge can read.
func (s *sedScanner) command() bool {
	if !s.address() {
		return false
	}
	if s.i < len(s.p) && s.p[s.i] == ',' {
		s.i++
		if s.i < len(s.p) && (s.p[s.i] == '+' || s.p[s.i] == '~') {
			s.i++
		}
		if !s.address() {
			return false
		}
	}
	for s.i < len(s.p) && (s.p[s.i] == ' ' || s.p[s.i] == '!') {
		s.i++
	}
	if s.i >= len(s.p) {
		return false
	}
	c := s.p[s.i]
	s.i++
	switch c {
	case '{':
		return true
	case '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		return s.end()
	case 'l', 'q', 'Q', 'L':
		for s.i < len(s.p) && (s.p[s.i] >= '0' && s.p[s.i] <= '9' || s.p[s.i] == ' ') {
			s.i++
		}
		return s.end()
	case ':', 'b', 't', 'T': // a label, up to a blank, ;, } or #, as GNU sed reads it
		for s.i < len(s.p) && (s.p[s.i] == ' ' || s.p[s.i] == '\t') {
			s.i++
		}
		for s.i < len(s.p) && strings.IndexByte(" \t\n;}#", s.p[s.i]) < 0 {
			s.i++
		}
		return s.end()
	case 'a', 'i', 'c': // text, to the end of the line
		s.toLineEnd()
		return true
	case '#':
		s.toLineEnd()
		return true
	case 's':
		return s.substitute()
	case 'y':
		return s.delimited(2) && s.end()
	}
	return false // e, w, W, r, R, v, and what forge does not know
}

// address reads an optional address: a line number, a step, $ or a
// regular expression.
func (s *sedScanner) address() bool {
	switch {
	case s.i >= len(s.p):
		return true
	case s.p[s.i] == '$':
		s.i++
	case s.p[s.i] >= '0' && s.p[s.i] <= '9':
		for s.i < len(s.p) && (s.p[s.i] >= '0' && s.p[s.i] <= '9' || s.p[s.i] == '~') {
			s.i++
		}
	case s.p[s.i] == '/':
		if !s.delimited(1) {
			return false
		}
		for s.i < len(s.p) && (s.p[s.i] == 'I' || s.p[s.i] == 'M') {
			s.i++
		}
	case s.p[s.i] == '\\':
		s.i++
		if !s.delimited(1) {
			return false
		}
	}
	return true
}

// substitute reads s/re/replacement/flags past the s; the flags may not
// be e (run the result) or w (write a file).
func (s *sedScanner) substitute() bool {
	if !s.delimited(2) {
		return false
	}
	for s.i < len(s.p) && strings.IndexByte("gpiImM0123456789", s.p[s.i]) >= 0 {
		s.i++
	}
	return s.end()
}

// delimited reads n parts ended by the delimiter at s.i (s/a/b/ is 2),
// a backslash quoting the next byte; a newline or the end of the script
// before the last delimiter is not a script forge reads.
func (s *sedScanner) delimited(n int) bool {
	if s.i >= len(s.p) || s.p[s.i] == '\\' || s.p[s.i] == '\n' {
		return false
	}
	delim := s.p[s.i]
	s.i++
	for parts := 0; parts < n; {
		if s.i >= len(s.p) {
			return false
		}
		switch c := s.p[s.i]; {
		case c == '\\':
			s.i += 2
			continue
		case c == delim:
			parts++
		case c == '\n' && n == 1:
			return false
		}
		s.i++
	}
	return true
}

// end reports whether the command ends here: a blank, ;, }, a newline or
// the end of the script.
func (s *sedScanner) end() bool {
	for s.i < len(s.p) && (s.p[s.i] == ' ' || s.p[s.i] == '\t') {
		s.i++
	}
	return s.i >= len(s.p) || strings.IndexByte(";\n}", s.p[s.i]) >= 0
}

// toLineEnd moves past the rest of the line.
func (s *sedScanner) toLineEnd() {
	for s.i < len(s.p) && s.p[s.i] != '\n' {
		s.i++
	}
}
