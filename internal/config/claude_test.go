package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestExpandVars(t *testing.T) {
	env := func(name string) (string, bool) {
		v, ok := map[string]string{"HOME": "/h", "EMPTY": ""}[name]
		return v, ok
	}
	tests := []struct{ in, want, missing string }{
		{"${HOME}/x", "/h/x", ""},
		{"${NOPE:-def}-${HOME}", "def-/h", ""},
		{"${EMPTY:-def}", "def", ""},
		{"${EMPTY}", "", ""},
		{"${NOPE}", "", "NOPE"},
		{"$HOME ${ unterminated", "$HOME ${ unterminated", ""},
		{"a${HOME}b${NOPE:-}c", "a/hbc", ""},
	}
	for _, tt := range tests {
		var missing []string
		if got := expandVars(tt.in, env, &missing); got != tt.want || strings.Join(missing, ",") != tt.missing {
			t.Errorf("expandVars(%q) = %q %v, want %q %q", tt.in, got, missing, tt.want, tt.missing)
		}
	}
}

// Claude Code's settings become forge's sections: what forge cannot run
// is left out with one warning each for hooks and keys.
func TestClaudeSettingsLayer(t *testing.T) {
	dir := t.TempDir()
	settings := filepath.Join(dir, "settings.json")
	mcp := filepath.Join(dir, "mcp.json")
	writeTestFile(t, settings, `{"permissions": {"allow": ["Bash(npm run test:*)"], "deny": ["Read(./.env)"], "defaultMode": "acceptEdits"},
		"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}, {"type": "prompt", "prompt": "p"}]}],
		          "SubagentStop": [{"hooks": [{"type": "command", "command": "y"}]}]},
		"env": {"A": "1"}, "model": "opus"}`)
	writeTestFile(t, mcp, `{"mcpServers": {"gh": {"type": "http", "url": "https://api.example.com/${SVC:-mcp}", "headers": {"Authorization": "Bearer ${TOKEN}"}},
		"local": {"command": "node", "args": ["${ROOT:-.}/server.js"], "env": {"K": "${K:-v}"}}}}`)
	env := func(name string) (string, bool) { return map[string]string{"TOKEN": "t0k"}[name], name == "TOKEN" }
	layers, warns, serr := readClaudeLayers([]string{settings}, mcp, env, resolver{cwd: dir})
	if serr != nil || len(layers) != 2 {
		t.Fatalf("%d layers; warnings %q", len(layers), warns)
	}
	perms, _, err := parsePermissions(settings, layers[0].sections["permissions"])
	if err != nil || !slices.Equal(perms.Allow, []string{"Bash(npm run test:*)"}) || !slices.Equal(perms.Deny, []string{"Read(./.env)"}) {
		t.Errorf("permissions %+v %v", perms, err)
	}
	hooks, _, err := parseHooks(settings, layers[0].sections["hooks"])
	if err != nil || len(hooks) != 1 || hooks[0].Command != "x" || hooks[0].Matcher != "Bash" {
		t.Errorf("hooks %+v %v", hooks, err)
	}
	m, _, err := parseMCP(mcp, layers[1].sections["mcp"], resolver{cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	if gh := m.Servers["gh"]; gh.URL != "https://api.example.com/mcp" || gh.Headers["Authorization"] != "Bearer t0k" {
		t.Errorf("gh %+v", gh)
	}
	if l := m.Servers["local"]; l.Command != "node" || !slices.Equal(l.Args, []string{"./server.js"}) || l.Env["K"] != "v" {
		t.Errorf("local %+v", l)
	}
	all := strings.Join(warns, "\n")
	for _, w := range []string{
		"permissions.defaultMode: not read by forge",
		"hooks forge does not run are ignored: PreToolUse (type prompt), SubagentStop",
		"model is Claude Code's own and ignored",
	} {
		if !strings.Contains(all, w) {
			t.Errorf("warnings lack %q:\n%s", w, all)
		}
	}
}

// A Claude Code settings file forge cannot use is an error that names the
// file, and the line and column of a JSON error: its deny rules must not
// be dropped. An MCP file is a warning.
func TestClaudeFileUnusable(t *testing.T) {
	dir := t.TempDir()
	for name, c := range map[string]struct{ content, err string }{
		"bad.json":   {"{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm:*)\",]\n  }\n}\n", "bad.json:3:27: not valid JSON: invalid character ']' looking for beginning of value"},
		"short.json": {"{\"permissions\": {", "short.json:1:17: not valid JSON: unexpected end of JSON input"},
		"list.json":  {"[1]", "list.json:1:1: must be a JSON object (settings by name), not array"},
		"env.json":   {`{"env": {"A": {}}}`, "env.json: env: "},
	} {
		p := filepath.Join(dir, name)
		writeTestFile(t, p, c.content)
		layers, warns, serr := readClaudeLayers([]string{p}, "", nil, resolver{cwd: dir})
		if serr == nil || serr.File != p || !strings.Contains(serr.Error(), c.err) || strings.Contains(serr.Error(), "\n") {
			t.Errorf("%s: error %v, want %q; layers %d, warnings %q", name, serr, c.err, len(layers), warns)
		}
		if name == "env.json" {
			continue // no MCP file's key
		}
		layers, warns, serr = readClaudeLayers(nil, p, func(string) (string, bool) { return "", false }, resolver{cwd: dir})
		if serr != nil || len(layers) != 0 || len(warns) != 1 || !strings.Contains(warns[0], p+" is not used: ") {
			t.Errorf("%s as the MCP file: layers %d, warnings %q, error %v", name, len(layers), warns, serr)
		}
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("/etc/passwd", link); err != nil {
		t.Skip(err)
	}
	if _, warns, serr := readClaudeLayers([]string{link}, "", nil, resolver{}); serr != nil || len(warns) != 1 || !strings.Contains(warns[0], "symbolic link") {
		t.Errorf("link: %q %v", warns, serr)
	}
}

// Load stops at a broken Claude Code settings file: a project's is a
// *ProjectError (settings.local.json's too), the person's a
// *ClaudeSettingsError; SkipProject and SkipClaudeUser go on without them.
func TestLoadBrokenClaudeSettings(t *testing.T) {
	for _, c := range []struct {
		name, file string
		user       bool
	}{
		{"project", ".claude/settings.json", false},
		{"project local", ".claude/settings.local.json", false},
		{"user", ".claude/settings.json", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.write(".git/HEAD", "ref: refs/heads/main\n")
			f.write(".claude/settings.json", `{"permissions": {"deny": ["Bash(rm:*)"]}}`)
			bad := filepath.Join(f.cwd, c.file)
			if c.user {
				bad = filepath.Join(f.home, c.file)
			}
			f.write(bad, "{\"permissions\": {\"deny\": [\"Read(./.env)\" \"x\"]}}")
			src := f.source("")
			_, err := Load(src)
			var perr *ProjectError
			var cerr *ClaudeSettingsError
			switch {
			case !c.user && (!errors.As(err, &perr) || filepath.Base(perr.File) != filepath.Base(bad)):
				t.Fatalf("error %T %v, want a ProjectError for %s", err, err, bad)
			case c.user && (!errors.As(err, &cerr) || cerr.File != bad):
				t.Fatalf("error %T %v, want a ClaudeSettingsError for %s", err, err, bad)
			}
			if !strings.Contains(err.Error(), filepath.Base(bad)+":1:42: not valid JSON: invalid character") {
				t.Errorf("error %q", err)
			}
			src.SkipProject, src.SkipClaudeUser = perr != nil, cerr != nil
			if _, err := Load(src); err != nil {
				t.Errorf("skipping the file: %v", err)
			}
		})
	}
}

// A repository with Claude Code's settings is a project, and its trust
// covers them: a change of settings.json, settings.local.json or .mcp.json
// revokes it.
func TestClaudeProjectTrust(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, ".git", "HEAD"), "ref: refs/heads/main\n")
	sub := filepath.Join(dir, "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := FindProject(sub); got != "" {
		t.Errorf("without settings, project %q", got)
	}
	writeTestFile(t, filepath.Join(dir, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(*)"]}}`)
	if got := FindProject(sub); got != physical(dir) {
		t.Errorf("project %q, want %q", got, dir)
	}
	h1, err := ProjectHash(dir, dir)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, ".claude", "settings.local.json"), `{"x": 1}`)
	if h2, _ := ProjectHash(dir, dir); h2 == h1 {
		t.Error("settings.local.json kept the hash")
	}
	writeTestFile(t, filepath.Join(dir, ".mcp.json"), `{"mcpServers": {}}`)
	h3, _ := ProjectHash(dir, dir)
	writeTestFile(t, filepath.Join(dir, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(rm:*)"]}}`)
	h4, _ := ProjectHash(dir, dir)
	if h3 == h1 || h4 == h3 {
		t.Error("a change of .mcp.json or settings.json kept the hash")
	}
}

// FuzzClaudeSettings: any JSON object as settings.json or .mcp.json gives
// layers forge's parsers take, or a warning; never a panic.
func FuzzClaudeSettings(f *testing.F) {
	for _, s := range []string{`{}`, `{"permissions": {"allow": ["Bash(x)"]}}`, `{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x"}]}]}}`,
		`{"hooks": {"Stop": 3}}`, `{"env": {"A": 1}}`, `{"mcpServers": {"a": {"command": "${X:-y}", "args": [1, "${"]}}}`, `{"mcpServers": {"a": {"url": 3}}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "s.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		layers, _, _ := readClaudeLayers([]string{p}, p, func(string) (string, bool) { return "", false }, resolver{cwd: dir})
		for _, l := range layers {
			_, _, _ = parsePermissions(p, l.sections["permissions"])
			_, _, _ = parseHooks(p, l.sections["hooks"])
			_, _, _ = parseMCP(p, l.sections["mcp"], l.r)
		}
	})
}

func writeTestFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// .claude/settings.local.json is layered over the project's settings.json
// as Claude Code layers it: its rules are added, its env wins; it is
// under the project's trust (its allow rules and env wait for it), and
// forge config names it as the source of its values.
func TestClaudeLocalSettings(t *testing.T) {
	for _, trusted := range []bool{false, true} {
		t.Run(fmt.Sprint("trusted=", trusted), func(t *testing.T) {
			f := newFixture(t)
			f.write(".git/HEAD", "ref: refs/heads/main\n")
			team := f.write(".claude/settings.json", `{"permissions": {"allow": ["Bash(npm test:*)"], "deny": ["Read(./.env)"]}, "env": {"A": "team", "B": "team"}}`)
			local := f.write(".claude/settings.local.json", `{"permissions": {"allow": ["Bash(make:*)"], "deny": ["Bash(rm:*)"]}, "env": {"A": "mine"}}`)
			src := f.source("")
			if trusted {
				src.Trusted = func(dir string) (string, bool) { h, _ := ProjectHash(dir, f.home); return h, true }
			}
			c, err := Load(src)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{"Read(./.env)", "Bash(rm:*)"}; !slices.Equal(c.Permissions.Deny, want) {
				t.Errorf("deny %q, want %q", c.Permissions.Deny, want)
			}
			allow, env := []string(nil), map[string]string(nil)
			if trusted {
				allow, env = []string{"Bash(npm test:*)", "Bash(make:*)"}, map[string]string{"A": "mine", "B": "team"}
			}
			if !slices.Equal(c.Permissions.Allow, allow) || fmt.Sprint(c.Env) != fmt.Sprint(env) {
				t.Errorf("allow %q, env %v; want %q, %v", c.Permissions.Allow, c.Env, allow, env)
			}
			var got []string
			for _, e := range c.Entries() {
				if strings.HasPrefix(e.Key, "permissions.") || strings.HasPrefix(e.Key, "env.") {
					got = append(got, e.Key+" "+fmt.Sprint(e.Value)+" "+e.Source)
				}
			}
			all := strings.Join(got, "\n")
			for _, w := range []string{
				"permissions.deny Bash(rm:*) claude settings " + physicalPath(local),
				"permissions.deny Read(./.env) claude settings " + physicalPath(team),
			} {
				if !strings.Contains(all, w) {
					t.Errorf("forge config lacks %q:\n%s", w, all)
				}
			}
			if trusted && !strings.Contains(all, "env.A mine claude settings "+physicalPath(local)) {
				t.Errorf("forge config lacks env.A from %s:\n%s", local, all)
			}
		})
	}
}

// physicalPath is p with its directories' links resolved, as the
// project's files are named.
func physicalPath(p string) string {
	if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(d, filepath.Base(p))
	}
	return p
}
