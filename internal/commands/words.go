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
	var (
		words []word
		raw   strings.Builder
		text  strings.Builder
		in    byte // 0, '"' or '\''
		depth int
		start = true
	)
	flush := func() {
		if !start {
			words = append(words, word{raw: raw.String(), text: text.String()})
		}
		raw.Reset()
		text.Reset()
		start = true
	}
	for i := 0; i < len(line); i++ {
		if in == 0 {
			// Copy a run of ordinary bytes at once: long values stay cheap.
			j := strings.IndexAny(line[i:], specialBytes)
			if j < 0 {
				j = len(line) - i
			}
			if j > 0 {
				raw.WriteString(line[i : i+j])
				text.WriteString(line[i : i+j])
				start = false
				i += j - 1
				continue
			}
		}
		c := line[i]
		switch in {
		case '"':
			raw.WriteByte(c)
			switch c {
			case '\\':
				if i+1 < len(line) {
					i++
					raw.WriteByte(line[i])
					text.WriteByte(line[i])
				}
			case '"':
				in = 0
			default:
				text.WriteByte(c)
			}
			continue
		case '\'':
			raw.WriteByte(c)
			if c == '\'' {
				in = 0
			} else {
				text.WriteByte(c)
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			if depth > 0 {
				raw.WriteByte(c)
				text.WriteByte(c)
				continue
			}
			flush()
			continue
		case '"', '\'':
			in = c
			raw.WriteByte(c)
		case '\\':
			raw.WriteByte(c)
			if i+1 < len(line) {
				i++
				raw.WriteByte(line[i])
				text.WriteByte(line[i])
			}
		case '[', '{':
			depth++
			raw.WriteByte(c)
			text.WriteByte(c)
		case ']', '}':
			if depth > 0 {
				depth--
			}
			raw.WriteByte(c)
			text.WriteByte(c)
		default:
			raw.WriteByte(c)
			text.WriteByte(c)
		}
		start = false
	}
	if in != 0 {
		return nil, argErrorf("Unterminated %c quote", in)
	}
	flush()
	return words, nil
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
