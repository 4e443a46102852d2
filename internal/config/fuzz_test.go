package config

import (
	"slices"
	"strings"
	"testing"
)

// agentYAML sets every agent key to a valid value.
const agentYAML = `
provider: anthropic
model: claude-sonnet-4-5
base_url: https://api.anthropic.com
approval: auto-edit
max_turns: 20
loop_detection: false
tool_format: xml
pass_env: [GITHUB_TOKEN]
read: {allow_outside: false}
permissions:
  allow: [Read, "Bash(git status)"]
  deny: ["Bash(rm:*)"]
`

// FuzzLoadYAML feeds arbitrary bytes to Load as the config file: it must return a
// Config that keeps every setting's invariants, or an error naming the file; never
// panic. The corpus holds good files and, from badKeys, every key with a value of
// the wrong type and one out of range.
func FuzzLoadYAML(f *testing.F) {
	for _, b := range badKeys {
		f.Add([]byte(b.yaml(b.wrongType)))
		f.Add([]byte(b.yaml(b.outOfRange)))
	}
	for _, seed := range []string{
		"",
		"timeout: 90s\noutput: json\n",
		toolsYAML,
		mcpYAML,
		agentYAML,
		"read.allow_outside: false\nread: {allow_outside: true}\n",
		"permissions: {allow: [Read, 'Bash(git:*)'], deny: ~, Deny: []}\n",
		"mcp: {servers: {h: {url: 'https://h/mcp', headers: {Authorization: Bearer x}}}}\n",
		"pass_env: 'A:B,C D'\nprovider: ''\nmax_turns: 1\nwidth: 40\n",
		"tools:\n  Read:\n    rate: {per_second: 2, burst: 5}\n",
		"- a\n",
		"a: &x [*x]\n",
		"timeout: {a: 1}\nwidth: [1]\n",
		"? [a]\n: b\n",
		"Timeout: 1\ntimeout: 2\n",
		"tools: {Read: {Read: {read: 1}}, read: 2}\n",
		"working_dir: /nonexistent\n",
		"mcp: {servers: {a: {command: x, env: {A: ~}}}}\n",
		"a.b: 1\ntimeout.x: 2\n\"\": 3\n",
		"allowed_roots: !!binary aGVsbG8=\n",
		"{\"timeout\": 5, \"tools\": {\"Read\": {}}}",
		"%YAML 1.2\n---\nx: 1\n---\ny: 2\n",
	} {
		f.Add([]byte(seed))
	}
	fx := &fixture{cwd: f.TempDir(), home: "/home/fuzz", env: map[string]string{"HOME": "/home/fuzz"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		src := Source{Env: fx.lookup, Getwd: func() (string, error) { return fx.cwd, nil }}.withDefaults()
		c, err := load(src, resolver{cwd: fx.cwd, home: fx.home}, "/fuzz/config.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config file /fuzz/config.yaml: ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if c.File != "/fuzz/config.yaml" || c.Timeout <= 0 || c.WorkingDir == "" || c.MaxTurns < 1 ||
			c.MaxOutputSize < 1 || c.HistoryCapacity < 0 || (c.Width != 0 && c.Width < minWidth) ||
			!slices.Contains(approvalModes, c.Approval) || !slices.Contains(toolFormats, c.ToolFormat) ||
			(c.Provider != "" && !slices.Contains(providers, c.Provider)) {
			t.Fatalf("loaded a config that breaks its invariants: %+v", c)
		}
		for _, n := range c.PassEnv {
			if !envNameRule().MatchString(n) {
				t.Fatalf("pass_env accepted %q", n)
			}
		}
		for _, r := range slices.Concat(c.Permissions.Allow, c.Permissions.Deny) {
			if strings.TrimSpace(r) == "" {
				t.Fatalf("a blank permission rule was accepted: %+v", c.Permissions)
			}
		}
		for name, s := range c.MCP.Servers {
			if (s.Command == "") == (s.URL == "") || (s.Command != "" && s.Headers != nil) {
				t.Fatalf("server %s breaks its invariants: %+v", name, s)
			}
		}
		for name := range c.Tools {
			c.Rate(name)
			c.ToolSection(name)
		}
	})
}
