package permission

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// patternKind says how a rule's pattern is read.
type patternKind int

const (
	// patternAny: no pattern (or "*"): the rule matches every call of its tools.
	patternAny patternKind = iota
	// patternPrefix: "go test:*", the words a simple command starts with.
	patternPrefix
	// patternDomain: "domain:example.com", a URL's host or its subdomains.
	patternDomain
	// patternGlob: anything else, a glob whose reading depends on the subject.
	patternGlob
)

// Rule is one allow or deny rule: Tool or Tool(pattern). Build one with
// ParseRule; the zero Rule matches nothing.
type Rule struct {
	tool    string      // a tool name or a glob over tool names
	literal bool        // tool has no glob characters
	pattern string      // canonical pattern text, "" for patternAny without parentheses
	kind    patternKind // how pattern is read
	words   []string    // patternPrefix: the command words
	domain  string      // patternDomain: the lower-case host
}

// RuleError reports a malformed rule: which one and what is wrong with it.
type RuleError struct {
	List    string // "allow" or "deny" when the rule came from a Config
	Rule    string // the rule as written
	Problem string // what is wrong and how to fix it
}

// Error names the rule, and its list when known, and says what is wrong.
func (e *RuleError) Error() string {
	if e.List != "" {
		return fmt.Sprintf("permissions.%s rule %q: %s", e.List, e.Rule, e.Problem)
	}
	return fmt.Sprintf("permission rule %q: %s", e.Rule, e.Problem)
}

// Tool returns the tool name or tool-name glob the rule applies to.
func (r Rule) Tool() string { return r.tool }

// Pattern returns the rule's canonical pattern, "" when it has none.
func (r Rule) Pattern() string { return r.pattern }

// String returns the canonical text of the rule; ParseRule gives it back
// unchanged.
func (r Rule) String() string {
	if r.pattern == "" {
		return r.tool
	}
	return r.tool + "(" + r.pattern + ")"
}

// blanket reports whether the rule matches every call of its tools.
func (r Rule) blanket() bool { return r.kind == patternAny }

// matchesTool reports whether the rule names tool.
func (r Rule) matchesTool(tool string) bool {
	if r.literal {
		return r.tool == tool
	}
	ok, err := doublestar.Match(r.tool, tool)
	return err == nil && ok
}

// ParseRule parses "Tool" or "Tool(pattern)". Tool is a tool name or a glob
// over tool names ("mcp__github__*", "*"). The pattern is a command prefix
// ("go test:*"), a domain ("domain:example.com") or a glob; see the package
// documentation for how each meets a call. Errors are *RuleError.
func ParseRule(text string) (Rule, error) {
	fail := func(format string, a ...any) (Rule, error) {
		return Rule{}, &RuleError{Rule: text, Problem: fmt.Sprintf(format, a...)}
	}
	s := strings.TrimSpace(text)
	if s == "" {
		return fail("the rule is empty; write a tool name such as Bash or Bash(go test:*)")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return fail("the rule contains a NUL byte")
	}
	tool, pattern, hasPattern := s, "", false
	if open := strings.IndexByte(s, '('); open >= 0 {
		if !strings.HasSuffix(s, ")") {
			return fail("unbalanced parentheses: a rule with a pattern ends with ), as in Bash(go test:*)")
		}
		tool, pattern, hasPattern = strings.TrimSpace(s[:open]), strings.TrimSpace(s[open+1:len(s)-1]), true
		if !balanced(pattern) {
			return fail("unbalanced parentheses in the pattern %q", pattern)
		}
	} else if strings.IndexByte(s, ')') >= 0 {
		return fail("unbalanced parentheses: ) without (")
	}
	if problem := checkToolName(tool); problem != "" {
		return fail("%s", problem)
	}
	r := Rule{tool: tool, literal: !strings.ContainsAny(tool, "*?[]{}\\")}
	if !hasPattern {
		return r, nil
	}
	if pattern == "" {
		return fail("the pattern is empty; write %s alone to match every call, or %s(pattern)", tool, tool)
	}
	if problem := r.setPattern(pattern); problem != "" {
		return fail("%s", problem)
	}
	return r, nil
}

// setPattern classifies and validates pattern; it returns what is wrong, or "".
func (r *Rule) setPattern(pattern string) string {
	use := builtinUse(r.tool)
	switch {
	case pattern == "*":
		r.kind, r.pattern = patternAny, "*"
	case strings.HasSuffix(pattern, ":*"):
		if use != "" && use != useCommand {
			return fmt.Sprintf("%s takes %s, not a command prefix: drop the :*", r.tool, use)
		}
		words := strings.Fields(pattern[:len(pattern)-2])
		if len(words) == 0 {
			return "the command prefix before :* is empty; write Bash to match every command"
		}
		for _, w := range words {
			if strings.ContainsRune(w, '*') {
				return fmt.Sprintf("a command prefix (ending in :*) takes literal words, and %q has a *; use a glob without :* instead, as in Bash(git * --help)", w)
			}
		}
		r.kind, r.words, r.pattern = patternPrefix, words, strings.Join(words, " ")+":*"
	case strings.HasPrefix(pattern, "domain:"):
		if use != "" && use != useURL && r.tool != "WebSearch" { // WebSearch's: its endpoint's host
			return fmt.Sprintf("%s takes %s, not a domain", r.tool, use)
		}
		host := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(pattern[len("domain:"):])), ".")
		if !validHost(host) {
			return fmt.Sprintf("domain: takes a host name such as example.com (it covers its subdomains too), not %q", pattern[len("domain:"):])
		}
		r.kind, r.domain, r.pattern = patternDomain, host, "domain:"+host
	default:
		if use != useCommand && use != useURL {
			if !doublestar.ValidatePattern(pattern) {
				return fmt.Sprintf("bad glob %q: check its [ ] and { } pairs and trailing \\", pattern)
			}
		}
		r.kind, r.pattern = patternGlob, pattern
	}
	return ""
}

// checkToolName returns what is wrong with a rule's tool part, or "".
func checkToolName(tool string) string {
	if tool == "" {
		return "the tool name is empty; write Tool or Tool(pattern), as in Bash(go test:*)"
	}
	for _, c := range tool {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
		case strings.ContainsRune("*?[]{},!^\\", c):
		default:
			return fmt.Sprintf("the tool name %q has %q; tool names have letters, digits, _ and -, and may use the glob characters * ? [ ]", tool, c)
		}
	}
	if !doublestar.ValidatePattern(tool) {
		return fmt.Sprintf("bad glob %q in the tool name: check its [ ] and { } pairs", tool)
	}
	return ""
}

// balanced reports whether every ( in s has its ) after it.
func balanced(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// validHost reports whether h looks like a host name: labels of letters,
// digits, - and _ separated by dots (IP addresses pass too).
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(h, ".") {
		if label == "" {
			return false
		}
		for _, c := range label {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c >= 0x80) {
				return false
			}
		}
	}
	return true
}

// What a built-in tool's rule patterns are matched against; rules for
// these tools are checked for patterns that could never match.
const (
	useCommand = "a command pattern"
	usePath    = "a path pattern"
	useURL     = "a URL pattern"
	useText    = "a text pattern"
)

// builtinUse returns what the built-in tool's patterns meet, "" for other tools.
func builtinUse(tool string) string {
	switch tool {
	case "Bash":
		return useCommand
	case "Read", "Write", "Edit", "NotebookEdit", "Glob", "Grep":
		return usePath
	case "WebFetch":
		return useURL
	case "WebSearch":
		return useText
	}
	return ""
}
