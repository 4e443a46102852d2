package config

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/spf13/cobra"
)

func TestAgentValueForms(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  map[string]string
		get  func(Config) any
		want any
	}{
		{"provider in any case", "provider: OpenAI\n", nil, func(c Config) any { return c.Provider }, "openai"},
		{"provider empty is unset", "provider: ''\n", nil, func(c Config) any { return c.Provider }, ""},
		{"model as written", "model: claude-sonnet-4-5\n", nil, func(c Config) any { return c.Model }, "claude-sonnet-4-5"},
		{"model with a tag", "model: hf.co/user/repo:Q4_K_M\n", nil, func(c Config) any { return c.Model }, "hf.co/user/repo:Q4_K_M"},
		{"model trimmed", "", map[string]string{"FORGE_MODEL": " gpt-4o\n"}, func(c Config) any { return c.Model }, "gpt-4o"},
		{"base_url", "base_url: http://localhost:11434/v1\n", nil, func(c Config) any { return c.BaseURL }, "http://localhost:11434/v1"},
		{"approval in any case", "approval: Auto-Edit\n", nil, func(c Config) any { return c.Approval }, "auto-edit"},
		{"approval plan", "", map[string]string{"FORGE_APPROVAL": "plan"}, func(c Config) any { return c.Approval }, "plan"},
		{"max_turns as text", "max_turns: '7'\n", nil, func(c Config) any { return c.MaxTurns }, 7},
		{"loop_detection off", "loop_detection: false\n", nil, func(c Config) any { return c.LoopDetection }, false},
		{"tool_format xml", "tool_format: XML\n", nil, func(c Config) any { return c.ToolFormat }, "xml"},
		{"pass_env list", "pass_env: [GITHUB_TOKEN, _x1]\n", nil, func(c Config) any { return c.PassEnv }, []string{"GITHUB_TOKEN", "_x1"}},
		{"pass_env from the environment, colons", "", map[string]string{"FORGE_PASS_ENV": "A_KEY:B_TOKEN"},
			func(c Config) any { return c.PassEnv }, []string{"A_KEY", "B_TOKEN"}},
		{"pass_env from the environment, commas and spaces", "", map[string]string{"FORGE_PASS_ENV": "A_KEY, B_TOKEN C"},
			func(c Config) any { return c.PassEnv }, []string{"A_KEY", "B_TOKEN", "C"}},
		{"read.allow_outside", "read:\n  allow_outside: false\n", nil, func(c Config) any { return c.Read.AllowOutside }, false},
		{"read.allow_outside written flat", "read.allow_outside: no\n", nil, func(c Config) any { return c.Read.AllowOutside }, false},
		{"read: with nothing keeps the default", "read:\n", nil, func(c Config) any { return c.Read.AllowOutside }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			for k, v := range tt.env {
				f.env[k] = v
			}
			c := f.load(f.write("c.yaml", tt.file))
			if got := tt.get(c); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
			if len(c.Warnings) != 0 {
				t.Errorf("warnings %q", c.Warnings)
			}
		})
	}
}

func TestSystemPrompt(t *testing.T) {
	f := newFixture(t)
	prompt := f.write(filepath.Join(f.home, "prompts", "forge.md"), "You are careful.\n")
	local := f.write("local.md", "x")
	if got := f.load(f.write("c.yaml", "system_prompt: ~/prompts/forge.md\n")).SystemPrompt; got != prompt {
		t.Errorf("~ not expanded: %q, want %q", got, prompt)
	}
	if got := f.load("", "--system-prompt", "local.md").SystemPrompt; got != local {
		t.Errorf("relative path: %q, want %q", got, local)
	}
	f.mkdir("dir")
	wantContains(t, f.loadErr("", "--system-prompt", "dir"), `--system-prompt: invalid system_prompt "dir": not a file`)
}

// TestPermissions: the lists are kept as written, in order; their rules' syntax is
// checked by whoever applies them.
func TestPermissions(t *testing.T) {
	f := newFixture(t)
	p := f.write("c.yaml", "permissions:\n  allow: [\"Bash(git status)\", Read]\n  Deny:\n    - Bash(rm:*)\n")
	c := f.load(p)
	want := Permissions{Allow: []string{"Bash(git status)", "Read"}, Deny: []string{"Bash(rm:*)"}}
	if !reflect.DeepEqual(c.Permissions, want) {
		t.Errorf("permissions %#v, want %#v", c.Permissions, want)
	}
	// A bad rule is named by its place in the list.
	bad := f.write("bad.yaml", "permissions:\n  deny: [Read, \"Bash(rm:*)\", 7]\n")
	wantContains(t, f.loadErr(bad), "config file "+bad+`: invalid permissions.deny[2] "7": want a rule written as a string`)
	for _, empty := range []string{"permissions:\n", "permissions: {allow: ~}\n", ""} {
		c := f.load(f.write("e.yaml", empty))
		if len(c.Permissions.Allow)+len(c.Permissions.Deny) != 0 || len(c.Warnings) != 0 {
			t.Errorf("%q: permissions %#v warnings %q", empty, c.Permissions, c.Warnings)
		}
	}
}

// TestAgentFlagsOnSubcommands: the flags AddFlags puts on the root's persistent set
// reach Load from a subcommand as well as from the root.
func TestAgentFlagsOnSubcommands(t *testing.T) {
	f := newFixture(t)
	var got Config
	run := func(cmd *cobra.Command, _ []string) error {
		var err error
		got, err = Load(Source{Flags: cmd.Flags(), Env: f.lookup, Getwd: func() (string, error) { return f.cwd, nil }})
		return err
	}
	root := &cobra.Command{Use: "forge", RunE: run, SilenceUsage: true, SilenceErrors: true}
	AddFlags(root.PersistentFlags())
	root.AddCommand(&cobra.Command{Use: "ask", RunE: run})
	for _, args := range [][]string{
		{"--provider", "ollama", "--model", "llama3", "--approval", "yolo", "--max-turns", "9", "--loop-detection=false",
			"--tool-format", "xml", "--base-url", "http://localhost:11434"},
		{"ask", "--provider", "ollama", "--model", "llama3", "--approval", "yolo", "--max-turns", "9", "--loop-detection=false",
			"--tool-format", "xml", "--base-url", "http://localhost:11434"},
		{"--provider", "ollama", "ask", "--model", "llama3", "--approval=yolo", "--max-turns=9", "--loop-detection=0",
			"--tool-format=xml", "--base-url=http://localhost:11434"},
	} {
		got = Config{}
		root.SetArgs(args)
		if err := root.Execute(); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if got.Provider != "ollama" || got.Model != "llama3" || got.Approval != "yolo" || got.MaxTurns != 9 ||
			got.LoopDetection || got.ToolFormat != "xml" || got.BaseURL != "http://localhost:11434" {
			t.Errorf("%v: got %+v", args, got)
		}
	}
}

func TestValidValueLists(t *testing.T) {
	if got := Providers(); !reflect.DeepEqual(got, []string{"openai", "anthropic", "ollama"}) {
		t.Errorf("Providers() = %v", got)
	}
	if got := ApprovalModes(); !reflect.DeepEqual(got, []string{"ask", "auto-edit", "yolo", "plan"}) {
		t.Errorf("ApprovalModes() = %v", got)
	}
	if got := ToolFormats(); !reflect.DeepEqual(got, []string{"native", "xml"}) {
		t.Errorf("ToolFormats() = %v", got)
	}
	// They are copies: changing one does not change what Load accepts.
	Providers()[0] = "x"
	if Providers()[0] != "openai" {
		t.Error("Providers() shares its slice")
	}
}
