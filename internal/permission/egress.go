package permission

import "strings"

// A read-only tool is not a tool that cannot leak: what a call carries (a
// URL's query, a search, an MCP tool's arguments) reaches the host it goes
// to. So a call that sends data asks unless each of its hosts was approved,
// in every mode but yolo, plan mode included.

// sends reports whether c sends data beyond the machine.
func (c Call) sends() bool { return len(c.Hosts) > 0 || c.OpenWorld }

// egressAsk is the question for a call that sends data to a host no rule
// approved, and false for any other call (or in yolo mode). It comes after
// the allow rules, which approve the calls they match; a domain rule
// approves its hosts whatever else the call names.
func (p *Policy) egressAsk(c Call, s *subjects, rules []*compiledRule) (Verdict, bool) {
	if p.Mode() == ModeYolo || !c.sends() || !c.OpenWorld && len(unapprovedHosts(c.Hosts, rules)) == 0 {
		return Verdict{}, false
	}
	always := p.suggest(c, s, rules)
	hint := ""
	if len(always) > 0 {
		hint = "; answer always for this session, or add an allow rule such as " + strings.Join(always, " and ")
	}
	shown := display(c)
	rest := " sends data to " + shorten(strings.Join(unapprovedHosts(c.Hosts, rules), ", ")) +
		", a host not approved: forge asks before anything leaves, in every mode but yolo" + hint
	if c.OpenWorld {
		rest = " may send data beyond this machine, to places forge cannot see: forge asks first in every mode but yolo" + hint
	}
	return Verdict{Decision: Ask, Always: always, Reason: shown + rest, Why: "it" + rest}, true
}

// unapprovedHosts are the hosts no domain rule among rules covers.
func unapprovedHosts(hosts []string, rules []*compiledRule) []string {
	var out []string
	for _, h := range hosts {
		if firstRule(rules, func(r *compiledRule) bool { return r.allHosts([]string{h}) }) == nil {
			out = appendNew(out, h)
		}
	}
	return out
}

// hostRules are the rules that approve the hosts no rule approves yet,
// one per host, and false when a host cannot be written in a rule that
// covers it (an IPv6 address): then the call is approved once at a time.
func hostRules(tool string, hosts []string, rules []*compiledRule) ([]string, bool) {
	var out []string
	for _, h := range unapprovedHosts(hosts, rules) {
		r, err := ParseRule(tool + "(domain:" + h + ")")
		if err != nil || !(&compiledRule{Rule: r}).allHosts([]string{h}) {
			return nil, false
		}
		out = append(out, r.String())
	}
	return out, true
}

// inDomain reports whether host is domain or one of its subdomains.
func inDomain(host, domain string) bool {
	return host == domain || strings.HasSuffix(host, "."+domain)
}

// allHosts reports whether r is a domain rule covering every host of a
// call that sends data somewhere.
func (r *compiledRule) allHosts(hosts []string) bool {
	if r.kind != patternDomain || len(hosts) == 0 {
		return false
	}
	for _, h := range hosts {
		if !inDomain(h, r.domain) {
			return false
		}
	}
	return true
}

// anyHost reports whether r is a domain rule covering one of hosts: a
// deny rule denies a call sending data there.
func (r *compiledRule) anyHost(hosts []string) bool {
	if r.kind != patternDomain {
		return false
	}
	for _, h := range hosts {
		if inDomain(h, r.domain) {
			return true
		}
	}
	return false
}

// hostsAgree reports whether a rule that matched a call's URL also covers
// the hosts the tool says the call reaches: a domain rule must cover them
// all, should the tool read its URL otherwise.
func (r *compiledRule) hostsAgree(hosts []string) bool {
	return r.kind != patternDomain || len(hosts) == 0 || r.allHosts(hosts)
}
