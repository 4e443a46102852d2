package permission

import (
	"path"
	"strings"
)

// compiledRule is a Rule made ready for one Policy.
type compiledRule struct {
	Rule
	text string
	// anchored are the absolute path patterns of a glob with a slash; nil
	// for a pattern matched against base names.
	anchored []string
}

// compile prepares r for p's working and home directories.
func (p *Policy) compile(r Rule) (*compiledRule, error) {
	c := &compiledRule{Rule: r, text: r.String()}
	if r.kind == patternGlob && (strings.Contains(r.pattern, "/") || r.pattern == "~") {
		use := builtinUse(r.tool)
		if use == "" || use == usePath {
			anchored, err := p.anchorPath(r.pattern)
			if err != nil {
				return nil, err
			}
			c.anchored = anchored
		}
	}
	return c, nil
}

// allowsCommand reports whether r, an allow or remembered rule, allows the
// simple command c.
func (r *compiledRule) allowsCommand(c *command) bool {
	if r.blanket() {
		return true
	}
	if c.unallowable != "" || len(c.words) == 0 {
		return false
	}
	if c.runner && !r.namesRunner(c.words[0]) {
		return false
	}
	switch r.kind {
	case patternPrefix:
		if !r.prefixOf(c) {
			return false
		}
		_, unnamed := unnamedOption(c.ownWordsOf(), len(r.words))
		return !unnamed
	case patternGlob:
		if !starMatch(r.pattern, c.allowText) {
			return false
		}
		_, unnamed := r.globUnnamed(c)
		return !unnamed
	}
	return false
}

// globUnnamed is unnamedOption for a glob rule: the words before its first
// * are named, and so is a later option that one of the pattern's own
// words matches (--format=* names --format=%H); a * names no option.
func (r *compiledRule) globUnnamed(c *command) (optionFinding, bool) {
	star := strings.IndexByte(r.pattern, '*')
	if star < 0 {
		return optionFinding{}, false // an exact rule names every word
	}
	ws := c.ownWordsOf()
	fixed, end := 0, 0 // the words that lie wholly in the literal text before the first *
	for fixed < len(ws) {
		if end += len(ws[fixed].allow); end > star {
			break
		}
		fixed, end = fixed+1, end+1
	}
	var tokens []string
	for _, t := range strings.Fields(r.pattern[star:]) {
		if t[0] == '-' {
			tokens = append(tokens, t)
		}
	}
	named := func(w word) bool {
		for _, t := range tokens {
			if starMatch(t, w.allow) {
				return true
			}
		}
		return false
	}
	return unnamedOptionBut(ws, max(fixed, 1), named)
}

// prefixOf reports whether the prefix rule r's words start c's words.
func (r *compiledRule) prefixOf(c *command) bool {
	if len(c.words) < len(r.words) {
		return false
	}
	for i, w := range r.words {
		if !c.words[i].literal() || c.words[i].allow != w {
			return false
		}
	}
	return true
}

// unnamed returns why the prefix or glob rule r, which matches the
// command c as text, does not allow it: an option it does not name. ok is
// false when r allows c or does not match it.
func (r *compiledRule) unnamed(c *command) (string, bool) {
	if c.unallowable != "" || len(c.words) == 0 || c.runner && !r.namesRunner(c.words[0]) {
		return "", false
	}
	var f optionFinding
	var ok bool
	switch {
	case r.kind == patternPrefix && r.prefixOf(c):
		f, ok = unnamedOption(c.ownWordsOf(), len(r.words))
	case r.kind == patternGlob && starMatch(r.pattern, c.allowText):
		f, ok = r.globUnnamed(c)
	}
	if !ok {
		return "", false
	}
	return f.reason(r.text), true
}

// namesRunner reports whether the rule's pattern starts with the literal
// word runner (source, eval, bash): only such a rule may allow a command
// that runs text the rule cannot see.
func (r *compiledRule) namesRunner(runner word) bool {
	if !runner.literal() {
		return false
	}
	first := r.pattern
	if r.kind == patternPrefix {
		first = r.words[0]
	} else if i := strings.IndexByte(first, ' '); i >= 0 {
		first = first[:i]
	}
	return first == runner.allow
}

// deniesCommand reports whether the deny rule r matches the simple command
// c in any form it could take when it runs.
func (r *compiledRule) deniesCommand(c *command) bool {
	if r.blanket() {
		return true
	}
	if r.kind != patternPrefix && r.kind != patternGlob {
		return false
	}
	if r.deniesForm(c.words, c.denyText) {
		return true
	}
	for i, ws := range c.moreForms {
		if r.deniesForm(ws, c.moreTexts[i]) {
			return true
		}
	}
	return false
}

// deniesForm reports whether the deny rule r could match the words ws,
// whose deny text is text.
func (r *compiledRule) deniesForm(ws []word, text string) bool {
	if r.kind == patternPrefix {
		return prefixCould(r.words, ws)
	}
	return starIntersect(r.pattern, text)
}

// otherForms returns the forms deny rules check besides the command's
// words: the command with its wrappers, and each with a program path cut
// to its name (/bin/rm is rm).
func otherForms(c *command) [][]word {
	var forms [][]word
	for i, ws := range [][]word{c.words, c.wrapped} {
		if len(ws) == 0 {
			continue
		}
		if i > 0 {
			forms = append(forms, ws)
		}
		switch first := ws[0]; {
		case first.literal() && strings.Contains(first.allow, "/"):
			based := append([]word{staticWord(path.Base(first.allow))}, ws[1:]...)
			forms = append(forms, based)
		case first.expands && strings.Contains(first.allow, "/"): // /bin/r? is rm too
			base := path.Base(first.deny)
			based := append([]word{{allow: base, deny: base, expands: true}}, ws[1:]...)
			forms = append(forms, based)
		}
	}
	return forms
}

// prefixCould reports whether the words ws could start with the literal
// words prefix once the shell has expanded them. After the program name,
// options and their values may come between the prefix's words, so that a
// deny rule for git push also denies git -C dir push and git --no-pager
// push.
func prefixCould(prefix []string, ws []word) bool {
	if len(prefix) == 0 {
		return true
	}
	if len(ws) == 0 {
		return false
	}
	if ws[0].dynamic {
		return true // $X could be the whole prefix
	}
	if !wordCould(prefix[0], ws[0]) {
		return false
	}
	// at[j]: the words before j matched the prefix so far.
	at, next := make([]bool, len(ws)+1), make([]bool, len(ws)+1)
	at[1] = true
	for _, p := range prefix[1:] {
		clear(next)
		found := false
		for j := 1; j < len(ws); j++ {
			if !at[j] {
				continue
			}
			w := ws[j]
			if w.dynamic {
				return true
			}
			if isOption(w) { // skip it, or it and its value
				at[j+1] = true
				if j+2 <= len(ws) {
					at[j+2] = true
				}
			}
			if wordCould(p, w) {
				next[j+1], found = true, true
			}
		}
		if !found {
			return false
		}
		at, next = next, at
	}
	return true
}

// wordCould reports whether the word w could be the literal word p.
func wordCould(p string, w word) bool {
	switch {
	case w.dynamic:
		return true
	case w.expands:
		return starIntersect(p, w.deny)
	}
	return w.allow == p
}

// isOption reports whether w is a literal option such as -C or --no-pager.
func isOption(w word) bool {
	return w.literal() && len(w.allow) > 1 && w.allow[0] == '-'
}

// matchesURL reports whether the rule matches the URL u. forDeny makes a
// URL whose host cannot be read match a domain it mentions.
func (r *compiledRule) matchesURL(u string, forDeny bool) bool {
	switch r.kind {
	case patternAny:
		return true
	case patternDomain:
		host, ok := urlHost(u)
		if !ok {
			return forDeny && strings.Contains(strings.ToLower(u), r.domain)
		}
		return host == r.domain || strings.HasSuffix(host, "."+r.domain)
	case patternGlob:
		return starMatch(r.pattern, u)
	}
	return false
}

// matchesText reports whether the rule matches a string argument.
func (r *compiledRule) matchesText(s string) bool {
	switch r.kind {
	case patternAny:
		return true
	case patternGlob:
		return starMatch(r.pattern, s)
	}
	return false
}

// allowsPath reports whether the allow rule r covers every physical form
// of ps: where the call would land.
func (r *compiledRule) allowsPath(ps *pathSubject) bool {
	if r.blanket() {
		return true
	}
	if r.kind != patternGlob || !ps.resolved {
		return false
	}
	for _, f := range ps.physical {
		if !r.matchPath(f) {
			return false
		}
	}
	return true
}

// deniesPath reports whether the deny rule r matches any form of ps, as
// written or where it lands.
func (r *compiledRule) deniesPath(ps *pathSubject) bool {
	if r.blanket() {
		return true
	}
	if r.kind != patternGlob {
		return false
	}
	for _, forms := range [][]string{ps.lexical, ps.physical} {
		for _, f := range forms {
			if r.matchPath(f) {
				return true
			}
		}
	}
	return false
}
