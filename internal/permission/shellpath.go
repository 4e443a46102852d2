package permission

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellEnv is what forge knows of the place a shell line will run in, to
// work out which files its words name.
type shellEnv struct {
	wd   string
	home string
	// getenv looks up the environment the line inherits; nil knows nothing.
	getenv func(string) (string, bool)
}

// pathRef is a word of a shell line that may name a file, as far as forge
// can tell where before the line runs: a glob pattern over absolute paths
// in which * ? and [...] are the shell's globs, a backslash quotes the
// next byte, and a wild byte stands for text known only when it runs
// (which may hold slashes).
type pathRef struct {
	pattern string
	// word is the word as written, for messages.
	word string
	// option: the pattern is an option word itself (-la), which names a
	// file only in the forms taken from it (-oPATH, --file=PATH).
	option bool
}

// sure reports whether the pattern holds no wild part.
func (r pathRef) sure() bool { return strings.IndexByte(r.pattern, wild) < 0 }

// pathTracker collects the words of a line that may name files, the
// directories it may cd into and the variables it sets, and once the line
// is walked turns the words into pathRefs. It is shared with the lines
// inside it (bash -c, eval), which run in the same place. Order is not
// followed (a loop runs its body again after a later cd): every word is
// taken from every directory the line may be in, and a variable set in
// more than one way may hold anything.
type pathTracker struct {
	env   shellEnv
	words []srcWord
	cds   []cdTarget
	// vars are the values the line gives each variable; a nil word is a
	// value known only when it runs (read, arithmetic, ${x:=...}).
	vars map[string][]srcWord
	// globDots: the line may change how globs match (shopt, GLOBIGNORE),
	// so a glob may match names starting with a dot.
	globDots bool
	// values remembers each variable's pattern once worked out: a value
	// built from others is worked out once, not once per use.
	values map[string]string
}

// cdTarget is where a cd may go: its argument, the home directory, or
// (neither) somewhere unknown.
type cdTarget struct {
	srcWord
	home bool
}

// srcWord is a word of a line with the line it is in.
type srcWord struct {
	w   *syntax.Word
	src string
}

// Bounds on how far a line's directories and variables are followed;
// beyond them a place is unknown.
const (
	maxTrackedDirs = 16
	maxVarDepth    = 8
	// maxPattern bounds a word's pattern: a line of a few hundred bytes
	// can double a variable's value thirty times (a1=$a0$a0...).
	maxPattern = 4 << 10
)

// newPathTracker starts tracking for a line run in env.
func newPathTracker(env shellEnv) *pathTracker { return &pathTracker{env: env} }

// word records w, of the line src, as a path the line may name.
func (t *pathTracker) word(w *syntax.Word, src string) {
	if t != nil && w != nil {
		t.words = append(t.words, srcWord{w, src})
	}
}

// cd records that the line may change directory to w (nil: somewhere),
// or to the home directory.
func (t *pathTracker) cd(w *syntax.Word, src string, home bool) {
	if t != nil {
		t.cds = append(t.cds, cdTarget{srcWord{w, src}, home})
	}
}

// assign records that the line may set name to w (nil: to text known
// only when it runs).
func (t *pathTracker) assign(name string, w *syntax.Word, src string) {
	if t == nil {
		return
	}
	if t.vars == nil {
		t.vars = map[string][]srcWord{}
	}
	t.vars[name] = append(t.vars[name], srcWord{w, src})
}

// resolve turns the words recorded into path patterns, each from every
// directory the line may be in, with the forms an option gives a path
// (--file=PATH, -oPATH).
func (t *pathTracker) resolve() []pathRef {
	if t == nil || len(t.words) == 0 {
		return nil
	}
	dirs := t.dirs()
	refs := make([]pathRef, 0, len(t.words))
	seen := make(map[*syntax.Word]bool, len(t.words))
	for _, sw := range t.words {
		if seen[sw.w] {
			continue
		}
		seen[sw.w] = true
		p := t.expand(sw.w, 0)
		text := source(sw.src, sw.w)
		refs = t.addRef(refs, dirs, p, text, strings.HasPrefix(p, "-"))
		if name, after, ok := strings.Cut(p, "="); ok { // --file=PATH, dd's of=PATH
			if h := t.home(); h != "" && validName(name) && (after == "~" || strings.HasPrefix(after, "~/")) {
				after = escapeGlob(h) + after[1:] // bash expands ~ in words that look like assignments
			}
			refs = t.addRef(refs, dirs, after, text, false)
		}
		if len(p) > 2 && p[0] == '-' && p[1] != '-' && !strings.Contains(p, "=") { // -oPATH
			refs = t.addRef(refs, dirs, p[2:], text, false)
		}
	}
	return refs
}

// addRef appends the pattern p, made absolute from each of dirs and
// cleaned.
func (t *pathTracker) addRef(refs []pathRef, dirs []string, p, text string, option bool) []pathRef {
	if p == "" {
		return refs
	}
	if p[0] == '/' || p[0] == wild {
		return append(refs, pathRef{pattern: cleanPattern(p), word: text, option: option})
	}
	for _, d := range dirs {
		refs = append(refs, pathRef{pattern: cleanPattern(d + "/" + p), word: text, option: option})
	}
	return refs
}

// dirs returns the directories a command of the line may run in: the
// working directory and every place its cds may lead, each from each.
func (t *pathTracker) dirs() []string {
	dirs := []string{escapeGlob(t.env.wd)}
	for _, cd := range t.cds {
		target := string(wild)
		switch {
		case cd.home && t.home() != "":
			target = escapeGlob(t.home())
		case cd.w != nil:
			target = t.expand(cd.w, 0)
		}
		if target == "" || target[0] == '-' {
			target = string(wild) // cd - or an option: somewhere
		}
		for _, d := range dirs {
			next := target
			if target[0] != '/' && target[0] != wild {
				next = d + "/" + target
			}
			if next = cleanPattern(next); !slices.Contains(dirs, next) {
				dirs = append(dirs, next)
			}
		}
		if len(dirs) > maxTrackedDirs {
			return []string{string(wild)}
		}
	}
	return dirs
}

// home is the home directory, as the line's environment has it.
func (t *pathTracker) home() string {
	if t.env.getenv != nil {
		if v, ok := t.env.getenv("HOME"); ok {
			return v
		}
	}
	return t.env.home
}

// variable returns the pattern $name expands to: the one value the line
// gives it, else the environment's.
func (t *pathTracker) variable(name string, depth int) string {
	if values, ok := t.vars[name]; ok {
		if len(values) != 1 || values[0].w == nil || depth >= maxVarDepth {
			return string(wild)
		}
		if v, ok := t.values[name]; ok {
			return v
		}
		v := t.expand(values[0].w, depth+1)
		if t.values == nil {
			t.values = map[string]string{}
		}
		t.values[name] = v
		return v
	}
	switch name {
	case "HOME":
		if h := t.home(); h != "" {
			return escapeGlob(h)
		}
		return string(wild)
	case "PWD":
		if len(t.cds) == 0 {
			return escapeGlob(t.env.wd)
		}
		return string(wild)
	}
	if !validName(name) || t.env.getenv == nil || shellSets(name) {
		return string(wild) // $1, $@, $?, a variable bash sets, or an environment forge does not know
	}
	v, _ := t.env.getenv(name)
	return escapeGlob(v) // unset expands to nothing
}

// shellSets reports whether bash sets the variable name itself as the
// line runs, whatever the environment says.
func shellSets(name string) bool {
	switch name {
	case "OLDPWD", "REPLY", "OPTARG", "MAPFILE", "DIRSTACK", "FUNCNAME", "PIPESTATUS", "COMPREPLY", "_":
		return true
	}
	return strings.HasPrefix(name, "BASH")
}

// expand works out the pattern a word stands for.
func (t *pathTracker) expand(w *syntax.Word, depth int) string {
	if len(w.Parts) > 1 && bracesAcross(w) {
		return string(wild) // {.fo"r"ge/x,}: any of the words it becomes
	}
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			t.unquotedPattern(&b, p.Value, i == 0)
		case *syntax.SglQuoted:
			if p.Dollar && strings.IndexByte(p.Value, '\\') >= 0 {
				b.WriteByte(wild)
			} else {
				b.WriteString(escapeGlob(p.Value))
			}
		case *syntax.DblQuoted:
			for _, inner := range p.Parts {
				switch q := inner.(type) {
				case *syntax.Lit:
					var lit wordBuilder
					doubleQuotedLit(&lit, q.Value)
					b.WriteString(escapeGlob(lit.allow.String()))
				case *syntax.ParamExp:
					b.WriteString(t.param(q, depth))
				default:
					b.WriteByte(wild)
				}
			}
		case *syntax.ParamExp:
			b.WriteString(t.param(p, depth))
		case *syntax.ProcSubst:
			b.WriteString("/dev/fd/63") // a pipe, whatever its number
		case *syntax.ArithmExp:
			b.WriteString("0") // a number, whatever its value
		default: // command and arithmetic substitutions, extended globs
			b.WriteByte(wild)
		}
		if b.Len() > maxPattern {
			return string(wild)
		}
	}
	return b.String()
}

// param is the pattern of a parameter expansion: a plain $NAME is looked
// up, anything else is known only when it runs.
func (t *pathTracker) param(p *syntax.ParamExp, depth int) string {
	if p.Length && p.Param != nil && p.Index == nil && !p.Excl {
		return "0" // ${#x} is a number
	}
	if !plainParam(p) {
		return string(wild)
	}
	return t.variable(p.Param.Value, depth)
}

// unquotedPattern adds an unquoted literal: globs stay globs, a leading ~
// is the home directory, a brace expansion could be anything.
func (t *pathTracker) unquotedPattern(b *strings.Builder, s string, first bool) {
	if strings.IndexByte(s, '{') >= 0 && strings.IndexByte(s, '}') >= 0 &&
		(strings.IndexByte(s, ',') >= 0 || strings.Contains(s, "..")) {
		b.WriteByte(wild) // {a,b} can become several words: any of them
		return
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteString(escapeGlob(s[i : i+1]))
		case c == '~' && i == 0 && first:
			end := strings.IndexByte(s, '/')
			if end < 0 {
				end = len(s)
			}
			if h := t.home(); end == 1 && h != "" {
				b.WriteString(escapeGlob(h))
			} else {
				b.WriteByte(wild) // ~user, or no home known
			}
			i = end - 1
		default:
			b.WriteByte(c)
		}
	}
}

// escapeGlob quotes the glob characters of a literal text.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[]\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[]\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cleanPattern cleans an absolute pattern as path.Clean would a path: a
// .. takes away the element before it, unless that element holds a wild
// part (which may hold slashes: then nothing before it is known).
func cleanPattern(p string) string {
	if strings.IndexByte(p, wild) < 0 && !strings.Contains(p, "\\") {
		return path.Clean(p)
	}
	var out []string
	for _, e := range strings.Split(p, "/") {
		switch {
		case e == "" || e == ".":
		case e == "..":
			if n := len(out); n > 0 && strings.IndexByte(out[n-1], wild) < 0 {
				out = out[:n-1]
			} else if n > 0 {
				out = []string{string(wild)}
			}
		default:
			out = append(out, e)
		}
	}
	if len(out) > 0 && out[0] == string(wild) {
		return strings.Join(out, "/")
	}
	return "/" + strings.Join(out, "/")
}
