// Package netguard keeps web tools away from private networks: a URL given by
// a model must not reach the machine's loopback services, the local network
// or a cloud metadata endpoint. The check that matters runs on the address
// actually dialled (after DNS resolution, on every redirect hop), so a name
// that resolves to a private address, or re-resolves to one (DNS rebinding),
// is refused too. CheckHost runs before any connection, for a clear message
// and for the spellings of an address that resolvers read differently.
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// BlockedError says that a host or an address was refused and why.
type BlockedError struct {
	// Host is the host as the URL wrote it, when the check began from one.
	Host string
	// Addr is the refused address; invalid when a name was refused as such
	// (localhost, metadata.google.internal).
	Addr netip.Addr
	// Embedded is the IPv4 address inside Addr that was refused, when Addr
	// is an IPv6 address that carries one.
	Embedded netip.Addr
	Reason   string // "loopback", "private", ...
}

func (e *BlockedError) Error() string {
	if !e.Addr.IsValid() {
		return fmt.Sprintf("%s is a %s", e.Host, e.Reason)
	}
	what := e.Addr.String()
	if e.Host != "" {
		what = e.Host
		if ip, err := netip.ParseAddr(e.Host); err != nil || ip.Unmap().WithZone("") != e.Addr {
			what += " (" + e.Addr.String() + ")"
		}
	}
	if e.Embedded.IsValid() {
		return fmt.Sprintf("%s carries the embedded IPv4 address %s, a %s address", what, e.Embedded, e.Reason)
	}
	return fmt.Sprintf("%s is a %s address", what, e.Reason)
}

// Blocked returns the *BlockedError inside err, if any.
func Blocked(err error) (*BlockedError, bool) {
	var be *BlockedError
	ok := errors.As(err, &be)
	return be, ok
}

// metadata are the addresses of cloud instance metadata services that
// fall in ranges refused anyway; naming them makes the refusal plain.
var metadata = map[netip.Addr]string{
	netip.MustParseAddr("169.254.169.254"): "AWS, Azure, GCP, OpenStack",
	netip.MustParseAddr("169.254.170.2"):   "AWS ECS",
	netip.MustParseAddr("fd00:ec2::254"):   "AWS",
	netip.MustParseAddr("100.100.100.200"): "Alibaba Cloud",
	netip.MustParseAddr("192.0.0.192"):     "Oracle Cloud",
}

// special lists ranges that are not publicly routable beyond what netip's
// predicates cover.
var special = []struct {
	p      netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "\"this network\""},
	{netip.MustParsePrefix("100.64.0.0/10"), "shared (carrier-grade NAT)"},
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved (IETF protocol)"},
	{netip.MustParsePrefix("192.0.2.0/24"), "documentation"},
	{netip.MustParsePrefix("198.51.100.0/24"), "documentation"},
	{netip.MustParsePrefix("203.0.113.0/24"), "documentation"},
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved (benchmarking)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
	{netip.MustParsePrefix("2001:db8::/32"), "documentation"},
	{netip.MustParsePrefix("2001:2::/48"), "reserved (benchmarking)"},
	{netip.MustParsePrefix("3fff::/20"), "documentation"},
}

// IPv6 ranges that carry an IPv4 address inside: a host that routes them
// (a NAT64 gateway, a 6to4 relay, a Teredo tunnel, an old kernel for
// IPv4-compatible addresses) delivers to that IPv4 address.
var (
	v4Compatible  = netip.MustParsePrefix("::/96")
	v4Translated  = netip.MustParsePrefix("::ffff:0:0:0/96")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local    = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour     = netip.MustParsePrefix("2002::/16")
	teredo        = netip.MustParsePrefix("2001::/32")
	broadcastAddr = netip.AddrFrom4([4]byte{255, 255, 255, 255})
)

// Check returns a *BlockedError when ip is not a public unicast address.
// IPv4 addresses embedded in IPv6 (mapped, compatible, translated, NAT64,
// 6to4, Teredo) are checked too.
func Check(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	if reason := classify(ip); reason != "" {
		return &BlockedError{Addr: ip, Reason: reason}
	}
	for _, v4 := range embedded(ip) {
		if reason := classify(v4); reason != "" {
			return &BlockedError{Addr: ip, Embedded: v4, Reason: reason}
		}
	}
	return nil
}

// embedded returns the IPv4 addresses an IPv6 address may deliver to.
func embedded(ip netip.Addr) []netip.Addr {
	if !ip.Is6() {
		return nil
	}
	b := ip.As16()
	v4 := func(i, j, k, l int) netip.Addr { return netip.AddrFrom4([4]byte{b[i], b[j], b[k], b[l]}) }
	switch {
	case v4Compatible.Contains(ip), v4Translated.Contains(ip), nat64.Contains(ip):
		return []netip.Addr{v4(12, 13, 14, 15)}
	case nat64Local.Contains(ip):
		// The local-use prefix may be cut at /48, /56, /64 or /96, and
		// which one a translator uses cannot be known from outside: every
		// reading must be public. Byte 8 is always zero, so it is skipped.
		return []netip.Addr{v4(6, 7, 9, 10), v4(7, 9, 10, 11), v4(9, 10, 11, 12), v4(12, 13, 14, 15)}
	case sixToFour.Contains(ip):
		return []netip.Addr{v4(2, 3, 4, 5)}
	case teredo.Contains(ip):
		// The server, then the client, whose address is stored inverted.
		client := netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
		return []netip.Addr{v4(4, 5, 6, 7), client}
	}
	return nil
}

func classify(ip netip.Addr) string {
	if where, ok := metadata[ip]; ok {
		return "cloud metadata (" + where + ")"
	}
	switch {
	case !ip.IsValid():
		return "invalid"
	case ip.IsLoopback():
		return "loopback"
	case ip.IsUnspecified():
		return "unspecified"
	case ip.IsPrivate():
		return "private"
	case ip.IsLinkLocalUnicast():
		return "link-local"
	case ip.IsMulticast(), ip.IsLinkLocalMulticast(), ip.IsInterfaceLocalMulticast():
		return "multicast"
	case ip == broadcastAddr:
		return "broadcast"
	}
	for _, s := range special {
		if s.p.Contains(ip) {
			return s.reason
		}
	}
	return ""
}

// Control is a net.Dialer Control function that refuses connections to
// addresses Check refuses. It sees the resolved address of every
// connection attempt.
func Control(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("netguard: %w", err)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("netguard: dialled address %q is not an IP address: %w", host, err)
	}
	return Check(ip)
}
