package permission

// suggestCall is SuggestRule for a call that is not a shell line: the
// exact paths of the credentials it reaches, the hosts it sends data to
// (WebFetch(domain:example.com), never WebFetch alone), and otherwise the
// tool's name. Nothing when one of those cannot be written as a rule.
func (p *Policy) suggestCall(c Call, s *subjects, rules []*compiledRule) []string {
	var out []string
	if hits := p.uncoveredCredentials(c, s, rules); len(hits) > 0 {
		cr, ok := p.credentialRules(c.Tool, hits)
		if !ok {
			return nil
		}
		out = cr
		if c.ReadOnly && !c.EditsFiles && !c.sends() {
			return out // nothing else asks about a read-only call
		}
	}
	if len(c.Hosts) > 0 && !c.OpenWorld {
		hr, ok := hostRules(c.Tool, c.Hosts, rules)
		if !ok {
			return nil
		}
		if len(hr) > 0 {
			return append(out, hr...)
		}
	}
	return append(out, c.Tool)
}
