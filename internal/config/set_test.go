package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestSet(t *testing.T) {
	f := newFixture(t)
	sub := f.mkdir("sub")
	tests := []struct {
		key, value string
		check      func(Config) bool
	}{
		{"timeout", "90", func(c Config) bool { return c.Timeout == 90*time.Second }},
		{"timeout", "2m", func(c Config) bool { return c.Timeout == 2*time.Minute }},
		{"dry_run", "true", func(c Config) bool { return c.DryRun }},
		{"dry-run", "off", func(c Config) bool { return !c.DryRun }},
		{"DRY_RUN", "on", func(c Config) bool { return c.DryRun }},
		{"output", "json", func(c Config) bool { return c.Output == "json" }},
		{"max_output_size", "500", func(c Config) bool { return c.MaxOutputSize == 500 }},
		{"working_dir", "sub", func(c Config) bool { return c.WorkingDir == sub }},
		{"working_dir", "..", func(c Config) bool { return c.WorkingDir == f.cwd }},
		{"log_file", "~/x.log", func(c Config) bool { return c.LogFile == filepath.Join(f.home, "x.log") }},
		{"allowed_roots", "/a:/b", func(c Config) bool { return reflect.DeepEqual(c.AllowedRoots, []string{"/a", "/b"}) }},
		{"provider", "Anthropic", func(c Config) bool { return c.Provider == "anthropic" }},
		{"model", "claude-opus-4-1", func(c Config) bool { return c.Model == "claude-opus-4-1" }},
		{"base-url", "https://api.example.com/v1", func(c Config) bool { return c.BaseURL == "https://api.example.com/v1" }},
		{"approval", "plan", func(c Config) bool { return c.Approval == "plan" }},
		{"max_turns", "3", func(c Config) bool { return c.MaxTurns == 3 }},
		{"loop_detection", "off", func(c Config) bool { return !c.LoopDetection }},
		{"tool_format", "xml", func(c Config) bool { return c.ToolFormat == "xml" }},
		{"pass_env", "GH_TOKEN,NPM_TOKEN", func(c Config) bool { return reflect.DeepEqual(c.PassEnv, []string{"GH_TOKEN", "NPM_TOKEN"}) }},
		{"read.allow_outside", "false", func(c Config) bool { return !c.Read.AllowOutside }},
		{"read.allow-outside", "true", func(c Config) bool { return c.Read.AllowOutside }},
	}
	c := f.load("")
	for _, tt := range tests {
		if err := c.Set(tt.key, tt.value); err != nil {
			t.Errorf("Set(%s, %s): %v", tt.key, tt.value, err)
			continue
		}
		if !tt.check(c) {
			t.Errorf("Set(%s, %s) left %+v", tt.key, tt.value, c)
		}
	}
}

func TestSetErrors(t *testing.T) {
	f := newFixture(t)
	c := f.load("")
	before := c
	tests := []struct{ key, value, want string }{
		{"output", "xml", `invalid output "xml": must be one of text, json`},
		{"timeout", "abc", `invalid timeout "abc": want a duration such as 90s or 2m, or a number of seconds`},
		{"timeout", "0", `invalid timeout "0": must be positive`},
		{"max_output_size", "-3", `invalid max_output_size "-3": must be a positive number of bytes`},
		{"working_dir", "nowhere", `invalid working_dir "nowhere": no such directory`},
		{"dry_run", "perhaps", `invalid dry_run "perhaps": want true or false`},
		{"width", "3", `invalid width "3": must be 0 (detect) or at least 40 columns`},
		{"approval", "always", `invalid approval "always": must be one of ask, auto-edit, yolo, plan`},
		{"max_turns", "0", `invalid max_turns "0": must be at least 1`},
		{"pass_env", "A:2B", `invalid pass_env "A:2B": "2B" is not a variable name (letters, digits and _, not starting with a digit)`},
		{"base_url", "localhost", `invalid base_url "localhost": want an http:// or https:// URL`},
		{"system_prompt", "nope.md", `invalid system_prompt "nope.md": no such file`},
		{"colour", "on", "unknown setting \"colour\": valid settings are " + strings.Join(Keys(), ", ")},
	}
	for _, tt := range tests {
		err := c.Set(tt.key, tt.value)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Set(%s, %s) = %v, want %q", tt.key, tt.value, err, tt.want)
		}
	}
	if !reflect.DeepEqual(c, before) {
		t.Errorf("failed Sets changed the config:\n%+v\n%+v", c, before)
	}
}

// TestGetSetRoundTrip: what Get prints, Set takes back unchanged, for every key.
func TestGetSetRoundTrip(t *testing.T) {
	f := newFixture(t)
	f.env["FORGE_ALLOWED_ROOTS"] = "/r1:/r2"
	f.env["FORGE_LOG_FILE"] = "/var/log/forge.log"
	f.env["FORGE_PASS_ENV"] = "A_TOKEN:B_KEY"
	f.env["FORGE_SYSTEM_PROMPT"] = f.write("prompt.md", "p")
	c := f.load("", "--dry-run", "--width", "90", "--timeout", "1m30s", "-o", "json", "--fail-fast",
		"--provider", "ollama", "--model", "llama3", "--base-url", "http://localhost:11434", "--approval", "auto-edit",
		"--max-turns", "7", "--loop-detection=false", "--tool-format", "xml")
	for _, key := range Keys() {
		v, ok := c.Get(key)
		if !ok {
			t.Fatalf("Get(%s) unknown", key)
		}
		d := c
		if err := d.Set(key, v); err != nil {
			t.Errorf("Set(%s, Get=%q): %v", key, v, err)
			continue
		}
		if !reflect.DeepEqual(d, c) {
			t.Errorf("Set(%s, %q) changed the config", key, v)
		}
	}
	if _, ok := c.Get("nope"); ok {
		t.Error("Get(nope) reported a value")
	}
	if v, _ := c.Get("timeout"); v != "1m30s" {
		t.Errorf("Get(timeout) = %q", v)
	}
}

func TestConverters(t *testing.T) {
	if _, err := toInt(int64(1) << 40); err != nil {
		t.Error(err)
	}
	if _, err := toInt(uint64(1) << 63); err == nil {
		t.Error("uint64 overflow accepted")
	}
	if n, err := toInt(uint64(7)); err != nil || n != 7 {
		t.Error(n, err)
	}
	if d, err := toDuration(int64(2)); err != nil || d != 2*time.Second {
		t.Error(d, err)
	}
	if _, err := toDuration(time.Duration(0)); err == nil {
		t.Error("zero duration accepted")
	}
	if _, err := toDuration("1e-12"); err == nil {
		t.Error("a duration below 1ns accepted")
	}
	if _, err := toDuration(true); err == nil {
		t.Error("a boolean duration accepted")
	}
	if f, ok := toFloat(int64(3)); !ok || f != 3 {
		t.Error(f, ok)
	}
	if l, err := toList([]string{"a"}); err != nil || !reflect.DeepEqual(l, []string{"a"}) {
		t.Error(l, err)
	}
	if l, err := toList(""); err != nil || l != nil {
		t.Error(l, err)
	}
	if b, err := toBool(nil); err != nil || b {
		t.Error(b, err)
	}
	if got := display([]string{"a", "b"}); got != "a,b" {
		t.Error(got)
	}
	if got := display(map[any]any{}); got != "{...}" {
		t.Error(got)
	}
	if got := normalize(map[any]any{1: []any{map[any]any{true: "x"}}}); !reflect.DeepEqual(got, map[string]any{"1": []any{map[string]any{"true": "x"}}}) {
		t.Errorf("normalize = %#v", got)
	}
	if _, err := oneOf([]any{}, "a"); err == nil {
		t.Error("oneOf accepted a list")
	}
}
