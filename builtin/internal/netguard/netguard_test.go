package netguard

import (
	"net/netip"
	"strings"
	"testing"
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
		{"169.254.169.254", "link-local"},
		{"fe80::1", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"255.255.255.255", "broadcast"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"0.1.2.3", "this network"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.0.0.1", "private"},
		{"64:ff9b::a00:1", "embedded IPv4 10.0.0.1"},
		{"2002:7f00:1::", "embedded IPv4 127.0.0.1"},
		{"2002:808:808::", ""},
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
	if err := Control("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("public dial refused: %v", err)
	}
	if err := Control("tcp", "no-port", nil); err == nil {
		t.Error("malformed address accepted")
	}
	if err := CheckHost("example.com"); err != nil {
		t.Errorf("host names are checked at dial time, got %v", err)
	}
	if err := CheckHost("192.168.0.1"); err == nil {
		t.Error("private literal accepted")
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "::1", "2002:7f00:1::", "64:ff9b::a00:1", "8.8.8.8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ip, err := netip.ParseAddr(s)
		if err != nil {
			return
		}
		_ = Check(ip)
	})
}
