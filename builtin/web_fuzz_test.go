package builtin

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// FuzzParseURL: any string as WebFetch's url never panics, and what is
// accepted is http(s), has a host and carries no credentials.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"https://go.dev/", "http://u:p@x.test/", "ftp://x", "http://[::1]:80/", "http://127.0.0.1/", "//x", "http://%41", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parseURL(s, false)
		if err != nil {
			return
		}
		if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
			t.Fatalf("accepted %q as %#v", s, u)
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
