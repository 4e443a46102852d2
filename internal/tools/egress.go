package tools

import "strings"

// Egress is where a call would send what it carries, beyond this machine.
// The zero value sends nothing.
type Egress struct {
	// Hosts are the hosts the call reaches, in lower case without a
	// trailing dot: WebFetch's URL host, WebSearch's search endpoint.
	Hosts []string
	// OpenWorld says the call may reach places it cannot name, such as an
	// MCP server's tool that searches the internet with its arguments.
	OpenWorld bool
}

// Sends reports whether the call sends data anywhere.
func (e Egress) Sends() bool { return len(e.Hosts) > 0 || e.OpenWorld }

// Networked is implemented by tools that send data away from the machine.
// A read-only tool is not a tool that cannot leak: what a call carries (a
// URL's query, a search) reaches the host, so the approval policy asks
// before a call reaches a host the person has not approved. Egress names
// where a call would go; a call the tool would refuse before sending
// anything (a malformed URL) returns the zero Egress.
type Networked interface {
	Egress(ec ExecutionContext, args Args) Egress
}

// EgressOf returns where a call of t with args would send data; the zero
// Egress when t is not Networked.
func EgressOf(t Tool, ec ExecutionContext, args Args) Egress {
	if n, ok := t.(Networked); ok {
		return n.Egress(ec, args)
	}
	return Egress{}
}

// HostName is host as Egress names it: lower case, without the trailing
// dot of a fully qualified name or the brackets of an IPv6 literal.
func HostName(host string) string {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.TrimSuffix(strings.ToLower(host), ".")
}
