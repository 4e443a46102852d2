package config

import (
	"strings"
	"testing"
)

// FuzzLoadYAML feeds arbitrary bytes to Load as the config file: it must return a
// Config or an error naming the file, never panic.
func FuzzLoadYAML(f *testing.F) {
	for _, seed := range []string{
		"",
		"timeout: 90s\noutput: json\n",
		toolsYAML,
		mcpYAML,
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
		if c.File != "/fuzz/config.yaml" || c.Timeout <= 0 || c.WorkingDir == "" {
			t.Fatalf("loaded a config that breaks its invariants: %+v", c)
		}
		for name := range c.Tools {
			c.Rate(name)
			c.ToolSection(name)
		}
	})
}
