package custom

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// The front matter of nearly every command, agent and skill file is a few
// flat "key: value" lines, and hundreds of them are read at start. The YAML
// library costs tens of microseconds a file even for those, and more for
// the many agents whose unquoted multi-line descriptions it rejects before
// they are read again line by line. fastFront reads the simple form by
// hand and says when the library would reject the text; anything else is
// left to the library. FuzzFastFront holds it to the library's answers.

// verdict is what the fast reading of front matter found.
type verdict int

const (
	// declined: not the simple form; the YAML library decides.
	declined verdict = iota
	// parsed: the mapping is the one the YAML library makes.
	parsed
	// invalid: the YAML library rejects the text.
	invalid
)

// fastFront reads front matter made of top-level "key: value" lines
// (plain or simply quoted values, flow lists, "- item" lists), comments
// and blank lines into the mapping the YAML library would make of it, or
// finds a line the library rejects (an unquoted value holding ": ", a line
// that is not a key) before anything it cannot read.
func fastFront(front string) (*yaml.Node, verdict) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	var val *yaml.Node // the value of the last key
	plain := false     // val is a plain scalar, which an indented line would continue
	list := false      // val was empty, so "- item" lines may follow
	listIndent := -1   // the indentation of those lines, once one is read
	for n := 1; front != ""; n++ {
		line, rest, _ := strings.Cut(front, "\n")
		front = rest
		if !simpleText(line) {
			return nil, declined
		}
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		switch {
		case trimmed == "":
			continue
		case indent == 0 && trimmed[0] == '#':
			continue
		case trimmed[0] == '-' && (len(trimmed) == 1 || trimmed[1] == ' '):
			// An item of the last key's list, if its value was empty.
			if !list || listIndent >= 0 && indent != listIndent {
				return nil, declined
			}
			item, v := fastScalar(strings.TrimLeft(trimmed[1:], " "), n)
			if v != parsed {
				return nil, declined // "- a: b" is a mapping, which the library reads
			}
			if listIndent < 0 {
				listIndent = indent
				*val = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: n}
			}
			val.Content = append(val.Content, item)
		case indent > 0:
			// The continuation of a plain value: one holding ": " cannot be
			// read, as a key may not span lines; any other is folded, which
			// the library does.
			if plain && plainStart(trimmed[0]) && indicatorColon(cutComment(trimmed)) {
				return nil, invalid
			}
			return nil, declined
		default:
			key, value, ok := frontKey(line)
			if !ok || len(key) > maxSimpleKey {
				if keyless(line) && len(m.Content) > 0 {
					return nil, invalid // a top-level line after a key must be a key
				}
				return nil, declined
			}
			for i := 0; i < len(m.Content); i += 2 {
				if m.Content[i].Value == key {
					return nil, declined // the library's error names both lines
				}
			}
			var v verdict
			val, v = fastValue(value, n)
			if v != parsed {
				return nil, v
			}
			plain = val.Kind == yaml.ScalarNode && val.Style == 0 && value != ""
			list, listIndent = value == "", -1
			if m.Line == 0 {
				m.Line, m.Column = n, 1
			}
			m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: n, Column: 1}, val)
		}
	}
	if len(m.Content) == 0 {
		return nil, declined
	}
	return m, parsed
}

// maxSimpleKey is the longest key read here: YAML takes a key without
// "? " only when it is shorter than 1024 characters.
const maxSimpleKey = 512

// simpleText says line has only characters the fast reading knows the
// YAML library to take as they are: no tab, no control character, no
// character the library reads as a line break or a byte order mark.
func simpleText(line string) bool {
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c < 0x20 || c == 0x7f {
			return false
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(line[i:])
			if r < 0xa0 || r == 0x2028 || r == 0x2029 || r == 0xfeff || r >= 0xfffe && r <= 0xffff || r == utf8.RuneError {
				return false
			}
			i += size - 1
		}
	}
	return true
}

// keyless says line, at the top level, would start a plain scalar that
// has no ": " to make it a key, which the YAML library rejects.
func keyless(line string) bool {
	c := line[0]
	start := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '<'
	return start && !strings.ContainsRune(line, ':')
}

// plainStart says a plain scalar may start with c whatever follows it:
// not an indicator of YAML's.
func plainStart(c byte) bool {
	return !strings.ContainsRune(" -?:,[]{}#&*!|>'\"%@`", rune(c))
}

// cutComment is s, a plain scalar's text, without a comment (" #...") and
// the blanks at its end.
func cutComment(s string) string {
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, " ")
}

// indicatorColon says s, the text of a plain scalar in block context,
// holds a colon that starts a mapping value: followed by a blank or at the
// end.
func indicatorColon(s string) bool {
	return strings.Contains(s, ": ") || strings.HasSuffix(s, ":")
}

// fastValue reads a key's value, what follows "key: " on its line.
func fastValue(s string, line int) (*yaml.Node, verdict) {
	if s == "" {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: line}, parsed
	}
	if s[0] == '[' {
		return flowList(s, line)
	}
	if plainStart(s[0]) && indicatorColon(cutComment(s)) {
		return nil, invalid // "a: b: c": a mapping inside a value on one line
	}
	return fastScalar(s, line)
}

// fastScalar reads a plain or quoted scalar that ends its line (a comment
// may follow).
func fastScalar(s string, line int) (*yaml.Node, verdict) {
	if s == "" {
		return nil, declined
	}
	if s[0] == '"' || s[0] == '\'' {
		text, after, ok := quoted(s)
		if !ok || !endsLine(after) {
			return nil, declined
		}
		style := yaml.DoubleQuotedStyle
		if s[0] == '\'' {
			style = yaml.SingleQuotedStyle
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: style, Value: text, Line: line}, parsed
	}
	if !plainStart(s[0]) {
		return nil, declined
	}
	text := cutComment(s)
	if indicatorColon(text) {
		return nil, declined
	}
	return plainNode(text, line), parsed
}

// plainNode is the node of a plain scalar: null as YAML spells it, else
// text (its other types do not matter here: a value is read as text).
func plainNode(text string, line int) *yaml.Node {
	tag := "!!str"
	switch text {
	case "~", "null", "Null", "NULL":
		tag = "!!null"
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: text, Line: line}
}

// endsLine says after, what follows a value on its line, is blanks and a
// comment at most.
func endsLine(after string) bool {
	t := strings.TrimLeft(after, " ")
	return t == "" || t[0] == '#' && len(t) < len(after)
}

// quoted reads the quoted scalar s starts with: a single-quoted one with
// ” for a quote, or a double-quoted one without escapes. ok is false for
// any other, or one not closed on its line.
func quoted(s string) (text, after string, ok bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			return "", "", false
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case s[i] == q:
			return b.String(), s[i+1:], true
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", false
}

// flowList reads "[a, 'b', Bash(git diff:*)]" on one line: items plain
// or quoted, none empty, none a collection.
func flowList(s string, line int) (*yaml.Node, verdict) {
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Line: line}
	s = strings.TrimLeft(s[1:], " ")
	if strings.HasPrefix(s, "]") {
		if !endsLine(s[1:]) {
			return nil, declined
		}
		return seq, parsed
	}
	for {
		var item *yaml.Node
		if s == "" {
			return nil, declined
		}
		if s[0] == '"' || s[0] == '\'' {
			text, after, ok := quoted(s)
			if !ok {
				return nil, declined
			}
			item = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text, Line: line}
			s = strings.TrimLeft(after, " ")
		} else {
			end := strings.IndexAny(s, ",]")
			if end < 0 || !plainStart(s[0]) {
				return nil, declined
			}
			text := strings.TrimRight(s[:end], " ")
			if strings.ContainsAny(text, "[]{}#?\"'") || strings.Contains(text, ": ") || strings.HasSuffix(text, ":") {
				return nil, declined
			}
			item = plainNode(text, line)
			s = s[end:]
		}
		seq.Content = append(seq.Content, item)
		if s == "" {
			return nil, declined
		}
		switch s[0] {
		case ']':
			if !endsLine(s[1:]) {
				return nil, declined
			}
			return seq, parsed
		case ',':
			s = strings.TrimLeft(s[1:], " ")
		default:
			return nil, declined
		}
	}
}
