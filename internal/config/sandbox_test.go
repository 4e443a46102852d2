package config

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSandboxSettings: the sandbox section in its forms: a mapping, a
// nested network.allow, the scalar `sandbox: off`, the environment and
// the flag.
func TestSandboxSettings(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  map[string]string
		flag string
		get  func(Config) any
		want any
	}{
		{"default mode", "", nil, "", func(c Config) any { return c.Sandbox.Mode }, "workspace-write"},
		{"mode", "sandbox:\n  mode: read-only\n", nil, "", func(c Config) any { return c.Sandbox.Mode }, "read-only"},
		{"scalar off", "sandbox: off\n", nil, "", func(c Config) any { return c.Sandbox.Mode }, "off"},
		{"scalar false", "sandbox: false\n", nil, "", func(c Config) any { return c.Sandbox.Mode }, "off"},
		{"flat key", "sandbox.mode: read-only\n", nil, "", func(c Config) any { return c.Sandbox.Mode }, "read-only"},
		{"flag", "sandbox: off\n", nil, "--sandbox=read-only", func(c Config) any { return c.Sandbox.Mode }, "read-only"},
		{"environment", "", map[string]string{"FORGE_SANDBOX_MODE": "off"}, "", func(c Config) any { return c.Sandbox.Mode }, "off"},
		{"network allow nested", "sandbox:\n  network:\n    allow: [proxy.golang.org, \"*.NPMjs.org\"]\n", nil, "",
			func(c Config) any { return c.Sandbox.Network.Allow }, []string{"proxy.golang.org", "*.npmjs.org"}},
		{"network allow inline", "sandbox: {network: {allow: [go.dev]}}\n", nil, "",
			func(c Config) any { return c.Sandbox.Network.Allow }, []string{"go.dev"}},
		{"network allow from the environment", "", map[string]string{"FORGE_SANDBOX_NETWORK_ALLOW": "go.dev, pypi.org"}, "",
			func(c Config) any { return c.Sandbox.Network.Allow }, []string{"go.dev", "pypi.org"}},
		{"an IPv6 address", "sandbox: {network: {allow: [\"::1\"]}}\n", nil, "",
			func(c Config) any { return c.Sandbox.Network.Allow }, []string{"::1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			for k, v := range tt.env {
				f.env[k] = v
			}
			var flags []string
			if tt.flag != "" {
				flags = append(flags, tt.flag)
			}
			c := f.load(f.write("c.yaml", tt.file), flags...)
			if got := tt.get(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
			if len(c.Warnings) != 0 {
				t.Errorf("warnings %q", c.Warnings)
			}
		})
	}
	f := newFixture(t)
	c := f.load(f.write("c.yaml", "sandbox:\n  writable: [~/data, out]\n"))
	if want := []string{filepath.Join(f.home, "data"), filepath.Join(f.cwd, "out")}; !slices.Equal(c.Sandbox.Writable, want) {
		t.Errorf("writable = %q, want %q", c.Sandbox.Writable, want)
	}
	c = f.load(f.write("c.yaml", "sandbox:\n  netwrok: {allow: [a]}\n"))
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], `"sandbox.netwrok" (did you mean "sandbox.network`) {
		t.Errorf("a misspelt sandbox key: %q", c.Warnings)
	}
}

// TestSandboxDefaultCaches: the toolchains' caches follow their
// variables, and nothing is listed from a relative value.
func TestSandboxDefaultCaches(t *testing.T) {
	env := map[string]string{"HOME": "/h", "GOCACHE": "/gc", "GOPATH": "/gp", "CARGO_HOME": "/cargo", "XDG_CACHE_HOME": "rel"}
	got := defaultCaches(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	for _, want := range []string{"/h/.cache", "/gc", "/gp/pkg/mod", "/cargo/registry", "/cargo/git", "/h/.npm"} {
		if !slices.Contains(got, want) {
			t.Errorf("caches %q lack %s", got, want)
		}
	}
	if slices.Contains(got, "rel") || slices.Contains(got, "/h/go/pkg/mod") {
		t.Errorf("caches %q hold a relative or overridden place", got)
	}
}

// TestSandboxProject: an untrusted project may confine more (read-only,
// fewer hosts or paths) and never less (off, another path or host).
func TestSandboxProject(t *testing.T) {
	for _, tt := range []struct {
		name, user, project string
		ignored             bool
		check               func(Config) bool
	}{
		{"read-only", "", "sandbox: read-only", false, func(c Config) bool { return c.Sandbox.Mode == "read-only" }},
		{"fewer hosts", "sandbox: {network: {allow: [a.org, b.org]}}", "sandbox: {network: {allow: [a.org]}}", false,
			func(c Config) bool { return slices.Equal(c.Sandbox.Network.Allow, []string{"a.org"}) }},
		{"off", "", "sandbox: off", true, func(c Config) bool { return c.Sandbox.Mode == "workspace-write" }},
		{"workspace under read-only", "sandbox: read-only", "sandbox: {mode: workspace-write}", true,
			func(c Config) bool { return c.Sandbox.Mode == "read-only" }},
		{"another host", "", "sandbox: {network: {allow: [evil.example]}}", true,
			func(c Config) bool { return len(c.Sandbox.Network.Allow) == 0 }},
		{"another writable path", "", "sandbox: {writable: [/]}", true, func(c Config) bool { return len(c.Sandbox.Writable) == 0 }},
		{"another cache", "", "sandbox: {caches: [/etc]}", true, func(c Config) bool { return !slices.Contains(c.Sandbox.Caches, "/etc") }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, user := projectFixture(t, tt.user+"\n", tt.project+"\n")
			c := f.loadTrusted(user, false)
			if !tt.check(c) {
				t.Errorf("%q over %q: %+v", tt.project, tt.user, c.Sandbox)
			}
			if got := len(c.Project.Ignored) == 1 && strings.HasPrefix(c.Project.Ignored[0], "sandbox."); got != tt.ignored {
				t.Errorf("ignored %q, want ignored=%v", c.Project.Ignored, tt.ignored)
			}
			if tt.ignored {
				if trusted := f.loadTrusted(user, true); tt.check(trusted) {
					t.Errorf("a trusted project's %q did not apply", tt.project)
				}
			}
		})
	}
}
