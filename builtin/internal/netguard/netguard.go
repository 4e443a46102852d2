// Package netguard keeps web tools away from private networks: a URL given by
// a model must not reach the machine's loopback services, the local network
// or a cloud metadata endpoint. The check runs on the address actually
// dialled (after DNS resolution, on every redirect hop), so a name that
// resolves to a private address, or re-resolves to one (DNS rebinding), is
// refused too.
package netguard

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// BlockedError says that an address was refused and why.
type BlockedError struct {
	Addr   netip.Addr
	Reason string // "loopback", "private", ...
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%s is a %s address", e.Addr, e.Reason)
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
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved (benchmarking)"},
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},
	{netip.MustParsePrefix("fec0::/10"), "site-local"},
	{netip.MustParsePrefix("100::/64"), "discard-only"},
}

// Prefixes of IPv6 ranges that embed an IPv4 address.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// Check returns a *BlockedError when ip is not a public unicast address.
// IPv4 addresses embedded in IPv6 (mapped, NAT64, 6to4) are checked too.
func Check(ip netip.Addr) error {
	ip = ip.Unmap().WithZone("")
	if reason := classify(ip); reason != "" {
		return &BlockedError{Addr: ip, Reason: reason}
	}
	if ip.Is6() {
		b := ip.As16()
		var v4 netip.Addr
		switch {
		case nat64.Contains(ip):
			v4 = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		case sixToFour.Contains(ip):
			v4 = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		}
		if v4.IsValid() {
			if reason := classify(v4); reason != "" {
				return &BlockedError{Addr: ip, Reason: reason + " (embedded IPv4 " + v4.String() + ")"}
			}
		}
	}
	return nil
}

func classify(ip netip.Addr) string {
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
	case ip.Is4() && ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
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

// NewTransport returns an HTTP transport for fetching URLs chosen by a model:
// no proxy from the environment (a proxy would hide the real destination from
// the check), bounded connection and header times, and, unless allowPrivate,
// the Control check on every dial.
func NewTransport(allowPrivate bool, timeout time.Duration) *http.Transport {
	d := &net.Dialer{Timeout: min(timeout, 30*time.Second), KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = Control
	}
	return &http.Transport{
		Proxy:               nil,
		DialContext:         d.DialContext,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        10,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		// The caller's context carries the call's deadline; this only
		// guards against a server that never answers a reused connection.
		ResponseHeaderTimeout: timeout + 5*time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// Blocked returns the *BlockedError inside err, if any.
func Blocked(err error) (*BlockedError, bool) {
	var be *BlockedError
	ok := errors.As(err, &be)
	return be, ok
}

// CheckHost checks a URL host that is an IP literal before any connection is
// made, for a clearer message; host names are checked at dial time.
func CheckHost(host string) error {
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return nil
	}
	return Check(ip)
}
