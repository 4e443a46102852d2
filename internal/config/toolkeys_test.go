package config

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// fakeSettings stands for builtin.Settings: Bash reads kill_grace (a
// duration) and shell (a string); calculator reads nothing; any other tool
// is unknown.
func fakeSettings(tool string) ([]tools.Setting, bool) {
	switch strings.ToLower(tool) {
	case "bash":
		return []tools.Setting{
			{Key: "kill_grace", Check: func(v any) error {
				if s, ok := v.(string); ok {
					if _, err := time.ParseDuration(s); err == nil {
						return nil
					}
				}
				return errors.New("want a duration such as 30s")
			}},
			{Key: "shell", Check: func(v any) error {
				if _, ok := v.(string); !ok {
					return errors.New("want a string")
				}
				return nil
			}},
		}, true
	case "calculator":
		return nil, true
	}
	return nil, false
}

func TestToolSectionKeys(t *testing.T) {
	tests := []struct {
		name     string
		yaml     string
		warnings []string // %s is the file
		err      string   // %s is the file; "" for none
	}{
		{"known keys", "tools:\n  Bash: {kill_grace: 2s, shell: /bin/sh, rate: 2}\n", nil, ""},
		{"any case", "tools:\n  bash: {Kill_Grace: 2s}\n", nil, ""},
		{"null value", "tools:\n  Bash: {kill_grace: null}\n", nil, ""},
		{"empty section", "tools:\n  Bash:\n", nil, ""},
		{"misspelt key",
			"tools:\n  Bash: {kil_grace: 2s}\n",
			[]string{`config file %s: unknown key "tools.Bash.kil_grace" (did you mean "tools.Bash.kill_grace"?)`}, ""},
		{"unknown key, nothing close",
			"tools:\n  Bash: {colour: red}\n",
			[]string{`config file %s: unknown key "tools.Bash.colour"`}, ""},
		{"a tool that reads nothing",
			"tools:\n  calculator: {precision: 3}\n",
			[]string{`config file %s: unknown key "tools.calculator.precision"`}, ""},
		{"a tool forge does not know", "tools:\n  mcp__git__status: {anything: 1}\n", nil, ""},
		{"wrong type",
			"tools:\n  Bash: {kill_grace: abc}\n",
			nil, `config file %s: invalid tools.Bash.kill_grace "abc": want a duration such as 30s`},
		{"wrong shape",
			"tools:\n  Bash: {shell: [a, b]}\n",
			nil, `config file %s: invalid tools.Bash.shell "[a b]": want a string`},
		{"written twice",
			"tools:\n  Bash: {kill_grace: 1s, KILL_GRACE: 2s}\n",
			nil, `config file %s: tools.Bash: key "kill_grace" is written twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			file := f.write("c.yaml", tt.yaml)
			src := f.source(file)
			src.ToolSettings = fakeSettings
			c, err := Load(src)
			if tt.err != "" {
				want := strings.ReplaceAll(tt.err, "%s", file)
				if err == nil || !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("Load error = %v, want %q", err, want)
				}
				var ve *ValueError
				if strings.Contains(tt.err, "invalid") && !errors.As(err, &ve) {
					t.Errorf("error %T is not a *ValueError (exit status 2 comes from the error, as for any key)", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			var want []string
			for _, w := range tt.warnings {
				want = append(want, strings.ReplaceAll(w, "%s", file))
			}
			if !slices.Equal(c.Warnings, want) {
				t.Errorf("warnings %q, want %q", c.Warnings, want)
			}
		})
	}
}

// Without ToolSettings nothing inside a tool's section is checked.
func TestToolSectionKeysUnchecked(t *testing.T) {
	f := newFixture(t)
	c := f.load(f.write("c.yaml", "tools:\n  Bash: {kil_grace: abc}\n"))
	if len(c.Warnings) != 0 || c.ToolSection("Bash")["kil_grace"] != "abc" {
		t.Errorf("warnings %q, section %v", c.Warnings, c.ToolSection("Bash"))
	}
}

// A project's tool sections are checked as the user's are, trusted or not:
// an untrusted project's keys are ignored, but a typo in them is still
// worth a warning and a bad value still an error naming the project file.
func TestProjectToolSectionKeys(t *testing.T) {
	for _, trusted := range []bool{false, true} {
		f, user := projectFixture(t, "", "tools:\n  Bash: {kil_grace: 2s, rate: 1}\n")
		src := f.source(user)
		src.ToolSettings = fakeSettings
		src.Trusted = func(dir string) (string, bool) {
			hash, _ := ProjectHash(dir, f.home)
			return hash, trusted
		}
		c, err := Load(src)
		if err != nil {
			t.Fatal(err)
		}
		project := filepath.Join(f.cwd, ".forge", "config.yaml")
		want := `config file ` + project + `: unknown key "tools.Bash.kil_grace" (did you mean "tools.Bash.kill_grace"?)`
		if !slices.Contains(c.Warnings, want) {
			t.Errorf("trusted=%v: warnings %q, want %q among them", trusted, c.Warnings, want)
		}
	}

	f, user := projectFixture(t, "", "tools:\n  Bash: {kill_grace: abc}\n")
	src := f.source(user)
	src.ToolSettings = fakeSettings
	_, err := Load(src)
	var pe *ProjectError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), `invalid tools.Bash.kill_grace "abc"`) {
		t.Errorf("a bad value in the project's section: %v, want a ProjectError naming it", err)
	}
}
