package hooks

import (
	"regexp"
	"strings"
)

// matcher matches tool names: every name, a list of exact names, or a
// regular expression over the whole name.
type matcher struct {
	all   bool
	names []string
	re    *regexp.Regexp
}

// compileMatcher reads a matcher as Claude Code does: "" and "*" match
// every tool; a plain name or names joined by "|" ("Bash", "Edit|Write")
// match exactly; anything else is a regular expression, which must match
// the whole name ("mcp__github__.*", "Notebook.*"), so that "Bash" never
// catches a tool named "BashOutput".
func compileMatcher(s string) (matcher, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "*" {
		return matcher{all: true}, nil
	}
	if plainNames(s) {
		var names []string
		for n := range strings.SplitSeq(s, "|") {
			if n = strings.TrimSpace(n); n != "" {
				names = append(names, n)
			}
		}
		return matcher{names: names}, nil
	}
	if _, err := regexp.Compile(s); err != nil {
		return matcher{}, err // checked alone: ")(" would compile inside the anchors
	}
	re, err := regexp.Compile(`^(?:` + s + `)$`)
	if err != nil {
		return matcher{}, err
	}
	return matcher{re: re}, nil
}

// plainNames says s is tool names and "|" only.
func plainNames(s string) bool {
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '|', r == '-', r == ' ':
		default:
			return false
		}
	}
	return true
}

func (m matcher) match(name string) bool {
	switch {
	case m.all:
		return true
	case m.re != nil:
		return m.re.MatchString(name)
	}
	for _, n := range m.names {
		if n == name {
			return true
		}
	}
	return false
}
