package commands

import "strings"

// word is one blank-separated word of a line: raw keeps the quotes (JSON
// values need them), text is the word as a shell would pass it.
type word struct {
	raw  string
	text string
}

// specialBytes are the bytes splitWords treats specially outside quotes.
const specialBytes = " \t\n\r\"'\\[]{}"

// splitWords splits a line at blanks outside quotes and brackets. Inside
// double quotes a backslash escapes the next character; single quotes take
// everything literally. Brackets ([ ] { }) outside quotes keep a JSON value
// such as [{"a": 1}] in one word.
func splitWords(line string) ([]word, error) {
	// words is a local, appended to here and not in a method, so that the
	// compiler can keep the first word's slot off the heap.
	var words []word
	s := splitter{line: line, empty: true}
	for i := 0; i < len(line); {
		switch {
		case s.quote == '"':
			i = s.doubleQuoted(i)
		case s.quote == '\'':
			i = s.singleQuoted(i)
		case s.depth == 0 && isBlank(line[i]):
			if w, ok := s.endWord(); ok {
				words = append(words, w)
			}
			i++
		default:
			i = s.unquoted(i)
		}
	}
	if s.quote != 0 {
		return nil, argErrorf("Unterminated %c quote", s.quote)
	}
	if w, ok := s.endWord(); ok {
		words = append(words, w)
	}
	return words, nil
}

// isBlank reports whether c separates words.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// splitter is splitWords' state as it walks a line. Each step takes the
// byte at i (or a run of bytes from i) and returns where the next begins.
type splitter struct {
	line  string
	raw   strings.Builder // the current word as typed
	text  strings.Builder // the current word unquoted
	quote byte            // the open quote: 0, '"' or '\''
	depth int             // brackets open outside quotes
	empty bool            // the current word has no byte yet
}

// endWord ends the current word and returns it, or false if no word had
// begun.
func (s *splitter) endWord() (word, bool) {
	w, ok := word{raw: s.raw.String(), text: s.text.String()}, !s.empty
	s.raw.Reset()
	s.text.Reset()
	s.empty = true
	return w, ok
}

// keep adds b to both forms of the current word.
func (s *splitter) keep(b byte) {
	s.raw.WriteByte(b)
	s.text.WriteByte(b)
}

// escaped takes the backslash at i and the byte it escapes: raw keeps
// both, text only the escaped byte. A backslash at the end stays in raw.
func (s *splitter) escaped(i int) int {
	s.raw.WriteByte('\\')
	if i+1 < len(s.line) {
		s.keep(s.line[i+1])
		return i + 2
	}
	return i + 1
}

// doubleQuoted takes one byte inside double quotes, where a backslash
// escapes the next byte and a double quote closes them.
func (s *splitter) doubleQuoted(i int) int {
	switch c := s.line[i]; c {
	case '\\':
		return s.escaped(i)
	case '"':
		s.raw.WriteByte(c)
		s.quote = 0
	default:
		s.keep(c)
	}
	return i + 1
}

// singleQuoted takes one byte inside single quotes, where nothing is
// special but the single quote that closes them.
func (s *splitter) singleQuoted(i int) int {
	if c := s.line[i]; c == '\'' {
		s.raw.WriteByte(c)
		s.quote = 0
	} else {
		s.keep(c)
	}
	return i + 1
}

// unquoted takes the run of ordinary bytes at i in one copy, so that long
// values stay cheap, or else the one special byte at i.
func (s *splitter) unquoted(i int) int {
	run := strings.IndexAny(s.line[i:], specialBytes)
	if run < 0 {
		run = len(s.line) - i
	}
	if run > 0 {
		s.raw.WriteString(s.line[i : i+run])
		s.text.WriteString(s.line[i : i+run])
		s.empty = false
		return i + run
	}
	return s.special(i)
}

// special takes the byte at i, one of specialBytes, outside quotes and
// not a blank between words: a quote opens, a backslash escapes, brackets
// count their depth, and a blank inside brackets is kept.
func (s *splitter) special(i int) int {
	c := s.line[i]
	s.empty = false
	switch c {
	case '"', '\'':
		s.quote = c
		s.raw.WriteByte(c)
	case '\\':
		return s.escaped(i)
	case '[', '{':
		s.depth++
		s.keep(c)
	case ']', '}':
		s.depth = max(s.depth-1, 0)
		s.keep(c)
	default: // a blank inside brackets
		s.keep(c)
	}
	return i + 1
}

// unquote removes shell quoting from one raw word.
func unquote(raw string) (string, error) {
	if !strings.ContainsAny(raw, "\"'\\ \t\r\n") {
		return raw, nil // the common case, and the only one for huge values
	}
	ws, err := splitWords(raw)
	if err != nil {
		return "", err
	}
	switch len(ws) {
	case 0:
		return "", nil
	case 1:
		return ws[0].text, nil
	}
	// A raw word never splits again except for blanks inside brackets,
	// which splitWords kept; join defensively.
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.text
	}
	return strings.Join(parts, " "), nil
}

// Fields splits a command line into words, shell-like, quotes removed.
func Fields(line string) ([]string, error) {
	ws, err := splitWords(line)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out, nil
}
