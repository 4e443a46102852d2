package permission

import (
	"slices"
	"strings"
)

// Decide judges a call: deny rules first, then plan mode, then what only
// the person may allow (forge's own settings), credentials, then allow
// rules and the rules remembered this session, egress, then the mode.
func (p *Policy) Decide(c Call) Verdict {
	s := p.subjectsFor(c)
	v := p.decide(c, &s)
	v.Judged = s.judged()
	return v
}

// decide is Decide on c's subjects s.
func (p *Policy) decide(c Call, s *subjects) Verdict {
	deniedVerdict, matched := p.denied(c, s)
	if matched && deniedVerdict.Decision == Deny {
		return deniedVerdict
	}
	readOnly := c.ReadOnly && !c.EditsFiles || c.Sandbox == SandboxReadOnly && !c.LeavesSandbox
	if p.Mode() == ModePlan && !readOnly {
		return Verdict{Decision: Deny, Reason: "plan mode runs read-only tools only; " + display(c) + " could change something"}
	}
	if v, ok := p.askedByRule(c, s); ok {
		return v
	}
	if c.LeavesSandbox && p.Mode() != ModeYolo {
		return Verdict{Decision: Ask, Protected: true, Reason: display(c) + " asks to run outside the sandbox: forge asks every time, " +
			"in every mode but yolo; let it run in the sandbox, or run forge with --approval yolo"}
	}
	if c.Sandbox != SandboxNone && !c.LeavesSandbox {
		return p.sandboxed(c, deniedVerdict, matched)
	}
	var lp lineProtection
	if s.isCommand {
		if s.line.parseErr != nil && !c.ReadOnly && !p.blanketAllows(c.Tool) {
			rest := " " + whyNoParse + " (" + s.line.parseErr.Error() +
				"): forge cannot see what it would run, so it asks in every mode; write it so that it parses"
			return Verdict{Decision: Ask, Protected: true, Reason: display(c) + rest, Why: "the line" + rest}
		}
		lp = p.protectedLine(c, &s.line)
	}
	if lp.protected || p.protectedEdit(c, s) {
		rest := " may change forge's own settings or trust, or what git runs: forge always asks first, whatever the mode, rules and hooks"
		return Verdict{Decision: Ask, Protected: true, Reason: display(c) + rest, Why: "it" + rest}
	}
	if matched { // a deny rule might match what forge cannot see
		return deniedVerdict
	}
	if lp.credential != "" && p.Mode() != ModeYolo {
		rest := " names `" + shorten(lp.credential) +
			"`, where credentials are kept (permissions.credentials): forge asks first in every mode but yolo; approve it once"
		return Verdict{Decision: Ask, Reason: display(c) + rest, Why: "it" + rest}
	}
	if lp.holder != "" && p.Mode() != ModeYolo {
		rest := " names `" + shorten(lp.holder) + "`, which holds " + p.spell(lp.held) +
			": a program that reads it whole would read credentials (permissions.credentials); forge asks first in every mode but yolo; approve it once"
		return Verdict{Decision: Ask, Reason: display(c) + rest, Why: "it" + rest}
	}
	v, unnamed := p.decideAllowed(c, s, readOnly)
	switch {
	case lp.unsure == "" || p.Mode() == ModeYolo:
	case v.Decision == Allow:
		rest := ", and it could be forge's own settings, a script forge runs or a credential: approve it once"
		return Verdict{Decision: Ask, Protected: true, Reason: "forge cannot tell which file `" + shorten(lp.unsure) +
			"` names in " + display(c) + rest, Why: "forge cannot tell which file `" + shorten(lp.unsure) + "` it names" + rest}
	case v.Decision == Ask && (len(v.Always) > 0 || unnamed): // a rule would not stop the question next time
		unsure := "; forge cannot tell which file `" + shorten(lp.unsure) + "` names, so no rule can allow it: approve it once"
		v.Always, v.Reason = nil, withoutHint(v.Reason)+unsure
		if v.Why != "" {
			v.Why = withoutHint(v.Why) + unsure
		}
	}
	return v
}

// blanketAllows reports whether an allow rule allows every call of tool.
func (p *Policy) blanketAllows(tool string) bool {
	for _, r := range p.allowRules() {
		if r.matchesTool(tool) && r.blanket() {
			return true
		}
	}
	return false
}

// askedByRule returns the verdict of the first ask rule that could match
// the call, as a deny rule would; yolo mode asks nothing.
func (p *Policy) askedByRule(c Call, s *subjects) (Verdict, bool) {
	if p.Mode() == ModeYolo {
		return Verdict{}, false
	}
	for _, r := range p.ask {
		if !r.matchesTool(c.Tool) {
			continue
		}
		if hit, _, ok := r.denies(s); ok {
			reason := "asked by rule " + r.text
			if hit != "" {
				reason += ": " + hit
			}
			return Verdict{Decision: Ask, Rule: r.text, Reason: reason}, true
		}
	}
	return Verdict{}, false
}

// sandboxed judges a call whose commands run in a sandbox, no deny or ask
// rule having matched it: the sandbox keeps forge's settings read-only,
// credentials hidden and the network closed, so it runs, unless a deny
// rule could match what forge cannot see.
func (p *Policy) sandboxed(c Call, blind Verdict, matched bool) Verdict {
	if matched {
		return blind
	}
	where := "in the sandbox"
	if c.Sandbox == SandboxReadOnly {
		where = "in the read-only sandbox"
	}
	return Verdict{Decision: Allow, Sandboxed: true, Reason: display(c) + " runs " + where + ", which confines what it can change and reach"}
}

// decideAllowed applies the allow rules, the rules remembered this
// session and then the mode to a call no deny rule denied. unnamed says it
// asks because a prefix rule for a command does not name a word of it.
func (p *Policy) decideAllowed(c Call, s *subjects, readOnly bool) (v Verdict, unnamed bool) {
	rules := p.rulesFor(c.Tool, make([]*compiledRule, 0, 16))
	if v, ok := p.credentialAsk(c, s, rules); ok {
		return v, false
	}
	allowedBy, blocker := p.allowed(rules, s)
	if allowedBy != nil {
		return p.allowedVerdict(allowedBy), false
	}
	if v, ok := p.egressAsk(c, s, rules); ok {
		return v, false
	}
	switch {
	case readOnly:
		return Verdict{Decision: Allow, Reason: "read-only tools run without asking"}, false
	case p.Mode() == ModeYolo:
		return Verdict{Decision: Allow, Reason: "yolo mode allows every call no deny rule denies"}, false
	case p.Mode() == ModeAutoEdit && c.EditsFiles && p.editsInside(s):
		return Verdict{Decision: Allow, Reason: "auto-edit mode allows edits inside the working directory"}, false
	}
	always := p.suggest(c, s, rules)
	reason, why := p.askReason(c, s, blocker, always)
	return Verdict{Decision: Ask, Reason: reason, Why: why, Always: always}, blocker.unnamed != ""
}

// withoutHint is an ask reason without its advice to add a rule.
func withoutHint(reason string) string {
	reason, _, _ = strings.Cut(reason, "; add an allow rule")
	reason, _, _ = strings.Cut(reason, " or add an allow rule")
	return reason
}

// denied returns the verdict of the first deny rule that matches the call:
// a denial, or a question when the rule could match only a command whose
// effect forge cannot see (eval "$X", a git alias), which the person can
// judge and a rule cannot.
func (p *Policy) denied(c Call, s *subjects) (Verdict, bool) {
	var unsure Verdict
	for _, r := range p.deny {
		if !r.matchesTool(c.Tool) {
			continue
		}
		hit, blind, ok := r.denies(s)
		switch {
		case ok && !blind:
			reason := "denied by rule " + r.text
			if hit != "" {
				reason += ": " + hit
			}
			return Verdict{Decision: Deny, Rule: r.text, Reason: reason}, true
		case ok && unsure.Reason == "":
			unsure = Verdict{Decision: Ask, Rule: r.text, Reason: "forge cannot tell whether " + hit + " runs what the deny rule " +
				r.text + " refuses: approve " + display(c) + " only if it does not"}
		}
	}
	return unsure, unsure.Reason != ""
}

// denies reports whether the deny rule r matches any subject, and which
// command it matched when that helps to say (a line of several commands).
// blind says the rule matched only commands forge cannot see into.
func (r *compiledRule) denies(s *subjects) (hit string, blind, ok bool) {
	if r.blanket() || r.anyHost(s.hosts) {
		return "", false, true
	}
	switch {
	case s.isCommand:
		for i := range s.line.commands {
			c := &s.line.commands[i]
			if r.deniesCommand(c) {
				if len(s.line.commands) > 1 {
					return "`" + shorten(c.text) + "`", false, true
				}
				return "", false, true
			}
		}
		for i := range s.line.commands {
			c := &s.line.commands[i]
			if (c.hidden || c.opaque) && (r.kind == patternPrefix || r.kind == patternGlob) {
				return "`" + shorten(c.text) + "`", true, true
			}
		}
		return "", false, false
	case len(s.paths) > 0:
		for i := range s.paths {
			if r.deniesPath(&s.paths[i]) {
				return "", false, true
			}
		}
		return "", false, false
	case s.hasURL:
		return "", false, r.matchesURL(s.url, true)
	}
	for _, t := range s.texts {
		if r.matchesText(t) {
			return "", false, true
		}
	}
	return "", false, false
}

// blocker is the first thing no allow rule covered, for the ask reason.
type blocker struct {
	command *command // the command no rule allows, if the call is a shell line
	// unnamed says why a prefix rule for the command's program does not
	// allow it: a word past its prefix it does not name.
	unnamed string
}

// rulesFor returns the allow and remembered rules naming tool, appended to buf.
func (p *Policy) rulesFor(tool string, buf []*compiledRule) []*compiledRule {
	for _, r := range p.allowRules() {
		if r.matchesTool(tool) {
			buf = append(buf, r)
		}
	}
	return buf
}

// allowed returns the rules, among those naming the call's tool, that
// together allow every subject of the call: every simple command of a
// line, every path, the URL, or one of the string arguments. Otherwise it
// returns nil and what blocked it.
func (p *Policy) allowed(rules []*compiledRule, s *subjects) ([]*compiledRule, blocker) {
	if len(rules) == 0 {
		return nil, p.firstBlocker(s)
	}
	if r := firstRule(rules, (*compiledRule).blanket); r != nil {
		return []*compiledRule{r}, blocker{}
	}
	var used []*compiledRule
	cover := func(ok func(*compiledRule) bool) bool {
		r := firstRule(rules, ok)
		if r != nil && !slices.Contains(used, r) {
			used = append(used, r)
		}
		return r != nil
	}
	switch {
	case s.isCommand && s.line.parseErr != nil:
		return nil, blocker{}
	case s.isCommand:
		if b := unallowable(s); b.command != nil {
			return nil, b // no rule can cover it: say so, not that a rule is missing
		}
		var missed blocker // a command a prefix rule falls short of: reported if no other is missing
		for i := range s.line.commands {
			c := &s.line.commands[i]
			if c.denyOnly || cover(func(r *compiledRule) bool { return r.allowsCommand(c) }) {
				continue
			}
			b := blocker{command: c, unnamed: unnamedBy(rules, c)}
			if b.unnamed == "" {
				return nil, b
			}
			if missed.command == nil {
				missed = b
			}
		}
		if missed.command != nil {
			return nil, missed
		}
		if used == nil { // a line that runs nothing: any rule for the tool will do
			used = rules[:1]
		}
	case len(s.paths) > 0:
		for i := range s.paths {
			if !cover(func(r *compiledRule) bool { return r.allowsPath(&s.paths[i]) }) {
				return nil, blocker{}
			}
		}
	case s.hasURL:
		if !cover(func(r *compiledRule) bool { return r.matchesURL(s.url, false) && r.hostsAgree(s.hosts) }) {
			return nil, blocker{}
		}
	default:
		if !cover(func(r *compiledRule) bool { return slices.ContainsFunc(s.texts, r.matchesText) || r.allHosts(s.hosts) }) {
			return nil, blocker{}
		}
	}
	return used, blocker{}
}

// unnamedBy returns why the first prefix rule among rules that starts the
// command c does not allow it, "" when none does.
func unnamedBy(rules []*compiledRule, c *command) string {
	for _, r := range rules {
		if why, ok := r.unnamed(c); ok {
			return why
		}
	}
	return ""
}

// firstBlocker finds the first command of a line, for when no rule names the tool.
func (p *Policy) firstBlocker(s *subjects) blocker {
	if !s.isCommand {
		return blocker{}
	}
	if b := unallowable(s); b.command != nil {
		return b
	}
	for i := range s.line.commands {
		if !s.line.commands[i].denyOnly {
			return blocker{command: &s.line.commands[i]}
		}
	}
	return blocker{}
}

// unallowable finds the first command of a line that no rule with a
// pattern can allow (arithmetic on a value, a redirection to a file), the
// reason that matters most when the line asks.
func unallowable(s *subjects) blocker {
	for i := range s.line.commands {
		if c := &s.line.commands[i]; !c.denyOnly && c.unallowable != "" && s.line.parseErr == nil {
			return blocker{command: c}
		}
	}
	return blocker{}
}

// firstRule returns the first rule for which ok holds, or nil.
func firstRule(rules []*compiledRule, ok func(*compiledRule) bool) *compiledRule {
	for _, r := range rules {
		if ok(r) {
			return r
		}
	}
	return nil
}

// allowedVerdict describes an allow by rules.
func (p *Policy) allowedVerdict(rules []*compiledRule) Verdict {
	texts := make([]string, len(rules))
	session := true
	for i, r := range rules {
		texts[i] = r.text
		session = session && p.isSession(r)
	}
	list := strings.Join(texts, ", ")
	word := "rule "
	if len(rules) > 1 {
		word = "rules "
	}
	if session {
		return Verdict{Decision: Allow, Rule: list, Reason: "allowed this session by " + word + list}
	}
	return Verdict{Decision: Allow, Rule: list, Reason: "allowed by " + word + list}
}

// editsInside reports whether the call names at least one path and all
// of them are inside the working directory or an allowed root.
func (p *Policy) editsInside(s *subjects) bool {
	if len(s.paths) == 0 {
		return false
	}
	for _, ps := range s.paths {
		if !p.inside(ps) {
			return false
		}
	}
	return true
}

// askReason says, in one line, why the call needs the person and how to
// allow such calls without asking; why says the same without naming the
// call, for a question that shows it.
func (p *Policy) askReason(c Call, s *subjects, b blocker, always []string) (reason, why string) {
	shown := display(c)
	hint := ""
	if len(always) > 0 {
		hint = "; add an allow rule such as " + strings.Join(always, " and ")
	}
	switch {
	case s.isCommand && s.line.parseErr != nil:
		rest := whyNoParse + ", so only a rule allowing every " + shorten(c.Tool) + " call covers it"
		return shown + " " + rest, "the line " + rest
	case s.isCommand && b.command != nil && b.command.unallowable != "":
		cmd := "`" + shorten(b.command.text) + "` " + b.command.unallowable
		return cmd + "; approve " + shown + " once", cmd + "; approve it once"
	case s.isCommand && b.command != nil && b.unnamed != "":
		cmd := "`" + shorten(b.command.text) + "`: " + b.unnamed
		if len(s.line.commands) == 1 {
			return b.unnamed + "; approve " + shown + " once" + strings.Replace(hint, "; add", " or add", 1),
				b.unnamed + "; approve it once" + strings.Replace(hint, "; add", " or add", 1)
		}
		return cmd + "; approve " + shown + " once" + strings.Replace(hint, "; add", " or add", 1), cmd + "; approve it once"
	case s.isCommand && b.command != nil && len(s.line.commands) > 1:
		cmd := "no rule allows `" + shorten(b.command.text) + "`"
		return cmd + " in " + shown + hint, cmd + hint
	case c.EditsFiles && len(s.paths) == 0:
		return shown + " edits files but names no path to check" + hint, "it edits files but names no path to check" + hint
	case c.EditsFiles && !p.editsInside(s):
		rest := " edits outside the working directory and the allowed roots" + hint
		return shown + rest, "it" + rest
	case c.EditsFiles:
		rest := "; run with --approval auto-edit" + strings.Replace(hint, "; add", " or add", 1)
		return "ask mode asks before edits such as " + shown + rest, "ask mode asks before edits" + rest
	}
	return "no rule allows " + shown + hint, "no rule allows it" + hint
}
