package sandbox

import (
	"strings"
	"testing"
)

func TestHostSet(t *testing.T) {
	s := newHostSet([]string{"proxy.golang.org", "*.npmjs.org", "10.0.0.1", "[::1]", "Registry.Example."})
	for host, want := range map[string]bool{
		"proxy.golang.org":   true,
		"PROXY.golang.org.":  true,
		"golang.org":         false,
		"x.proxy.golang.org": false,
		"registry.npmjs.org": true,
		"a.b.npmjs.org":      true,
		"npmjs.org":          false,
		"evilnpmjs.org":      false,
		"10.0.0.1":           true,
		"10.0.0.2":           false,
		"::1":                true,
		"[::1]":              true,
		"registry.example":   true,
		"":                   false,
		"1.npmjs.org":        true,
	} {
		if got := s.allows(host); got != want {
			t.Errorf("allows(%q) = %v, want %v", host, got, want)
		}
	}
	// An address never passes through a wildcard.
	if newHostSet([]string{"*.0.0.1"}).allows("10.0.0.1") {
		t.Error("an address passed through a wildcard")
	}
}

func TestCheckHostPattern(t *testing.T) {
	for p, bad := range map[string]string{
		"proxy.golang.org":  "",
		"*.npmjs.org":       "",
		"::1":               "",
		"[2001:db8::1]":     "",
		"":                  "empty",
		"https://go.dev":    "not a host name",
		"go.dev/path":       "not a host name",
		"go.dev:443":        "without a port",
		"a.*.org":           "not a host name",
		"user@host":         "not a host name",
		"two words":         "not a host name",
		"**.x":              "not a host name",
		"*.":                "not a host name",
		"proxy.golang.org.": "",
	} {
		err := checkHostPattern(p)
		switch {
		case bad == "" && err != nil:
			t.Errorf("%q: %v", p, err)
		case bad != "" && (err == nil || !strings.Contains(err.Error(), bad)):
			t.Errorf("%q: %v, want an error saying %q", p, err, bad)
		}
	}
}

// FuzzHostSet: no pattern or host crashes the matcher, and an address
// passes only when it is listed as written.
func FuzzHostSet(f *testing.F) {
	for _, seed := range [][2]string{{"*.npmjs.org", "registry.npmjs.org"}, {"10.0.0.1", "10.0.0.1"}, {"[::1]", "::1"},
		{"go.dev", "GO.DEV."}, {"*.", "x."}, {"", ""}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, host string) {
		_ = checkHostPattern(pattern)
		s := newHostSet([]string{pattern})
		if s.allows(host) && !strings.HasPrefix(normalHost(pattern), "*.") && normalHost(pattern) != normalHost(host) {
			t.Errorf("%q lets %q through", pattern, host)
		}
	})
}
