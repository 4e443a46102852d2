package config

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/render"
)

// badKey is every way one key can be given a value Load must refuse. The values are
// YAML written into template (where %s stands for the value), so a nested key is
// written inside its section.
type badKey struct {
	key      string // the key as the user reads it in the error
	template string // YAML with one %s; "" means "<key>: %s"
	// wrongType is a value of another type: a list for a string, a mapping for a
	// list, a word for a number or a boolean.
	wrongType string
	// outOfRange has the right type but no valid meaning: a negative size, an
	// unknown mode, a name that cannot be a variable's.
	outOfRange string
	// env is a bad FORGE_ value; "" when the key has no environment variable.
	env string
	// flag is a bad value for the key's flag; "" when it has no flag or its flag
	// is a boolean (pflag itself refuses a non-boolean there).
	flag string
	// mustName are the words the message must hold besides the source; nil means
	// the key itself.
	mustName []string
	// unsetHome runs the case without HOME, for the values that need it.
	unsetHome bool
}

// mcpServer, toolRate and the like place a value inside its section.
const (
	mcpServer   = "mcp:\n  servers:\n    x:\n      command: run\n      %s\n"
	mcpURL      = "mcp:\n  servers:\n    x:\n      url: http://localhost:1/mcp\n      %s\n"
	toolRate    = "tools:\n  Read:\n    rate: {%s}\n"
	permissions = "permissions:\n  %s\n"
	hookEntry   = "hooks:\n  PreToolUse:\n    - hooks: [{command: x}]\n      %s\n"
	hookCommand = "hooks:\n  PreToolUse:\n    - hooks: [{command: x, %s}]\n"
)

// badKeys covers every key forge reads: TestBadKeysCoverEveryKey fails when a key is
// added without a row here.
var badKeys = []badKey{
	{key: "working_dir", wrongType: "[a]", outOfRange: "nowhere", env: "nowhere", flag: "nowhere"},
	{key: "timeout", wrongType: "[1]", outOfRange: "-5", env: "banana", flag: "banana"},
	{key: "dry_run", wrongType: "[true]", outOfRange: "2", env: "maybe"},
	{key: "output", wrongType: "{a: json}", outOfRange: "xml", env: "yaml", flag: "xml"},
	{key: "log_level", wrongType: "[debug]", outOfRange: "verbose", env: "verbose", flag: "loud"},
	{key: "log_file", wrongType: "[a.log]", outOfRange: `"a\0b"`, env: "~/f.log", flag: "~/f.log", unsetHome: true},
	{key: "no_color", wrongType: "{a: 1}", outOfRange: "2", env: "sometimes"},
	{key: "width", wrongType: "wide", outOfRange: "3", env: "3", flag: "3"},
	{key: "max_output_size", wrongType: "[1]", outOfRange: "-5", env: "big"},
	{key: "history_file", wrongType: "{a: 1}", outOfRange: `"h\0"`, env: "~/h", unsetHome: true},
	{key: "sessions_dir", wrongType: "{a: 1}", outOfRange: `"s\0"`, env: "~/s", unsetHome: true},
	{key: "history_capacity", wrongType: "lots", outOfRange: "-1", env: "-1"},
	{key: "allowed_roots", wrongType: "{a: 1}", outOfRange: `["/a\0b"]`, env: "~/r", unsetHome: true},
	{key: "plugin_dirs", wrongType: "[[a]]", outOfRange: `["p\0"]`, env: "~/p", unsetHome: true},
	{key: "fail_fast", wrongType: "[1]", outOfRange: "3", env: "often"},
	{key: "provider", wrongType: "[openai]", outOfRange: "gemini", env: "gemini", flag: "gemini"},
	{key: "model", wrongType: "{name: gpt}", outOfRange: `"gpt 4"`, env: "gpt 4", flag: "a\tb"},
	{key: "base_url", wrongType: "[http://h]", outOfRange: "ftp://h", env: "localhost:11434", flag: "http://"},
	{key: "approval", wrongType: "[ask]", outOfRange: "always", env: "never", flag: "yes"},
	{key: "max_turns", wrongType: "many", outOfRange: "0", env: "abc", flag: "0"},
	{key: "loop_detection", wrongType: "[true]", outOfRange: "2", env: "maybe"},
	{key: "tool_format", wrongType: "{a: xml}", outOfRange: "json", env: "json", flag: "yaml"},
	{key: "api", wrongType: "{a: chat}", outOfRange: "completions", env: "legacy", flag: "grpc"},
	{key: "effort", wrongType: "{a: low}", outOfRange: "extreme", env: "max", flag: "ultra"},
	{key: "max_cost", wrongType: "[1]", outOfRange: "-1", env: "cheap", flag: "-0.5"},
	{key: "max_tokens", wrongType: "lots", outOfRange: "-1", env: "many", flag: "-1"},
	{key: "context_window", wrongType: "[1]", outOfRange: "10", env: "big", flag: "999"},
	{key: "max_answer_size", wrongType: "[1]", outOfRange: "100", env: "huge"},
	{key: "stream_idle_timeout", wrongType: "[1]", outOfRange: "0", env: "forever"},
	{key: "max_answer_time", wrongType: "[1]", outOfRange: "10s", env: "forever"},
	{key: "system_prompt", wrongType: "[p.md]", outOfRange: "missing.md", env: "missing.md", flag: "missing.md"},
	{key: "pass_env", wrongType: "{A: 1}", outOfRange: "[GOOD, 1BAD]", env: "BAD-NAME"},
	{key: "read.allow_outside", template: "read:\n  allow_outside: %s\n", wrongType: "[true]", outOfRange: "2", env: "perhaps"},

	{key: "sandbox.mode", template: "sandbox:\n  mode: %s\n", wrongType: "[off]", outOfRange: "sometimes", env: "never", flag: "loose"},
	{key: "sandbox.writable", template: "sandbox:\n  writable: %s\n", wrongType: "{a: 1}", outOfRange: `["/a\0b"]`, env: "~/w", unsetHome: true},
	{key: "sandbox.caches", template: "sandbox:\n  caches: %s\n", wrongType: "{a: 1}", outOfRange: `["~/c"]`, env: "~/c", unsetHome: true},
	{key: "sandbox.network.allow", template: "sandbox:\n  network:\n    allow: %s\n", wrongType: "{a: 1}",
		outOfRange: `["https://proxy.golang.org"]`, env: "go.dev:443"},

	{key: "read", wrongType: "[allow_outside]", outOfRange: "true"},
	{key: "sandbox", wrongType: "[off]", outOfRange: "maybe"},
	{key: "sandbox.network", template: "sandbox:\n  network: %s\n", wrongType: "[go.dev]", outOfRange: "5"},
	{key: "permissions", wrongType: "[Read]", outOfRange: "deny"},
	{key: "permissions.allow", template: permissions, wrongType: "allow: {Read: 1}", outOfRange: `allow: [Read, ""]`},
	{key: "permissions.deny", template: permissions, wrongType: "deny: [[Bash]]", outOfRange: `deny: ["  "]`},
	{key: "permissions.ask", template: permissions, wrongType: "ask: [[Bash]]", outOfRange: `ask: ["  "]`},
	{key: "permissions.credentials", template: permissions, wrongType: "credentials: ~/.ssh", outOfRange: `credentials: ["~/.x", " ! "]`},

	{key: "models", wrongType: "[gpt]", outOfRange: "5"},
	{key: "models.m", template: "models:\n  m: %s\n", wrongType: "[1]", outOfRange: "{input: 1}"},
	{key: "models.m.context_window", template: "models:\n  m: {%s}\n", wrongType: "context_window: [1]", outOfRange: "context_window: 10",
		mustName: []string{"models.m.context_window"}},
	{key: "models.m.input", template: "models:\n  m: {output: 1, %s}\n", wrongType: "input: [1]", outOfRange: "input: -1",
		mustName: []string{"models.m.input"}},
	{key: "tools", wrongType: "[Read]", outOfRange: "5"},
	{key: "tools.Read", template: "tools:\n  Read: %s\n", wrongType: "[1]", outOfRange: "5"},
	{key: "tools.Read.rate", template: "tools:\n  Read:\n    rate: %s\n", wrongType: "[1, 2]", outOfRange: "-1"},
	{key: "tools.Read.rate.per_second", template: toolRate, wrongType: "per_second: [1]", outOfRange: "per_second: -1",
		mustName: []string{"tools.Read.rate", "per_second"}},
	{key: "tools.Read.rate.burst", template: toolRate, wrongType: "per_second: 1, burst: [1]", outOfRange: "per_second: 1, burst: 0",
		mustName: []string{"tools.Read.rate", "burst"}},

	{key: "hooks", wrongType: "[PreToolUse]", outOfRange: "{Banana: []}"},
	{key: "hooks.PreToolUse", template: "hooks:\n  PreToolUse: %s\n", wrongType: "{matcher: Bash}", outOfRange: "5"},
	{key: "hooks.PreToolUse[0]", template: "hooks:\n  PreToolUse:\n    - %s\n", wrongType: "[Bash]", outOfRange: "5"},
	{key: "hooks.PreToolUse[0].matcher", template: hookEntry, wrongType: "matcher: [Bash]", outOfRange: `matcher: "Bash("`},
	{key: "hooks.PreToolUse[0].hooks", template: "hooks:\n  PreToolUse:\n    - %s\n", wrongType: "hooks: {command: x}", outOfRange: "matcher: Bash"},
	{key: "hooks.PreToolUse[0].hooks[0]", template: "hooks:\n  PreToolUse:\n    - hooks: [%s]\n", wrongType: "[x]", outOfRange: "{}"},
	{key: "hooks.PreToolUse[0].hooks[0].type", template: hookCommand, wrongType: "type: [command]", outOfRange: "type: prompt"},
	{key: "hooks.PreToolUse[0].hooks[0].command", template: "hooks:\n  PreToolUse:\n    - hooks: [{%s}]\n",
		wrongType: "command: [ls]", outOfRange: `command: "  "`},
	{key: "hooks.PreToolUse[0].hooks[0].timeout", template: hookCommand, wrongType: "timeout: [1]", outOfRange: "timeout: -1"},

	{key: "mcp", wrongType: "[a]", outOfRange: "5"},
	{key: "mcp.servers", template: "mcp:\n  servers: %s\n", wrongType: "[a]", outOfRange: "5"},
	{key: "mcp.servers.x", template: "mcp:\n  servers:\n    x: %s\n", wrongType: "[run]", outOfRange: "{}"},
	{key: "mcp.servers.x.command", template: "mcp:\n  servers:\n    x:\n      %s\n", wrongType: "command: [run]", outOfRange: `command: ""`,
		mustName: []string{"mcp.servers.x", "command"}},
	{key: "mcp.servers.x.args", template: mcpServer, wrongType: "args: {a: b}", outOfRange: `args: ["a\0"]`},
	{key: "mcp.servers.x.env", template: mcpServer, wrongType: "env: [A]", outOfRange: "env: {A=B: 1}"},
	{key: "mcp.servers.x.cwd", template: mcpServer, wrongType: "cwd: [a]", outOfRange: "cwd: ~/src", unsetHome: true},
	{key: "mcp.servers.x.url", template: "mcp:\n  servers:\n    x:\n      %s\n", wrongType: "url: [http://h]", outOfRange: "url: ftp://h"},
	{key: "mcp.servers.x.headers", template: mcpURL, wrongType: "headers: [Authorization]", outOfRange: "headers: {Bad Name: x}"},
	{key: "mcp.servers.x.start", template: mcpServer, wrongType: "start: [true]", outOfRange: "start: 2"},
	{key: "mcp.servers.x.timeout", template: mcpServer, wrongType: "timeout: [1]", outOfRange: "timeout: -1"},
	{key: "mcp.servers.x.reset_timeout_on_progress", template: mcpServer, wrongType: "reset_timeout_on_progress: [true]", outOfRange: "reset_timeout_on_progress: 2"},
	{key: "mcp.servers.x.max_total_timeout", template: mcpServer, wrongType: "max_total_timeout: [1]", outOfRange: "max_total_timeout: -1"},
	{key: "mcp.servers.x.oauth", template: mcpURL, wrongType: "oauth: [a]", outOfRange: "oauth: {callback_port: 70000}"},
}

// yaml writes the key with value v as a config file.
func (b badKey) yaml(v string) string {
	if b.template == "" {
		return b.key + ": " + v + "\n"
	}
	return fmt.Sprintf(b.template, v)
}

func (b badKey) names() []string {
	if b.mustName != nil {
		return b.mustName
	}
	return []string{b.key}
}

// TestBadKeysCoverEveryKey: every key Set knows, every section and every field of a
// section has its row in badKeys, so a new key cannot skip the audit.
func TestBadKeysCoverEveryKey(t *testing.T) {
	want := append(Keys(), sectionKeys...)
	want = append(want, groupKeys()...)
	for _, f := range serverFields {
		want = append(want, "mcp.servers.x."+f)
	}
	for _, f := range rateFields {
		want = append(want, "tools.Read.rate."+f)
	}
	for _, f := range permissionFields {
		want = append(want, "permissions."+f)
	}
	for _, f := range hookMatcherFields {
		want = append(want, "hooks.PreToolUse[0]."+f)
	}
	for _, f := range hookFields {
		want = append(want, "hooks.PreToolUse[0].hooks[0]."+f)
	}
	var have []string
	for _, b := range badKeys {
		have = append(have, b.key)
	}
	for _, k := range want {
		if !slices.Contains(have, k) {
			t.Errorf("key %q has no row in badKeys", k)
		}
	}
}

// TestBadValuesInTheFile: for every key, a value of the wrong type and one out of
// range are errors naming the file and the key.
func TestBadValuesInTheFile(t *testing.T) {
	for _, b := range badKeys {
		for kind, v := range map[string]string{"wrong type": b.wrongType, "out of range": b.outOfRange} {
			t.Run(b.key+"/"+kind, func(t *testing.T) {
				f := newFixture(t)
				if b.unsetHome {
					delete(f.env, "HOME")
				}
				p := f.write("config.yaml", b.yaml(v))
				_, err := Load(f.source(p))
				if err == nil {
					t.Fatalf("%q was accepted", b.yaml(v))
				}
				if !strings.HasPrefix(err.Error(), "config file "+p+": ") {
					t.Errorf("error %q does not start with the file", err)
				}
				wantContains(t, err.Error(), b.names()...)
			})
		}
	}
}

// TestBadValuesInTheEnvironment: a bad FORGE_ variable is an error naming the
// variable and the key.
func TestBadValuesInTheEnvironment(t *testing.T) {
	for _, b := range badKeys {
		if b.env == "" {
			continue
		}
		t.Run(b.key, func(t *testing.T) {
			f := newFixture(t)
			if b.unsetHome {
				delete(f.env, "HOME")
			}
			name := envName(b.key)
			f.env[name] = b.env
			want := fmt.Sprintf("%s: invalid %s %q: ", name, b.key, b.env)
			if got := f.loadErr(""); !strings.HasPrefix(got, want) {
				t.Errorf("error\n %q\nwant it to start with\n %q", got, want)
			}
		})
	}
	for _, b := range badKeys {
		if s, ok := lookupSetting(b.key); ok && b.env == "" {
			t.Errorf("setting %s has no bad environment value in badKeys (%s)", b.key, envName(s.key))
		}
	}
}

// TestBadValuesAsFlags: a bad flag value is an error naming the flag and the key.
func TestBadValuesAsFlags(t *testing.T) {
	for _, b := range badKeys {
		if b.flag == "" {
			continue
		}
		t.Run(b.key, func(t *testing.T) {
			f := newFixture(t)
			if b.unsetHome {
				delete(f.env, "HOME")
			}
			s, ok := lookupSetting(b.key)
			if !ok || s.flag == "" {
				t.Fatalf("%s has no flag", b.key)
			}
			want := fmt.Sprintf("--%s: invalid %s %q: ", s.flag, b.key, b.flag)
			if got := f.loadErr("", "--"+s.flag+"="+b.flag); !strings.HasPrefix(got, want) {
				t.Errorf("error\n %q\nwant it to start with\n %q", got, want)
			}
		})
	}
	fs := pflag.NewFlagSet("forge", pflag.ContinueOnError)
	AddFlags(fs)
	for _, s := range settings {
		if s.flag == "" || fs.Lookup(s.flag).Value.Type() == "bool" {
			continue
		}
		if !slices.ContainsFunc(badKeys, func(b badKey) bool { return b.key == s.key && b.flag != "" }) {
			t.Errorf("flag --%s has no bad value in badKeys", s.flag)
		}
	}
}

// TestMinWidthIsTheRenderers: the narrowest width accepted is the narrowest panel
// the renderer draws, so that an accepted width is drawn as given.
func TestMinWidthIsTheRenderers(t *testing.T) {
	if minWidth != render.MinWidth {
		t.Errorf("minWidth %d, render.MinWidth %d", minWidth, render.MinWidth)
	}
	f := newFixture(t)
	if got := f.load("", fmt.Sprintf("--width=%d", render.MinWidth)).Width; got != render.MinWidth {
		t.Errorf("width %d refused or changed: %d", render.MinWidth, got)
	}
}
