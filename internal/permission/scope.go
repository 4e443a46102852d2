package permission

import (
	"errors"
	"slices"
	"strings"
)

// Scope narrows the tools an agent may use to those some of its rules name
// (Read, Grep, Bash(git diff:*)): a tool no rule names is not offered, and
// a call no rule covers is not run, whatever the policy would say. It
// grants nothing: calls in scope are still decided by the Policy. A nil
// Scope allows everything. Scopes narrow one another (Narrow): a custom
// subagent within a custom command's prompt gets both.
type Scope struct {
	layers []scopeLayer
}

// scopeLayer is one list of rules, all of which must be met.
type scopeLayer struct {
	rules  []Rule
	policy *Policy // the rules as allow rules, to match a call's subjects
	text   string  // the rules as written, for messages
}

// NewScope makes a scope of rules, each a tool name, a glob over names or
// Tool(pattern) as in permission rules. wd and home place path patterns as
// a Policy does. Its error lists every malformed rule.
func NewScope(rules []string, wd, home string) (*Scope, error) {
	l := scopeLayer{text: strings.Join(rules, ", ")}
	var errs []error
	for _, text := range rules {
		r, err := ParseRule(text)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		l.rules = append(l.rules, r)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	p, err := New(Config{Mode: ModeAsk, Allow: rules, WorkingDir: wd, Home: home})
	if err != nil {
		return nil, err
	}
	l.policy = p
	return &Scope{layers: []scopeLayer{l}}, nil
}

// Narrow is s within o: what both allow. Either may be nil.
func (s *Scope) Narrow(o *Scope) *Scope {
	switch {
	case s == nil:
		return o
	case o == nil:
		return s
	}
	return &Scope{layers: append(append([]scopeLayer(nil), s.layers...), o.layers...)}
}

// Offers reports whether some rule of every layer names tool.
func (s *Scope) Offers(tool string) bool {
	if s == nil {
		return true
	}
	for _, l := range s.layers {
		if !l.names(tool) {
			return false
		}
	}
	return true
}

// Allows reports whether a call is in scope: every layer has rules naming
// its tool that cover all of its subjects (each command of a shell line,
// each path, the URL), as allow rules would. When it is not, the reason
// names the rules that were not met.
func (s *Scope) Allows(c Call) (bool, string) {
	if s == nil {
		return true, ""
	}
	// Judged as a call that could change something, so that read-only
	// tools are not waved through as the policy's ask mode would, nor
	// sandboxed ones as its sandbox would: the scope says which calls may
	// be made, wherever they run.
	c.ReadOnly, c.EditsFiles = false, false
	c.Sandbox, c.LeavesSandbox = SandboxNone, false
	for _, l := range s.layers {
		if !l.names(c.Tool) || l.policy.Decide(c).Decision != Allow {
			return false, "only these tools may be used here: " + l.text
		}
	}
	return true, ""
}

func (l scopeLayer) names(tool string) bool {
	for _, r := range l.rules {
		if r.matchesTool(tool) {
			return true
		}
	}
	return false
}

// Unnamed are the tools (names or globs) that rules of s name and that
// match none of names, once each, in the order written: a misspelt tool in
// a custom command's allowed-tools leaves its prompt with fewer tools than
// meant, or none.
func (s *Scope) Unnamed(names []string) []string {
	if s == nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, l := range s.layers {
		for _, r := range l.rules {
			if seen[r.tool] || slices.ContainsFunc(names, r.matchesTool) {
				continue
			}
			seen[r.tool] = true
			out = append(out, r.tool)
		}
	}
	return out
}
