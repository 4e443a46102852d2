package netguard

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/idna"
)

func TestCheck(t *testing.T) {
	cases := []struct {
		ip     string
		reason string // "" = allowed
	}{
		{"8.8.8.8", ""},
		{"2606:4700:4700::1111", ""},
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"::1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"192.168.1.1", "private"},
		{"fd00::1", "private"},
		{"169.254.169.254", "cloud metadata"},
		{"169.254.1.1", "link-local"},
		{"fe80::1", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"255.255.255.255", "broadcast"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"100.100.100.200", "cloud metadata"},
		{"fd00:ec2::254", "cloud metadata"},
		{"192.0.0.192", "cloud metadata"},
		{"0.1.2.3", "this network"},
		{"192.0.2.1", "documentation"},
		{"2001:db8::1", "documentation"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.0.0.1", "private"},
		// IPv4-compatible (deprecated, but a kernel may still route it).
		{"::127.0.0.1", "embedded IPv4 address 127.0.0.1"},
		{"::a00:1", "embedded IPv4 address 10.0.0.1"},
		// IPv4-translated.
		{"::ffff:0:7f00:1", "embedded IPv4 address 127.0.0.1"},
		// NAT64, well-known prefix.
		{"64:ff9b::a00:1", "embedded IPv4 address 10.0.0.1"},
		{"64:ff9b::169.254.169.254", "embedded IPv4 address 169.254.169.254"},
		{"64:ff9b::808:808", ""},
		// NAT64, local-use prefix: the address may sit at any of the
		// prefix lengths a translator may use; /96 and /48 here.
		{"64:ff9b:1::7f00:1", "embedded IPv4 address"},
		{"64:ff9b:1:7f00:0:100::", "embedded IPv4 address 127.0.0.1"},
		// 6to4.
		{"2002:7f00:1::", "embedded IPv4 address 127.0.0.1"},
		{"2002:a9fe:a9fe::1", "embedded IPv4 address 169.254.169.254"},
		{"2002:808:808::", ""},
		// Teredo: the client's address is the last 32 bits, inverted.
		{"2001:0:4136:e378:8000:63bf:80ff:fffe", "embedded IPv4 address 127.0.0.1"},
		{"2001:0:4136:e378:8000:63bf:f5ff:fffe", "embedded IPv4 address 10.0.0.1"},
		{"2001:0:4136:e378:8000:63bf:f7f7:f7f7", ""},
		{"fec0::1", "site-local"},
		{"240.0.0.1", "reserved"},
	}
	for _, c := range cases {
		err := Check(netip.MustParseAddr(c.ip))
		switch {
		case c.reason == "" && err != nil:
			t.Errorf("%s refused: %v", c.ip, err)
		case c.reason != "" && (err == nil || !strings.Contains(err.Error(), c.reason)):
			t.Errorf("%s: got %v, want a refusal mentioning %q", c.ip, err, c.reason)
		}
	}
}

func TestControl(t *testing.T) {
	if err := Control("tcp", "127.0.0.1:80", nil); err == nil {
		t.Error("loopback dial allowed")
	}
	if _, ok := Blocked(Control("tcp6", "[fe80::1%eth0]:443", nil)); !ok {
		t.Error("link-local with zone not refused as *BlockedError")
	}
	if _, ok := Blocked(Control("tcp6", "[::7f00:1]:443", nil)); !ok {
		t.Error("IPv4-compatible loopback dial allowed")
	}
	if err := Control("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("public dial refused: %v", err)
	}
	if err := Control("tcp", "no-port", nil); err == nil {
		t.Error("malformed address accepted")
	}
}

// blockedHosts are URL hosts (as url.URL.Hostname returns them) that name a
// blocked address in some spelling, with what the refusal must mention.
var blockedHosts = []struct{ host, reason string }{
	{"127.0.0.1", "loopback"},
	{"0177.0.0.1", "loopback"},
	{"0177.0.0.01", "loopback"},
	{"127.1", "loopback"},
	{"127.0.1", "loopback"},
	{"2130706433", "loopback"},
	{"0x7f000001", "loopback"},
	{"0X7F000001", "loopback"},
	{"0x7f.1", "loopback"},
	{"0x7f.0.0.0x1", "loopback"},
	{"017700000001", "loopback"},
	{"127.000.000.001", "loopback"},
	{"127.0.0.1.", "loopback"},
	{"１２７.０.０.１", "loopback"},
	{"127。0。0。1", "loopback"},
	{"0", "unspecified"},
	{"0x", "unspecified"},
	{"0.0.0.0", "unspecified"},
	{"::", "unspecified"},
	{"::1", "loopback"},
	{"0:0:0:0:0:0:0:1", "loopback"},
	{"::ffff:127.0.0.1", "loopback"},
	{"::ffff:7f00:1", "loopback"},
	{"0:0:0:0:0:ffff:127.0.0.1", "loopback"},
	{"::127.0.0.1", "embedded IPv4 address 127.0.0.1"},
	{"::ffff:0:127.0.0.1", "embedded IPv4 address 127.0.0.1"},
	{"64:ff9b::127.0.0.1", "embedded IPv4 address 127.0.0.1"},
	{"64:ff9b::a9fe:a9fe", "embedded IPv4 address 169.254.169.254"},
	{"64:ff9b:1::a00:1", "embedded IPv4 address"},
	{"2002:7f00:1::", "embedded IPv4 address 127.0.0.1"},
	{"2001:0:4136:e378:8000:63bf:80ff:fffe", "embedded IPv4 address 127.0.0.1"},
	{"fe80::1%eth0", "link-local"},
	{"169.254.169.254", "cloud metadata"},
	{"0xa9fea9fe", "cloud metadata"},
	{"2852039166", "cloud metadata"},
	{"0251.0376.0251.0376", "cloud metadata"},
	{"169.254.43518", "cloud metadata"},
	{"fd00:ec2::254", "cloud metadata"},
	{"100.100.100.200", "cloud metadata"},
	{"100.64.0.1", "carrier-grade NAT"},
	{"10.0.0.1", "private"},
	{"012.0.0.1", "private"},
	{"172.16.0.1", "private"},
	{"192.168.0.1", "private"},
	{"3232235521", "private"},
	{"fc00::1", "private"},
	{"224.0.0.1", "multicast"},
	{"localhost", "local name"},
	{"LOCALHOST", "local name"},
	{"localhost.", "local name"},
	{"ｌｏｃａｌｈｏｓｔ", "local name"},
	{"api.localhost", "local name"},
	{"printer.local", "local name"},
	{"router.home.arpa", "local name"},
	{"metadata.google.internal", "cloud metadata"},
	{"METADATA.GOOGLE.INTERNAL.", "cloud metadata"},
	{"metadata.goog", "cloud metadata"},
	{"anything.internal", "local name"},
	{"instance-data", "cloud metadata"},
}

func TestCheckHostRefusesEverySpelling(t *testing.T) {
	for _, c := range blockedHosts {
		err := CheckHost(c.host)
		be, ok := Blocked(err)
		if !ok || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%q: got %v, want a *BlockedError mentioning %q", c.host, err, c.reason)
			continue
		}
		if be.Host != c.host {
			t.Errorf("%q: the error names host %q", c.host, be.Host)
		}
	}
}

func TestCheckHostAllowsPublic(t *testing.T) {
	for _, h := range []string{"example.com", "go.dev", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "bücher.example", "xn--bcher-kva.example", "123.example", "a.b.c.d.e", "0x7f.example"} {
		if err := CheckHost(h); err != nil {
			t.Errorf("%q refused: %v", h, err)
		}
	}
}

// Hosts that look like an IPv4 address are refused when they are not a
// valid one, or when they are a public address in an unusual spelling that
// resolvers disagree about.
func TestCheckHostOddNumbers(t *testing.T) {
	cases := map[string]string{
		"134744072":     "write it as 8.8.8.8",
		"0x08080808":    "write it as 8.8.8.8",
		"8.8.2056":      "write it as 8.8.8.8",
		"1.2.3.4.5":     "not a valid IPv4 address",
		"256.1.1.1":     "not a valid IPv4 address",
		"1.2.3.256":     "not a valid IPv4 address",
		"4294967296":    "not a valid IPv4 address",
		"0x1g.1":        "not a valid IPv4 address",
		"08.1.1.1":      "not a valid IPv4 address",
		"example.123":   "not a valid IPv4 address",
		"example.0x1f.": "not a valid IPv4 address",
	}
	for host, want := range cases {
		err := CheckHost(host)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", host, err, want)
		}
		if _, blocked := Blocked(err); blocked {
			t.Errorf("%q: a spelling problem reported as a blocked address: %v", host, err)
		}
		if !errors.Is(err, ErrHostSpelling) {
			t.Errorf("%q: %v does not wrap ErrHostSpelling", host, err)
		}
	}
}

func TestParseHost(t *testing.T) {
	cases := []struct {
		host string
		addr string // "" = a name
		std  bool
	}{
		{"127.0.0.1", "127.0.0.1", true},
		{"127.1", "127.0.0.1", false},
		{"0x7f000001", "127.0.0.1", false},
		{"0177.0.0.1", "127.0.0.1", false},
		{"1.2.3.4.", "1.2.3.4", false},
		{"::1", "::1", true},
		{"fe80::1%eth0", "fe80::1%eth0", true},
		{"example.com", "", true},
		{"１２７.０.０.１", "127.0.0.1", false},
	}
	for _, c := range cases {
		addr, std, err := ParseHost(c.host)
		if err != nil {
			t.Errorf("%q: %v", c.host, err)
			continue
		}
		got := ""
		if addr.IsValid() {
			got = addr.String()
		}
		if got != c.addr || std != c.std {
			t.Errorf("%q = %q, standard %v; want %q, %v", c.host, got, std, c.addr, c.std)
		}
	}
}

// atonOracle reads host the way the C library's inet_aton does (one to four
// numbers, each decimal, octal with a leading 0 or hex with 0x, the last
// filling the remaining bytes), independently of ParseHost, with strconv
// (whose own extras, 0b, 0o and underscores, are turned away).
func atonOracle(host string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		lp := strings.ToLower(p)
		if strings.Contains(p, "_") || strings.HasPrefix(lp, "0b") || strings.HasPrefix(lp, "0o") {
			return netip.Addr{}, false
		}
		n, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return netip.Addr{}, false
			}
			v |= n << (8 * (3 - i))
		} else {
			if n >= 1<<(8*(4-i)) {
				return netip.Addr{}, false
			}
			v |= n
		}
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// FuzzCheckHost: any host never panics, and a host CheckHost lets through
// names no blocked address, however the network stack reads it: as an IP
// literal, as an inet_aton number, after IDNA mapping.
func FuzzCheckHost(f *testing.F) {
	for _, c := range blockedHosts {
		f.Add(c.host)
	}
	for _, s := range []string{"example.com", "8.8.8.8", "134744072", "1.2.3.4.5", "0x1g.1", "[::1]", "", ".", "..", "%", "fe80::1%25eth0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		if CheckHost(host) != nil {
			return
		}
		forms := []string{host}
		if a, err := idna.Lookup.ToASCII(host); err == nil {
			forms = append(forms, a)
		}
		for _, h := range forms {
			if ip, err := netip.ParseAddr(h); err == nil && Check(ip) != nil {
				t.Fatalf("%q allowed, but it is the blocked address %s", host, ip)
			}
			if ip, ok := atonOracle(h); ok && Check(ip) != nil {
				t.Fatalf("%q allowed, but inet_aton reads it as the blocked address %s", host, ip)
			}
		}
	})
}
