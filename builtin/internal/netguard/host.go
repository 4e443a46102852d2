package netguard

import (
	"errors"
	"fmt"
	"net/netip"
	"strings"

	"golang.org/x/net/idna"
)

// ErrHostSpelling is wrapped by CheckHost's errors about a host that looks
// like an IPv4 address but is not a valid one, or is one in a spelling that
// resolvers disagree about.
var ErrHostSpelling = errors.New("unusual host spelling")

// spellingError is an error about a host's spelling; its message is the
// whole explanation.
type spellingError struct{ msg string }

func (e *spellingError) Error() string        { return e.msg }
func (e *spellingError) Is(target error) bool { return target == ErrHostSpelling }

func spelling(format string, a ...any) error { return &spellingError{fmt.Sprintf(format, a...)} }

// localNames are host names, and suffixes of names, that never mean a
// public server: they resolve to this machine, the local network or a cloud
// metadata service. Dialling would refuse their addresses anyway; refusing
// the name says why before any lookup.
var localNames = []struct{ name, reason string }{
	{"metadata.google.internal", "cloud metadata service name"},
	{"metadata.goog", "cloud metadata service name"},
	{"metadata", "cloud metadata service name"},
	{"instance-data", "cloud metadata service name"},
	{"localhost", "local name"},
}

var localSuffixes = []string{".localhost", ".local", ".internal", ".home.arpa", ".lan", ".intranet"}

// normalHost is host as the HTTP client dials it: a non-ASCII name mapped by
// IDNA (full-width digits become ASCII ones), lower case, without a final
// dot.
func normalHost(host string) (string, error) {
	if !isASCII(host) {
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return "", spelling("%q is not a valid host name", host)
		}
		host = a
	}
	return strings.TrimSuffix(strings.ToLower(host), "."), nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// ParseHost returns the IP address a URL host (without brackets) stands
// for, in any spelling a browser or the C library's resolver accepts: IPv6,
// and IPv4 as one to four numbers, each decimal, octal (leading 0) or hex
// (0x), the last filling the remaining bytes (127.1, 2130706433,
// 0x7f000001, 0177.0.0.1). It returns the zero Addr for a host name.
// standard reports whether Go's resolver reads the host as the same
// address (dotted decimal IPv4 or IPv6); for other spellings it would look
// the host up in DNS, and the C resolver would not. A host whose last label
// is a number but that is not a valid address is an error, as in browsers.
func ParseHost(host string) (addr netip.Addr, standard bool, err error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, true, nil
	}
	name, err := normalHost(host)
	if err != nil {
		return netip.Addr{}, false, err
	}
	labels := strings.Split(name, ".")
	if !isNumber(labels[len(labels)-1]) {
		return netip.Addr{}, true, nil
	}
	ip, ok := parseIPv4(labels)
	if !ok {
		return netip.Addr{}, false, spelling("%q is not a valid IPv4 address", host)
	}
	return ip, false, nil
}

// isNumber reports whether a label is a decimal or a 0x number: a host
// ending in one is parsed as an IPv4 address.
func isNumber(label string) bool {
	if label == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(label, "0x"); ok {
		return strings.Trim(rest, "0123456789abcdef") == ""
	}
	return strings.Trim(label, "0123456789") == ""
}

// parseIPv4 reads one to four numeric labels as an IPv4 address.
func parseIPv4(labels []string) (netip.Addr, bool) {
	if len(labels) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, l := range labels {
		n, ok := parseNumber(l)
		if !ok {
			return netip.Addr{}, false
		}
		if i < len(labels)-1 {
			if n > 255 {
				return netip.Addr{}, false
			}
			v |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(4-i)) {
			return netip.Addr{}, false
		}
		v |= n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// parseNumber reads one label: 0x hex (0x alone is 0), leading-0 octal or
// decimal, at most 32 bits.
func parseNumber(s string) (uint64, bool) {
	base := uint64(10)
	switch {
	case strings.HasPrefix(s, "0x"):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, s = 8, s[1:]
	case s == "":
		return 0, false
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		var d uint64
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			d = uint64(c - '0')
		case 'a' <= c && c <= 'f':
			d = uint64(c-'a') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		n = n*base + d
		if n > 1<<32 {
			return 0, false
		}
	}
	return n, true
}

// CheckHost checks a URL host (url.URL.Hostname: no brackets, no port)
// before any connection: a *BlockedError for an address Check refuses, in
// any spelling ParseHost reads, and for names of local and metadata
// services; an error wrapping ErrHostSpelling for a numeric host that is no
// valid address or a public one spelt unusually. Other names pass: their
// addresses are checked when they are dialled.
func CheckHost(host string) error {
	ip, standard, err := ParseHost(host)
	if err != nil {
		return err
	}
	if ip.IsValid() {
		if err := Check(ip); err != nil {
			be, _ := Blocked(err)
			be.Host = host
			return be
		}
		if !standard {
			return spelling("%q is an unusual spelling of %s: write it as %s", host, ip, ip)
		}
		return nil
	}
	name, err := normalHost(host)
	if err != nil {
		return err
	}
	for _, l := range localNames {
		if name == l.name {
			return &BlockedError{Host: host, Reason: l.reason}
		}
	}
	for _, suffix := range localSuffixes {
		if strings.HasSuffix(name, suffix) {
			return &BlockedError{Host: host, Reason: "local name (" + suffix + ")"}
		}
	}
	return nil
}
