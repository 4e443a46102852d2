package permission

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// word is one word of a simple command, as far as it is known before the
// shell runs.
type word struct {
	// allow is the word with quotes and escapes removed; an expansion
	// ($X, $(cmd), `cmd`, $((1+2))) is one wild byte. Glob, brace and tilde
	// characters stay as written: a rule is written the way the line is.
	allow string
	// deny is allow with the unquoted glob, brace and tilde parts also
	// wild, since the shell turns them into other text.
	deny string
	// dynamic: the word has an expansion.
	dynamic bool
	// expands: the word has unquoted glob, brace or tilde characters.
	expands bool
	// splits: the shell may split the word into several (an unquoted $X
	// or $(cmd), "$@"), so a part of it may be a word of its own: an
	// option after a value (-run $T with T="x -o /tmp/y").
	splits bool
}

// literal reports whether the word is known exactly before the shell runs.
func (w word) literal() bool { return !w.dynamic && !w.expands }

// staticWord makes a literal word.
func staticWord(s string) word { return word{allow: s, deny: s} }

// wordBuilder accumulates a word's two texts.
type wordBuilder struct {
	allow, deny strings.Builder
	w           word
}

func (b *wordBuilder) byte(c byte) {
	b.allow.WriteByte(c)
	b.deny.WriteByte(c)
}

func (b *wordBuilder) str(s string) {
	b.allow.WriteString(s)
	b.deny.WriteString(s)
}

// expansion adds a part whose value is known only at run time.
func (b *wordBuilder) expansion() {
	b.allow.WriteByte(wild)
	b.deny.WriteByte(wild)
	b.w.dynamic = true
}

// expanding adds text the shell expands (a glob, a brace, a tilde): literal
// for allow rules, wild for deny rules.
func (b *wordBuilder) expanding(s string) {
	b.allow.WriteString(s)
	b.deny.WriteByte(wild)
	b.w.expands = true
}

func (b *wordBuilder) word() word {
	b.w.allow, b.w.deny = b.allow.String(), b.deny.String()
	return b.w
}

// evalWord works out what is known of w before the shell runs.
func evalWord(w *syntax.Word) word {
	if len(w.Parts) == 1 { // most words: one plain literal, nothing to build
		if lit, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(lit.Value, "\\*?[{~") {
			return word{allow: lit.Value, deny: lit.Value}
		}
	}
	if len(w.Parts) > 1 && bracesAcross(w) { // {fo"r"ge,trust}: bash expands it into several words
		var b wordBuilder
		b.expanding(unquotedText(w))
		return b.word()
	}
	var b wordBuilder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			unquotedLit(&b, p.Value, i == 0)
		case *syntax.SglQuoted:
			if p.Dollar && strings.IndexByte(p.Value, '\\') >= 0 {
				b.expansion() // $'\x72m' is "rm": decoding it is the shell's job
			} else {
				b.str(p.Value)
			}
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				if lit, ok := inner.(*syntax.Lit); ok {
					doubleQuotedLit(&b, lit.Value)
				} else {
					b.expansion()
					b.w.splits = b.w.splits || manyWords(inner)
				}
			}
		case *syntax.ExtGlob:
			b.expanding(p.Op.String() + p.Pattern.Value + ")")
		default: // parameter, command, arithmetic and process substitutions
			b.expansion()
			b.w.splits = true
		}
	}
	return b.word()
}

// manyWords reports whether the expansion p, inside double quotes, may
// still make several words: "$@", "${a[@]}", "${!prefix@}".
func manyWords(p syntax.WordPart) bool {
	pe, ok := p.(*syntax.ParamExp)
	if !ok {
		return false
	}
	return pe.Param == nil || pe.Param.Value == "@" || pe.Index != nil || pe.Names != 0
}

// bracesAcross reports whether a word of several parts holds a brace
// expansion spread over them: an unquoted { in one literal, and a later
// unquoted , or .. and } in the same or a later one ({fo"r"ge,trust}).
func bracesAcross(w *syntax.Word) bool {
	open, sep := false, false
	for _, part := range w.Parts {
		lit, ok := part.(*syntax.Lit)
		if !ok {
			continue
		}
		s := unescapeMarks(lit.Value)
		for i := 0; i < len(s); i++ {
			switch {
			case s[i] == '{':
				open = true
			case open && (s[i] == ',' || s[i] == '.' && i+1 < len(s) && s[i+1] == '.'):
				sep = true
			case open && sep && s[i] == '}':
				return true
			}
		}
	}
	return false
}

// unescapeMarks blanks the bytes a backslash quotes in an unquoted
// literal, so that \{ is not taken for a brace.
func unescapeMarks(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' {
			b[i] = ' '
			if i+1 < len(b) {
				b[i+1] = ' '
				i++
			}
		}
	}
	return string(b)
}

// unquotedText is the word's text with its quotes removed and each
// expansion as a wild byte, for a word the shell turns into others.
func unquotedText(w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				if lit, ok := inner.(*syntax.Lit); ok {
					b.WriteString(lit.Value)
				} else {
					b.WriteByte(wild)
				}
			}
		default:
			b.WriteByte(wild)
		}
	}
	return b.String()
}

// unquotedLit adds an unquoted literal: a backslash quotes the next byte;
// * ? [ are globs, a { with a , or .. is a brace expansion and a leading ~
// is the home directory.
func unquotedLit(b *wordBuilder, s string, first bool) {
	if strings.IndexByte(s, '{') >= 0 && strings.IndexByte(s, '}') >= 0 &&
		(strings.IndexByte(s, ',') >= 0 || strings.Contains(s, "..")) {
		b.expanding(unescape(s)) // {a,b} can become several words
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			b.byte(s[i])
		case c == '\\':
			b.byte(c) // a backslash ending the line stays: bash keeps it
		case c == '*' || c == '?':
			b.expanding(string(c))
		case c == '[':
			end := bracketEnd(s, i)
			if end < 0 {
				b.byte(c)
				continue
			}
			b.expanding(s[i : end+1])
			i = end
		case c == '~' && i == 0 && first:
			end := strings.IndexByte(s, '/')
			if end < 0 {
				end = len(s)
			}
			b.expanding(s[:end])
			i = end - 1
		default:
			b.byte(c)
		}
	}
}

// unescape removes the backslashes of an unquoted literal.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i == len(s) {
				break
			}
		}
		out.WriteByte(s[i])
	}
	return out.String()
}

// doubleQuotedLit adds a literal inside double quotes, where a backslash
// quotes only $ ` " \ and newline.
func doubleQuotedLit(b *wordBuilder, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.byte(s[i])
			}
			continue
		}
		b.byte(c)
	}
}

// joinAllow joins the words' allow texts with spaces.
func joinAllow(ws []word) string {
	return join(ws, func(w word) string { return w.allow })
}

// joinDeny joins the words' deny texts with spaces.
func joinDeny(ws []word) string {
	return join(ws, func(w word) string { return w.deny })
}

// join joins one text of each word with spaces.
func join(ws []word, text func(word) string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return text(ws[0])
	}
	n := len(ws) - 1
	for _, w := range ws {
		n += len(text(w))
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(text(w))
	}
	return b.String()
}
