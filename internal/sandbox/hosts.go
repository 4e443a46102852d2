package sandbox

import (
	"fmt"
	"net/netip"
	"strings"
)

// hostSet is the hosts the proxy lets through: exact names, and
// "*.example.com" for every subdomain of example.com (not example.com
// itself). An IP address passes only when it is listed as it is written.
type hostSet struct {
	exact    map[string]bool
	suffixes []string // ".example.com"
}

func newHostSet(patterns []string) hostSet {
	s := hostSet{exact: map[string]bool{}}
	for _, p := range patterns {
		p = normalHost(p)
		if rest, ok := strings.CutPrefix(p, "*."); ok {
			s.suffixes = append(s.suffixes, "."+rest)
			continue
		}
		s.exact[p] = true
	}
	return s
}

func (s hostSet) empty() bool { return len(s.exact) == 0 && len(s.suffixes) == 0 }

// allows reports whether host (a name or an IP literal, without port) may
// be reached.
func (s hostSet) allows(host string) bool {
	host = normalHost(host)
	if host == "" {
		return false
	}
	if s.exact[host] {
		return true
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return false // an address passes only when listed itself
	}
	for _, suf := range s.suffixes {
		if strings.HasSuffix(host, suf) {
			return true
		}
	}
	return false
}

// normalHost is host in lower case, without the brackets of an IPv6
// literal or a final dot.
func normalHost(host string) string {
	host = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(host), "["), "]")
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// checkHostPattern refuses what cannot name a host: a URL, a port, a
// pattern with a wildcard anywhere but at the start.
func checkHostPattern(p string) error {
	h := normalHost(p)
	rest := strings.TrimPrefix(h, "*.")
	switch {
	case h == "":
		return fmt.Errorf("sandbox.network.allow: an empty host")
	case strings.Contains(h, "://") || strings.ContainsAny(rest, "/*?@ \t"):
		return fmt.Errorf("sandbox.network.allow: %q is not a host name: write proxy.golang.org, or *.example.com for its subdomains", p)
	case strings.Contains(rest, ":"):
		if _, err := netip.ParseAddr(rest); err != nil {
			return fmt.Errorf("sandbox.network.allow: %q: give the host without a port (every port of an allowed host is reachable)", p)
		}
	}
	return nil
}
