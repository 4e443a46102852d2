package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const toolsYAML = `
tools:
  Read:
    max_lines: 2000
  WebSearch:
    API_Key: secret
    Engines: [Brave, DDG]
    Nested: {Deep: {X: 1}, 2: two}
  Bash:
  webfetch:
    rate: {per_second: 0.5}
`

func TestToolSectionsKeepCase(t *testing.T) {
	f := newFixture(t)
	c := f.load(f.write("c.yaml", toolsYAML))

	if got := sortedKeys(c.Tools); !reflect.DeepEqual(got, []string{"Bash", "Read", "WebSearch", "webfetch"}) {
		t.Errorf("tool names %v: case lost", got)
	}
	ws := c.ToolSection("WebSearch")
	want := map[string]any{
		"API_Key": "secret",
		"Engines": []any{"Brave", "DDG"},
		"Nested":  map[string]any{"Deep": map[string]any{"X": 1}, "2": "two"},
	}
	if !reflect.DeepEqual(ws, want) {
		t.Errorf("WebSearch section %#v, want %#v", ws, want)
	}
	if got := c.ToolSection("Read")["max_lines"]; got != 2000 {
		t.Errorf("Read.max_lines = %v", got)
	}
	if got := c.ToolSection("read")["max_lines"]; got != 2000 {
		t.Errorf("a tool asking in another case gets %v, want the Read section", got)
	}
	if s := c.ToolSection("Bash"); s == nil || len(s) != 0 {
		t.Errorf("an empty section = %#v, want an empty map", s)
	}
	if s := c.ToolSection("Write"); s != nil {
		t.Errorf("an absent section = %#v, want nil", s)
	}
	if got := c.ToolSection("WebFetch"); got == nil {
		t.Errorf("WebFetch does not find webfetch")
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %v", c.Warnings)
	}
}

func TestToolSectionsDifferingInCase(t *testing.T) {
	f := newFixture(t)
	p := f.write("c.yaml", "tools:\n  Read: {a: 1}\n  read: {a: 2}\n")
	c := f.load(p)
	if c.ToolSection("Read")["a"] != 1 || c.ToolSection("read")["a"] != 2 {
		t.Errorf("exact names must win: %v", c.Tools)
	}
	if c.ToolSection("READ")["a"] != 1 {
		t.Errorf("READ gets %v, want the first in sorted order (Read)", c.ToolSection("READ"))
	}
	want := "config file " + p + ": tools.Read and tools.read differ only in case; a tool named in another case gets tools.Read"
	if !reflect.DeepEqual(c.Warnings, []string{want}) {
		t.Errorf("warnings %q, want %q", c.Warnings, want)
	}
}

func TestRate(t *testing.T) {
	tests := []struct {
		name string
		rate string
		want RateLimit
	}{
		{"both", "{per_second: 2, burst: 5}", RateLimit{2, 5}},
		{"burst defaults to per_second rounded up", "{per_second: 2.5}", RateLimit{2.5, 3}},
		{"at least 1", "{per_second: 0.1}", RateLimit{0.1, 1}},
		{"a bare number", "3", RateLimit{3, 3}},
		{"strings", "{per_second: '4', burst: '6'}", RateLimit{4, 6}},
		{"case-insensitive fields", "{Per_Second: 1, BURST: 2}", RateLimit{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			c := f.load(f.write("c.yaml", "tools:\n  WebFetch:\n    rate: "+tt.rate+"\n"))
			got, ok := c.Rate("WebFetch")
			if !ok || got != tt.want {
				t.Errorf("Rate = %+v, %v; want %+v", got, ok, tt.want)
			}
			if got2, ok := c.Rate("webfetch"); !ok || got2 != got {
				t.Errorf("Rate(webfetch) = %+v, %v", got2, ok)
			}
		})
	}

	f := newFixture(t)
	c := f.load(f.write("c.yaml", "tools:\n  Read: {}\n  Bash: {rate: ~}\n"))
	for _, name := range []string{"Read", "Bash", "Missing"} {
		if r, ok := c.Rate(name); ok {
			t.Errorf("Rate(%s) = %+v, want none", name, r)
		}
	}
	// A hand-built Config with a bad rate reports no limit rather than panicking.
	bad := Config{Tools: map[string]map[string]any{"X": {"rate": "fast"}}}
	if _, ok := bad.Rate("X"); ok {
		t.Error("a bad hand-made rate was accepted")
	}
}

func TestRateErrors(t *testing.T) {
	tests := []struct{ rate, want string }{
		{"{per_second: -1}", "tools.Read.rate: per_second must be positive, got -1"},
		{"{per_second: 0}", "tools.Read.rate: per_second must be positive, got 0"},
		{"{per_second: 2, burst: 0}", "tools.Read.rate: burst must be a whole number of at least 1, got 0"},
		{"{per_second: 2, burst: 1.5}", "tools.Read.rate: burst must be a whole number of at least 1, got 1.5"},
		{"{burst: 3}", "tools.Read.rate: per_second is missing: write {per_second: 2, burst: 5}"},
		{"{per_second: fast}", "tools.Read.rate: per_second: want a number of calls per second"},
		{"fast", "tools.Read.rate: want {per_second: N, burst: M} or a number of calls per second"},
		{"[1, 2]", "tools.Read.rate: want {per_second: N, burst: M} or a number of calls per second"},
		{".nan", "tools.Read.rate: want {per_second: N, burst: M}"},
	}
	for _, tt := range tests {
		f := newFixture(t)
		p := f.write("c.yaml", "tools:\n  Read:\n    rate: "+tt.rate+"\n")
		got := f.loadErr(p)
		if want := "config file " + p + ": " + tt.want; !strings.HasPrefix(got, want) {
			t.Errorf("rate %s: error %q, want %q", tt.rate, got, want)
		}
	}
	f := newFixture(t)
	p := f.write("c.yaml", "tools:\n  Read:\n    rate: {per_second: 1, brust: 2}\n")
	c := f.load(p)
	want := "config file " + p + `: unknown key "tools.Read.rate.brust" (did you mean "tools.Read.rate.burst"?)`
	if !reflect.DeepEqual(c.Warnings, []string{want}) {
		t.Errorf("warnings %q, want %q", c.Warnings, want)
	}
}

const mcpYAML = `
mcp:
  servers:
    GitHub:
      command: npx
      args: [-y, "@modelcontextprotocol/server-github", 3]
      env: {GITHUB_TOKEN: abc, Debug: 1}
      cwd: ~/src
      timeout: 30
    remote:
      url: https://mcp.example.com/mcp
      start: true
    single:
      command: ./server
      args: --stdio
      cwd: relative/dir
`

func TestMCPServers(t *testing.T) {
	f := newFixture(t)
	c := f.load(f.write("c.yaml", mcpYAML))
	want := map[string]MCPServer{
		"GitHub": {
			Command: "npx",
			Args:    []string{"-y", "@modelcontextprotocol/server-github", "3"},
			Env:     map[string]string{"GITHUB_TOKEN": "abc", "Debug": "1"},
			Cwd:     filepath.Join(f.home, "src"),
			Timeout: 30 * time.Second,
		},
		"remote": {URL: "https://mcp.example.com/mcp", Start: true},
		"single": {Command: "./server", Args: []string{"--stdio"}, Cwd: "relative/dir"},
	}
	if !reflect.DeepEqual(c.MCP.Servers, want) {
		t.Errorf("servers\n got %#v\nwant %#v", c.MCP.Servers, want)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %v", c.Warnings)
	}
}

func TestMCPErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"mcp: [a]", "mcp: want a mapping with a servers key"},
		{"mcp:\n  servers: [a]", "mcp.servers: want a mapping of server names to settings"},
		{"mcp:\n  servers:\n    x: 5", "mcp.servers.x: want a mapping with command or url"},
		{"mcp:\n  servers:\n    x: {}", "mcp.servers.x: set command (a server on stdio) or url (streamable HTTP)"},
		{"mcp:\n  servers:\n    x: {command: a, url: 'http://h'}", "mcp.servers.x: set command or url, not both"},
		{"mcp:\n  servers:\n    x: {url: 'ftp://h'}", `invalid mcp.servers.x.url "ftp://h": want an http:// or https:// URL`},
		{"mcp:\n  servers:\n    x: {url: 'http://'}", `invalid mcp.servers.x.url "http://": want an http:// or https:// URL`},
		{"mcp:\n  servers:\n    x: {command: a, timeout: soon}", `invalid mcp.servers.x.timeout "soon": want a duration`},
		{"mcp:\n  servers:\n    x: {command: a, start: maybe}", `invalid mcp.servers.x.start "maybe": want true or false`},
		{"mcp:\n  servers:\n    x: {command: a, args: [[1]]}", `invalid mcp.servers.x.args "[[1]]": want a list of strings`},
		{"mcp:\n  servers:\n    x: {command: a, env: [A]}", `invalid mcp.servers.x.env "[A]": want a mapping of names to values`},
		{"mcp:\n  servers:\n    x: {command: a, env: {A: [1]}}", `invalid mcp.servers.x.env "{...}": A: want a string`},
		{"mcp:\n  servers:\n    x: {command: [a]}", `invalid mcp.servers.x.command "[a]": want a string`},
	}
	for _, tt := range tests {
		f := newFixture(t)
		p := f.write("c.yaml", tt.yaml+"\n")
		got := f.loadErr(p)
		if want := "config file " + p + ": " + tt.want; !strings.HasPrefix(got, want) {
			t.Errorf("%q: error\n %q\nwant\n %q", tt.yaml, got, want)
		}
	}
	f := newFixture(t)
	delete(f.env, "HOME")
	p := f.write("c.yaml", "mcp:\n  servers:\n    x: {command: a, cwd: ~/x}\n")
	wantContains(t, f.loadErr(p), `invalid mcp.servers.x.cwd "~/x": cannot expand "~": HOME is not set`)
}

func TestMCPWarnings(t *testing.T) {
	f := newFixture(t)
	p := f.write("c.yaml", "mcp:\n  servers:\n    x: {command: a, arg: [b], timeout: ~}\n")
	c := f.load(p)
	want := []string{"config file " + p + `: unknown key "mcp.servers.x.arg" (did you mean "mcp.servers.x.args"?)`}
	if !reflect.DeepEqual(c.Warnings, want) {
		t.Errorf("warnings %q, want %q", c.Warnings, want)
	}
	if s := c.MCP.Servers["x"]; s.Command != "a" || s.Timeout != 0 {
		t.Errorf("server %+v", s)
	}
}

func TestMCPHeaders(t *testing.T) {
	f := newFixture(t)
	p := f.write("c.yaml", "mcp:\n  servers:\n    remote:\n      url: https://mcp.example.com/mcp\n      headers:\n        Authorization: Bearer abc\n        X-Retries: 3\n")
	c := f.load(p)
	want := map[string]string{"Authorization": "Bearer abc", "X-Retries": "3"}
	if got := c.MCP.Servers["remote"].Headers; !reflect.DeepEqual(got, want) {
		t.Errorf("headers %#v, want %#v", got, want)
	}

	tests := []struct{ server, want string }{
		{"{command: run, headers: {A: b}}", `mcp.servers.x.headers: only a server with url takes headers; give a command server its settings in env`},
		{"{command: run, headers: {}}", `mcp.servers.x.headers: only a server with url takes headers`},
		{"{url: 'http://h', headers: {'A B': c}}", `invalid mcp.servers.x.headers "{...}": "A B" is not a header name`},
		{"{url: 'http://h', headers: {A: \"b\\nc\"}}", `invalid mcp.servers.x.headers "{...}": the value of A holds a line break or control character`},
		{"{url: 'http://h', headers: {A: [b]}}", `invalid mcp.servers.x.headers "{...}": A: want a string`},
	}
	for _, tt := range tests {
		f := newFixture(t)
		p := f.write("c.yaml", "mcp:\n  servers:\n    x: "+tt.server+"\n")
		got := f.loadErr(p)
		if want := "config file " + p + ": " + tt.want; !strings.HasPrefix(got, want) {
			t.Errorf("%s: error\n %q\nwant\n %q", tt.server, got, want)
		}
	}
}

func TestMCPEnvNames(t *testing.T) {
	for _, env := range []string{"{'': x}", "{A=B: x}", "{\"A\\0\": x}"} {
		f := newFixture(t)
		p := f.write("c.yaml", "mcp:\n  servers:\n    x: {command: a, env: "+env+"}\n")
		wantContains(t, f.loadErr(p), "config file "+p+": invalid mcp.servers.x.env", "is not a variable name")
	}
}

func TestMCPOAuthAndProgress(t *testing.T) {
	f := newFixture(t)
	p := f.write("c.yaml", "mcp:\n  servers:\n    remote:\n      url: https://mcp.example.com/mcp\n      timeout: 1m\n      reset_timeout_on_progress: true\n      max_total_timeout: 30m\n"+
		"      oauth: {client_id: forge, client_secret: s3, callback_port: 8976, scope: x}\n")
	c := f.load(p)
	got := c.MCP.Servers["remote"]
	if got.OAuth != (MCPOAuth{ClientID: "forge", ClientSecret: "s3", CallbackPort: 8976}) || !got.ResetTimeoutOnProgress || got.MaxTotalTimeout != 30*time.Minute {
		t.Errorf("server %+v", got)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], `unknown key "mcp.servers.remote.oauth.scope"`) {
		t.Errorf("warnings %q", c.Warnings)
	}
	for _, tt := range []struct{ server, want string }{
		{"{command: run, oauth: {client_id: a}}", "mcp.servers.x.oauth: only a server with url logs in"},
		{"{url: 'http://h', oauth: {client_secret: a}}", "client_secret without client_id"},
		{"{url: 'http://h', oauth: {client_metadata_url: 'http://h/c.json'}}", "client_metadata_url: want an https URL"},
		{"{url: 'http://h', oauth: {callback_port: 0}}", "callback_port: want a port from 1 to 65535"},
	} {
		f := newFixture(t)
		p := f.write("c.yaml", "mcp:\n  servers:\n    x: "+tt.server+"\n")
		if got := f.loadErr(p); !strings.Contains(got, tt.want) {
			t.Errorf("%s: error %q, want %q", tt.server, got, tt.want)
		}
	}
}
