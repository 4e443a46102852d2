package config

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

const hooksYAML = `
hooks:
  Stop:
    - hooks: [{type: command, command: ./stop.sh}]
  pretooluse:
    - matcher: "Bash|Write"
      hooks:
        - {type: command, command: ./a.sh, timeout: 30}
        - {command: ./b.sh, timeout: 2m}
    - hooks: [{type: command, command: ./all.sh}]
  UserPromptSubmit:
    - hooks: [{type: command, command: "echo hi"}]
`

func TestHooksSection(t *testing.T) {
	f := newFixture(t)
	p := f.write("config.yaml", hooksYAML)
	c := f.load(p)
	if len(c.Warnings) != 0 {
		t.Errorf("warnings: %q", c.Warnings)
	}
	want := []Hook{
		{Event: "UserPromptSubmit", Command: "echo hi", File: p},
		{Event: "PreToolUse", Matcher: "Bash|Write", Command: "./a.sh", Timeout: 30 * time.Second, File: p},
		{Event: "PreToolUse", Matcher: "Bash|Write", Command: "./b.sh", Timeout: 2 * time.Minute, File: p},
		{Event: "PreToolUse", Command: "./all.sh", File: p},
		{Event: "Stop", Command: "./stop.sh", File: p},
	}
	if !slices.Equal(c.Hooks, want) {
		t.Errorf("hooks\n %+v\nwant\n %+v", c.Hooks, want)
	}
}

func TestHooksSectionWarnings(t *testing.T) {
	f := newFixture(t)
	p := f.write("config.yaml", `
hooks:
  Notification:
    - hooks: [{type: command, command: notify-send hi}]
  Stop:
    - matcher: startup
      hooks: [{type: command, command: x, async: true}]
      mather: y
`)
	c := f.load(p)
	for _, w := range []string{"forge does not run Notification hooks", `hooks.Stop[0].matcher: ignored`,
		`unknown key "hooks.Stop[0].hooks[0].async"`, `unknown key "hooks.Stop[0].mather" (did you mean "hooks.Stop[0].matcher"?)`} {
		if !contains(c.Warnings, w) {
			t.Errorf("no warning %q in %q", w, c.Warnings)
		}
	}
	if len(c.Hooks) != 1 || c.Hooks[0].Matcher != "" {
		t.Errorf("hooks %+v", c.Hooks)
	}
}

func TestHooksSectionErrors(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"hooks: {PreToolUs: []}", "hooks.PreToolUs: unknown event; forge runs hooks for SessionStart, UserPromptSubmit"},
		{"hooks: {PreToolUse: [{matcher: 'Bash(', hooks: [{command: x}]}]}", `invalid hooks.PreToolUse[0].matcher "Bash(": not a regular expression`},
		{"hooks: {PreToolUse: [{matcher: Bash}]}", "invalid hooks.PreToolUse[0].hooks"},
		{"hooks: {Stop: [{hooks: [{type: prompt, command: x}]}]}", `hooks.Stop[0].hooks[0].type "prompt": forge runs hooks of type "command" only`},
		{"hooks: {Stop: [{hooks: [{type: command}]}]}", "hooks.Stop[0].hooks[0].command"},
		{"hooks: {Stop: [{hooks: [{command: x, timeout: 0}]}]}", "hooks.Stop[0].hooks[0].timeout"},
		{"hooks: {Stop: [], stop: []}", "written twice"},
	}
	for _, tt := range tests {
		f := newFixture(t)
		p := f.write("config.yaml", tt.yaml)
		wantContains(t, f.loadErr(p), "config file "+p+": ", tt.want)
	}
}

// FuzzHooksSection: whatever the hooks section holds, parseHooks returns
// hooks of known events with a command and a matcher that compiles, or an
// error naming the file; never a panic.
func FuzzHooksSection(f *testing.F) {
	f.Add(hooksYAML)
	for _, b := range badKeys {
		if strings.HasPrefix(b.key, "hooks") {
			f.Add(b.yaml(b.wrongType))
			f.Add(b.yaml(b.outOfRange))
		}
	}
	f.Add("hooks: {PreToolUse: [{matcher: '(?i)^bash$', hooks: [{command: x, timeout: '1.5'}]}]}")
	f.Add("hooks: {SessionStart: ~, Stop: [~]}")
	f.Fuzz(func(t *testing.T, doc string) {
		var raw map[string]any
		if yaml.Unmarshal([]byte(doc), &raw) != nil {
			return
		}
		hs, _, err := parseHooks("/c.yaml", raw["hooks"])
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config file /c.yaml: ") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		for _, h := range hs {
			if !slices.Contains(HookEvents, h.Event) || strings.TrimSpace(h.Command) == "" || h.File != "/c.yaml" || h.Timeout < 0 {
				t.Fatalf("bad hook %+v", h)
			}
			if _, err := regexp.Compile(h.Matcher); err != nil {
				t.Fatalf("matcher %q: %v", h.Matcher, err)
			}
		}
	})
}

// contains says one of xs holds sub.
func contains(xs []string, sub string) bool {
	return slices.ContainsFunc(xs, func(x string) bool { return strings.Contains(x, sub) })
}
