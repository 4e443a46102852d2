package builtin

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/forgehq/forge/builtin/internal/netguard"
)

// FuzzParseURL: any string as WebFetch's url never panics, and what is
// accepted is http(s), has a host, carries no credentials, and is no
// spelling of a private address (the seeds hold every spelling the guard
// knows).
func FuzzParseURL(f *testing.F) {
	for _, s := range append(privateSpellingURLs(), "https://go.dev/", "http://u:p@x.test/", "ftp://x", "http://[::1]:80/", "//x", "http://%41", "\x00") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parseURL(s, netguard.Policy{})
		if err != nil {
			return
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
			t.Fatalf("accepted %q as %#v", s, u)
		}
		if ip, _, err := netguard.ParseHost(u.Hostname()); err != nil || (ip.IsValid() && netguard.Check(ip) != nil) {
			t.Fatalf("accepted %q, whose host %q is %v (%v)", s, u.Hostname(), ip, err)
		}
	})
}

// FuzzDomainFilter: any domain lists and result URL never panic; a blocked
// host is never allowed.
func FuzzDomainFilter(f *testing.F) {
	f.Add("https://pkg.go.dev/fmt", "go.dev", "example.com")
	f.Add("::", "", "*.x")
	f.Fuzz(func(t *testing.T, raw, allowed, blocked string) {
		al, err1 := domainList(strings.Split(allowed, ","))
		bl, err2 := domainList(strings.Split(blocked, ","))
		if err1 != nil || err2 != nil {
			return
		}
		if domainAllowed(raw, al, bl) {
			u, _ := url.Parse(raw)
			host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
			for _, d := range bl {
				if host == d {
					t.Fatalf("%q allowed although %q is blocked", raw, d)
				}
			}
		}
	})
}

// FuzzFilterLines: BashOutput's filter keeps only matching lines, in order.
func FuzzFilterLines(f *testing.F) {
	f.Add("ok 1\nERROR a\nok 2\r\nERROR b", "^ERROR")
	f.Add("", "(")
	f.Fuzz(func(t *testing.T, text, pattern string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		out := filterLines(text, re)
		if len(out) > len(text) {
			t.Fatalf("filter grew the text")
		}
		for line := range strings.Lines(out) {
			if !re.MatchString(strings.TrimRight(line, "\r\n")) {
				t.Fatalf("kept non-matching line %q", line)
			}
		}
	})
}
