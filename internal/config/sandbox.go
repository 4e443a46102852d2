package config

import (
	"errors"
	"fmt"
	"net/netip"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"unicode"
)

// Sandbox is the sandbox section: how the commands the agent runs are
// confined.
type Sandbox struct {
	// Mode (sandbox.mode, --sandbox, FORGE_SANDBOX_MODE; `sandbox: off`
	// for short): workspace-write (the default), read-only or off.
	Mode string
	// Writable (sandbox.writable) are directories a sandboxed command may
	// write in besides the project, the temporary directory and Caches.
	Writable []string
	// Caches (sandbox.caches) are the toolchains' caches a sandboxed
	// command may write in (GOCACHE, ~/.npm, ~/.cargo/registry, ...).
	Caches []string
	// Network is sandbox.network.
	Network SandboxNetwork
}

// SandboxNetwork is sandbox.network: what a sandboxed command may reach.
type SandboxNetwork struct {
	// Allow (sandbox.network.allow) are the hosts reachable through
	// forge's proxy (a name, or *.example.com for its subdomains); none
	// means no network.
	Allow []string
}

// sandboxModes are the values sandbox.mode accepts, the default first.
var sandboxModes = []string{"workspace-write", "read-only", "off"}

// SandboxModes returns the values sandbox.mode accepts, the default first.
func SandboxModes() []string { return slices.Clone(sandboxModes) }

// groupScalars are the groups a file may give a single value, meaning
// one of their settings: `sandbox: off` is sandbox.mode.
var groupScalars = map[string]string{"sandbox": "sandbox.mode"}

// sandboxSettings are the keys of the sandbox section.
var sandboxSettings = []setting{
	{key: "sandbox.mode", flag: "sandbox", get: func(c Config) string { return c.Sandbox.Mode },
		apply: func(c *Config, v any, _ resolver) error {
			if b, ok := v.(bool); ok && !b {
				v = "off" // sandbox: false
			}
			s, err := oneOf(v, sandboxModes...)
			if err == nil {
				c.Sandbox.Mode = s
			}
			return err
		}},
	{key: "sandbox.writable", get: func(c Config) string { return joinList(c.Sandbox.Writable) },
		apply: func(c *Config, v any, r resolver) error {
			return setPaths(&c.Sandbox.Writable, v, r)
		}},
	{key: "sandbox.caches", get: func(c Config) string { return joinList(c.Sandbox.Caches) },
		apply: func(c *Config, v any, r resolver) error {
			return setPaths(&c.Sandbox.Caches, v, r)
		}},
	{key: "sandbox.network.allow", get: func(c Config) string { return strings.Join(c.Sandbox.Network.Allow, ",") },
		apply: func(c *Config, v any, _ resolver) error {
			hosts, err := toHosts(v)
			if err == nil {
				c.Sandbox.Network.Allow = hosts
			}
			return err
		}},
}

// toHosts reads a list of host names (a string splits at commas and
// blanks): proxy.golang.org, *.example.com, an IP address; never a URL
// or a port.
func toHosts(v any) ([]string, error) {
	var l []string
	if s, ok := v.(string); ok {
		l = strings.FieldsFunc(s, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
	} else {
		var err error
		if l, err = toList(v); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(l))
	for _, h := range l {
		h = strings.ToLower(strings.TrimSpace(h))
		if err := checkHost(h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// checkHost refuses what cannot name a host.
func checkHost(h string) error {
	name := strings.TrimPrefix(h, "*.")
	if _, err := netip.ParseAddr(strings.Trim(name, "[]")); err == nil {
		return nil
	}
	switch {
	case name == "":
		return errors.New("an empty host name")
	case strings.Contains(name, "://") || strings.ContainsAny(name, "/*?@:[] \t"):
		return fmt.Errorf("%q is not a host name: write proxy.golang.org, or *.example.com for its subdomains (no scheme, path or port)", h)
	}
	return nil
}

// defaultCaches are the places where the common toolchains keep what
// they download and build, as their variables or defaults put them, so
// that go test, npm test, cargo test and pytest work in the sandbox.
func defaultCaches(env func(string) (string, bool)) []string {
	get := func(name string) string {
		v, _ := env(name)
		if !filepath.IsAbs(v) {
			return ""
		}
		return v
	}
	home := get("HOME")
	var out []string
	add := func(paths ...string) {
		for _, p := range paths {
			if p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	inHome := func(rel ...string) string {
		if home == "" {
			return ""
		}
		return filepath.Join(append([]string{home}, rel...)...)
	}
	cache := get("XDG_CACHE_HOME")
	if cache == "" {
		cache = inHome(".cache")
	}
	add(cache, get("GOCACHE"), get("GOMODCACHE"))
	if runtime.GOOS == "darwin" {
		add(inHome("Library", "Caches"))
	}
	if gopath := get("GOPATH"); gopath != "" {
		add(filepath.Join(gopath, "pkg", "mod"))
	} else {
		add(inHome("go", "pkg", "mod"))
	}
	if cargo := get("CARGO_HOME"); cargo != "" {
		add(filepath.Join(cargo, "registry"), filepath.Join(cargo, "git"))
	} else {
		add(inHome(".cargo", "registry"), inHome(".cargo", "git"))
	}
	add(get("npm_config_cache"), inHome(".npm"), inHome(".pnpm-store"), inHome(".yarn"), inHome(".bun", "install", "cache"),
		get("PIP_CACHE_DIR"), get("UV_CACHE_DIR"), inHome(".m2", "repository"), inHome(".gradle", "caches"),
		inHome(".nuget", "packages"))
	return out
}
