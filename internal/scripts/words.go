package scripts

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arg is one word of a command: its text, when ok says it is known
// before the command runs.
type arg struct {
	s  string
	ok bool
}

// literal is the text w stands for when it is known before the shell runs:
// quotes and escapes removed, a leading ~ and the variables the place and
// the line give expanded. false when a part is known only at run time (a
// command substitution, arithmetic, an unknown variable, ${x:-y}) or would
// become other words (a glob, braces, an unquoted value holding spaces).
func (f *finder) literal(w *syntax.Word, st *state) (string, bool) {
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				rest, ok := f.tilde(v)
				if !ok {
					return "", false
				}
				b.WriteString(f.home)
				v = rest
			}
			if !unquoted(&b, v) {
				return "", false
			}
		case *syntax.SglQuoted:
			if p.Dollar && strings.ContainsRune(p.Value, '\\') {
				return "", false // $'...' escapes: not worth decoding here
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if !f.doubleQuoted(&b, p, st) {
				return "", false
			}
		case *syntax.ParamExp:
			v, ok := f.param(p, st)
			if !ok || strings.ContainsAny(v, " \t\n*?[") {
				return "", false // split into words, or globbed
			}
			b.WriteString(v)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// tilde splits a leading ~ or ~/ from v; ~user is another person's home,
// which forge does not look up.
func (f *finder) tilde(v string) (string, bool) {
	if f.home == "" || (v != "~" && !strings.HasPrefix(v, "~/")) {
		return "", false
	}
	return v[1:], true
}

// unquoted adds an unquoted literal's text: backslashes escape the next
// byte. Glob characters and braces with a list make it unknown.
func unquoted(b *strings.Builder, v string) bool {
	if strings.ContainsAny(v, "*?[") && !escapedAll(v, "*?[") {
		return false
	}
	if i := strings.IndexByte(v, '{'); i >= 0 && strings.Contains(v[i:], "}") &&
		(strings.Contains(v[i:], ",") || strings.Contains(v[i:], "..")) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			i++
			if v[i] == '\n' {
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return true
}

// escapedAll says every byte of v from set is preceded by a backslash.
func escapedAll(v, set string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' {
			i++
			continue
		}
		if strings.IndexByte(set, v[i]) >= 0 {
			return false
		}
	}
	return true
}

// doubleQuoted adds the text of "...": literals and simple variables.
func (f *finder) doubleQuoted(b *strings.Builder, q *syntax.DblQuoted, st *state) bool {
	if q.Dollar {
		return false // $"..." is translated
	}
	for _, part := range q.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			for i := 0; i < len(v); i++ {
				if v[i] == '\\' && i+1 < len(v) && strings.IndexByte("$`\"\\\n", v[i+1]) >= 0 {
					i++
					if v[i] == '\n' {
						continue
					}
				}
				b.WriteByte(v[i])
			}
		case *syntax.ParamExp:
			v, ok := f.param(p, st)
			if !ok {
				return false
			}
			b.WriteString(v)
		default:
			return false
		}
	}
	return true
}

// param is the value of $NAME or ${NAME}: assigned earlier in the line,
// else $PWD (the line's directory), $HOME, or the place's environment.
func (f *finder) param(p *syntax.ParamExp, st *state) (string, bool) {
	if p.Param == nil || p.Flags != nil || p.Excl || p.Length || p.Width || p.IsSet ||
		p.NestedParam != nil || p.Index != nil || len(p.Modifiers) > 0 ||
		p.Slice != nil || p.Repl != nil || p.Names != 0 || p.Exp != nil ||
		p.Split != syntax.OptUnset || p.GlobSubst != syntax.OptUnset || p.RcExpand != syntax.OptUnset {
		return "", false
	}
	name := p.Param.Value
	if v, ok := st.vars[name]; ok {
		return v.s, v.ok
	}
	switch name {
	case "PWD":
		return st.dir, st.dir != ""
	case "HOME":
		return f.home, f.home != ""
	}
	if f.env == nil || !validName(name) {
		return "", false
	}
	return f.env(name)
}

// validName says name is a variable's name, not a special parameter ($1, $@).
func validName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
