package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestDefaults(t *testing.T) {
	f := newFixture(t)
	c := f.load("")
	want := Config{
		WorkingDir:        f.cwd,
		Timeout:           120 * time.Second,
		Output:            "text",
		LogLevel:          "warn",
		MaxOutputSize:     100000,
		HistoryFile:       filepath.Join(f.home, ".local", "state", "forge", "history"),
		SessionsDir:       filepath.Join(f.home, ".local", "share", "forge", "sessions"),
		HistoryCapacity:   1000,
		AllowedRoots:      []string{},
		PluginDirs:        []string{filepath.Join(f.home, ".config", "forge", "plugins")},
		Approval:          "ask",
		MaxTurns:          50,
		LoopDetection:     true,
		ToolFormat:        "native",
		MaxAnswerSize:     4 << 20,
		MaxAnswerTime:     30 * time.Minute,
		StreamIdleTimeout: 5 * time.Minute,
		PassEnv:           []string{},
		Read:              Read{AllowOutside: true},
		Sandbox: Sandbox{Mode: "workspace-write", Writable: []string{}, Network: SandboxNetwork{Allow: []string{}},
			Caches: defaultCaches(func(k string) (string, bool) { v, ok := f.env[k]; return v, ok })},
		Tools:  map[string]map[string]any{},
		MCP:    MCP{Servers: map[string]MCPServer{}},
		Models: map[string]ModelSettings{},
		home:   f.home,
	}
	for _, k := range Keys() {
		if got := c.Origin(k); got != "default" {
			t.Errorf("Origin(%s) = %q, want default", k, got)
		}
	}
	c.origins = nil
	if !reflect.DeepEqual(c, want) {
		t.Errorf("defaults:\n got %+v\nwant %+v", c, want)
	}
}

// TestPrecedence proves each step of defaults < file < env < flags for several keys,
// and that a flag the user did not set overrides nothing.
func TestPrecedence(t *testing.T) {
	type layer struct{ file, env, flag string }
	tests := []struct {
		key  string
		vals layer // the value each layer sets
		// wants after: default only, + file, + env, + flag, + env with the flag unset
		def, file, env, flag string
		get                  func(Config) string
	}{
		{
			key: "timeout", vals: layer{"90s", "2m", "7"},
			def: "2m0s", file: "1m30s", env: "2m0s", flag: "7s",
			get: func(c Config) string { return c.Timeout.String() },
		},
		{
			key: "output", vals: layer{"json", "text", "json"},
			def: "text", file: "json", env: "text", flag: "json",
			get: func(c Config) string { return c.Output },
		},
		{
			key: "log_level", vals: layer{"debug", "error", "off"},
			def: "warn", file: "debug", env: "error", flag: "off",
			get: func(c Config) string { return c.LogLevel },
		},
		{
			key: "width", vals: layer{"100", "80", "60"},
			def: "0", file: "100", env: "80", flag: "60",
			get: func(c Config) string { return fmt.Sprint(c.Width) },
		},
		{
			key: "dry_run", vals: layer{"true", "false", "true"},
			def: "false", file: "true", env: "false", flag: "true",
			get: func(c Config) string { return fmt.Sprint(c.DryRun) },
		},
		{
			key: "no_color", vals: layer{"true", "0", "true"},
			def: "false", file: "true", env: "false", flag: "true",
			get: func(c Config) string { return fmt.Sprint(c.NoColor) },
		},
		{
			key: "fail_fast", vals: layer{"yes", "off", "true"},
			def: "false", file: "true", env: "false", flag: "true",
			get: func(c Config) string { return fmt.Sprint(c.FailFast) },
		},
		{
			key: "log_file", vals: layer{"/f.log", "/e.log", "/x.log"},
			def: "", file: "/f.log", env: "/e.log", flag: "/x.log",
			get: func(c Config) string { return c.LogFile },
		},
		{
			key: "max_output_size", vals: layer{"5000", "6000", ""},
			def: "100000", file: "5000", env: "6000", flag: "6000",
			get: func(c Config) string { return fmt.Sprint(c.MaxOutputSize) },
		},
		{
			key: "history_capacity", vals: layer{"10", "0", ""},
			def: "1000", file: "10", env: "0", flag: "0",
			get: func(c Config) string { return fmt.Sprint(c.HistoryCapacity) },
		},
		{
			key: "provider", vals: layer{"openai", "anthropic", "ollama"},
			def: "", file: "openai", env: "anthropic", flag: "ollama",
			get: func(c Config) string { return c.Provider },
		},
		{
			key: "model", vals: layer{"gpt-4o", "claude-sonnet-4-5", "llama3:8b"},
			def: "", file: "gpt-4o", env: "claude-sonnet-4-5", flag: "llama3:8b",
			get: func(c Config) string { return c.Model },
		},
		{
			key: "base_url", vals: layer{"http://f", "https://e/v1", "http://localhost:11434"},
			def: "", file: "http://f", env: "https://e/v1", flag: "http://localhost:11434",
			get: func(c Config) string { return c.BaseURL },
		},
		{
			key: "approval", vals: layer{"auto-edit", "plan", "yolo"},
			def: "ask", file: "auto-edit", env: "plan", flag: "yolo",
			get: func(c Config) string { return c.Approval },
		},
		{
			key: "max_turns", vals: layer{"10", "20", "30"},
			def: "50", file: "10", env: "20", flag: "30",
			get: func(c Config) string { return fmt.Sprint(c.MaxTurns) },
		},
		{
			key: "loop_detection", vals: layer{"false", "true", "false"},
			def: "true", file: "false", env: "true", flag: "false",
			get: func(c Config) string { return fmt.Sprint(c.LoopDetection) },
		},
		{
			key: "tool_format", vals: layer{"xml", "native", "xml"},
			def: "native", file: "xml", env: "native", flag: "xml",
			get: func(c Config) string { return c.ToolFormat },
		},
		{
			key: "pass_env", vals: layer{"[A_KEY]", "B_TOKEN:C", ""},
			def: "", file: "A_KEY", env: "B_TOKEN:C", flag: "B_TOKEN:C",
			get: func(c Config) string { return joinList(c.PassEnv) },
		},
		{
			key: "read.allow_outside", vals: layer{"false", "true", ""},
			def: "true", file: "false", env: "true", flag: "true",
			get: func(c Config) string { return fmt.Sprint(c.Read.AllowOutside) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			f := newFixture(t)
			s, _ := lookupSetting(tt.key)
			var flagArgs []string
			if s.flag != "" && tt.vals.flag != "" {
				flagArgs = []string{"--" + s.flag + "=" + tt.vals.flag}
			}
			file := f.write("forge.yaml", nestKey(tt.key, tt.vals.file))
			empty := f.write("empty.yaml", "")
			steps := []struct {
				name string
				file string
				env  bool
				args []string
				want string
			}{
				{"default only", empty, false, nil, tt.def},
				{"file beats default", file, false, nil, tt.file},
				{"env beats file", file, true, nil, tt.env},
				{"flag beats env", file, true, flagArgs, tt.flag},
				{"an unset flag does not override", file, true, []string{"--dry-run=false"}, tt.env},
			}
			for _, st := range steps {
				delete(f.env, envName(tt.key))
				if st.env {
					f.env[envName(tt.key)] = tt.vals.env
				}
				args := st.args
				if tt.key == "dry_run" && st.name == "an unset flag does not override" {
					args = []string{"--no-color"}
				}
				c := f.load(st.file, args...)
				if got := tt.get(c); got != st.want {
					t.Errorf("%s: %s = %q, want %q", st.name, tt.key, got, st.want)
				}
			}
		})
	}
}

// nestKey writes "a.b" as "a:\n  b: v" and "a" as "a: v".
func nestKey(key, v string) string {
	if group, field, ok := strings.Cut(key, "."); ok {
		return group + ":\n  " + field + ": " + v + "\n"
	}
	return key + ": " + v + "\n"
}

func TestPrecedenceWorkingDir(t *testing.T) {
	f := newFixture(t)
	a, b, c := f.mkdir("a"), f.mkdir("b"), f.mkdir("c")
	file := f.write("forge.yaml", "working_dir: a\n")
	if got := f.load("").WorkingDir; got != f.cwd {
		t.Errorf("default working dir %q, want the cwd %q", got, f.cwd)
	}
	if got := f.load(file).WorkingDir; got != a {
		t.Errorf("file: %q, want %q", got, a)
	}
	f.env["FORGE_WORKING_DIR"] = "b"
	if got := f.load(file).WorkingDir; got != b {
		t.Errorf("env: %q, want %q", got, b)
	}
	if got := f.load(file, "-C", "c").WorkingDir; got != c {
		t.Errorf("flag -C: %q, want %q", got, c)
	}
	if got := f.load(file, "--working-dir", c).WorkingDir; got != c {
		t.Errorf("flag --working-dir: %q, want %q", got, c)
	}
	f.env["FORGE_WORKING_DIR"] = "~/"
	if got := f.load(file).WorkingDir; got != f.home {
		t.Errorf("~ expanded: %q, want %q", got, f.home)
	}
}

func TestEmptyEnvIsUnset(t *testing.T) {
	f := newFixture(t)
	f.env["FORGE_OUTPUT"] = ""
	if got := f.load("").Output; got != "text" {
		t.Errorf("empty FORGE_OUTPUT gave output %q, want the default", got)
	}
}

func TestNoColorEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		file string
		args []string
		want bool
	}{
		{"unset", nil, "", nil, false},
		{"set", map[string]string{"NO_COLOR": "1"}, "", nil, true},
		{"any value", map[string]string{"NO_COLOR": "false"}, "", nil, true},
		{"empty is unset (no-color.org)", map[string]string{"NO_COLOR": ""}, "", nil, false},
		{"the config file overrides it", map[string]string{"NO_COLOR": "1"}, "no_color: false\n", nil, false},
		{"FORGE_NO_COLOR overrides it", map[string]string{"NO_COLOR": "1", "FORGE_NO_COLOR": "false"}, "", nil, false},
		{"a flag overrides it", map[string]string{"NO_COLOR": "1"}, "", []string{"--no-color=false"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			for k, v := range tt.env {
				f.env[k] = v
			}
			file := ""
			if tt.file != "" {
				file = f.write("forge.yaml", tt.file)
			}
			if got := f.load(file, tt.args...).NoColor; got != tt.want {
				t.Errorf("NoColor = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestConfigFileDiscovery(t *testing.T) {
	t.Run("XDG_CONFIG_HOME", func(t *testing.T) {
		f := newFixture(t)
		xdg := filepath.Join(f.home, "xdg")
		f.env["XDG_CONFIG_HOME"] = xdg
		p := f.write(filepath.Join(xdg, "forge", "config.yaml"), "timeout: 5\n")
		c := f.load("")
		if c.File != p || c.Timeout != 5*time.Second {
			t.Errorf("File %q timeout %v, want %q and 5s", c.File, c.Timeout, p)
		}
	})
	t.Run("HOME/.config when XDG_CONFIG_HOME is relative", func(t *testing.T) {
		f := newFixture(t)
		f.env["XDG_CONFIG_HOME"] = "relative"
		p := f.write(filepath.Join(f.home, ".config", "forge", "config.yaml"), "output: json\n")
		c := f.load("")
		if c.File != p || c.Output != "json" {
			t.Errorf("File %q output %q, want %q and json", c.File, c.Output, p)
		}
	})
	t.Run("a missing default file is fine", func(t *testing.T) {
		f := newFixture(t)
		if c := f.load(""); c.File != "" {
			t.Errorf("File = %q, want none", c.File)
		}
	})
	t.Run("no HOME and no XDG: no file", func(t *testing.T) {
		f := newFixture(t)
		delete(f.env, "HOME")
		c := f.load("")
		if c.File != "" || c.HistoryFile != "" || len(c.PluginDirs) != 0 {
			t.Errorf("got File %q HistoryFile %q PluginDirs %v, want all empty", c.File, c.HistoryFile, c.PluginDirs)
		}
	})
	t.Run("--config flag", func(t *testing.T) {
		f := newFixture(t)
		p := f.write("my.yaml", "width: 90\n")
		c := f.load("", "--config", "my.yaml")
		if c.File != p || c.Width != 90 {
			t.Errorf("File %q width %d, want %q and 90", c.File, c.Width, p)
		}
	})
	t.Run("a missing --config file is an error", func(t *testing.T) {
		f := newFixture(t)
		want := "config file " + filepath.Join(f.cwd, "nope.yaml") + ": no such file or directory"
		if got := f.loadErr("nope.yaml"); got != want {
			t.Errorf("error %q, want %q", got, want)
		}
	})
	t.Run("a directory is an error", func(t *testing.T) {
		f := newFixture(t)
		got := f.loadErr(f.mkdir("dir"))
		wantContains(t, got, "config file "+filepath.Join(f.cwd, "dir")+": ", "is a directory")
	})
	t.Run("~ without HOME", func(t *testing.T) {
		f := newFixture(t)
		delete(f.env, "HOME")
		wantContains(t, f.loadErr("~/x.yaml"), `config file: cannot expand "~": HOME is not set`)
	})
}

func TestMalformedFile(t *testing.T) {
	// A syntax error names the line where the mistake is, and quotes it,
	// not the line where the parser's construct began (the YAML parser
	// names that one, and counts some of its lines from 0).
	tests := []struct {
		name, content, want string
	}{
		{"unclosed list", "timeout: 90s\noutput: json\nwidth: [1, 2\n",
			`: yaml: line 3: did not find expected ',' or ']' (line 3 is "width: [1, 2")`},
		{"unclosed list, keys after it", "timeout: 90s\npermissions:\n  allow: [Read\n  deny: []\nmodel: x\n",
			`: yaml: line 3: did not find expected ',' or ']' (line 3 is "allow: [Read")`},
		{"unclosed list after a good one", "allow: [Read,\n  Write]\ndeny: [x\nmodel: y\n", `: yaml: line 3: did not find expected ',' or ']'`},
		{"unclosed mapping", "a: 1\nb: {x: 1\nc: 2\n", `: yaml: line 2: did not find expected ',' or '}' (line 2 is "b: {x: 1")`},
		{"bad indentation", "tools:\n  Read:\n    a: 1\n   b: 2\n", `: yaml: line 4: did not find expected key (line 4 is "b: 2")`},
		{"a list item in a mapping", "a: 1\n- b\n", `: yaml: line 2: did not find expected key (line 2 is "- b")`},
		{"unclosed quote", "output: json\nlog_file: \"abc\n", ": yaml: line 2: found unexpected end of stream"},
		{"tab indentation", "tools:\n\tRead: {}\n",
			`: yaml: line 2, column 1: a tab in the indentation; YAML indents with spaces only (line 2 is "\tRead: {}")`},
		{"a tab on the first line", "\tmodel: x\n",
			`: yaml: line 1, column 1: a tab in the indentation; YAML indents with spaces only (line 1 is "\tmodel: x")`},
		{"a tab after spaces", "mcp:\n  servers:\n    git:\n  \t  command: git\n",
			`: yaml: line 4, column 3: a tab in the indentation; YAML indents with spaces only (line 4 is "  \t  command: git")`},
		{"a tab under a key", "model: x\n\tprovider: openai\n", `: yaml: line 2, column 1: a tab in the indentation`},
		{"a tab on a blank line", "a:\n  b: 1\n\t\n", `: yaml: line 3, column 1: a tab in the indentation`},
		{"a tab after a value is no indentation", "model: x\t\nb: [\n", `: yaml: line 2: did not find expected node content`},
		{"duplicate key", "timeout: 1\ntimeout: 2\n", `: yaml: line 2: mapping key "timeout" already defined at line 1`},
		{"same key in two cases", "Timeout: 1\ntimeout: 2\n", `: key "timeout" is written twice ("Timeout" and "timeout")`},
		{"a list at the top", "- a\n- b\n", `: line 1: the file must be a mapping of keys to values, such as "timeout: 90s"`},
		{"a scalar at the top", "hello\n", ": line 1: the file must be a mapping"},
		{"a mapping as a key", "? {a: 1}\n: x\n", ": yaml: line 1: cannot unmarshal !!map into string"},
		{"tools not a mapping", "tools: [Read]\n", ": tools: want a mapping of tool names to sections"},
		{"tool section not a mapping", "tools:\n  Read: 5\n", ": tools.Read: want a mapping of settings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			p := f.write("config.yaml", tt.content)
			got := f.loadErr(p)
			if !strings.HasPrefix(got, "config file "+p+": ") {
				t.Errorf("error %q does not start with the file's name", got)
			}
			wantContains(t, got, tt.want)
		})
	}
}

func TestEmptyAndNullFiles(t *testing.T) {
	for _, content := range []string{"", "\n", "# only a comment\n", "~\n", "---\n", "tools:\nmcp:\n"} {
		f := newFixture(t)
		p := f.write("config.yaml", content)
		c := f.load(p)
		if c.File != p || c.Timeout != 120*time.Second || len(c.Warnings) != 0 {
			t.Errorf("%q: File %q Timeout %v Warnings %v", content, c.File, c.Timeout, c.Warnings)
		}
	}
}

func TestBadValues(t *testing.T) {
	tests := []struct {
		name string
		file string
		env  map[string]string
		args []string
		want string // the whole message; FILE is replaced by the file's path
	}{
		{
			name: "timeout abc in the file", file: "timeout: abc\n",
			want: `config file FILE: invalid timeout "abc": want a duration such as 90s or 2m, or a number of seconds`,
		},
		{
			name: "timeout abc in the environment", env: map[string]string{"FORGE_TIMEOUT": "abc"},
			want: `FORGE_TIMEOUT: invalid timeout "abc": want a duration such as 90s or 2m, or a number of seconds`,
		},
		{
			name: "timeout abc as a flag", args: []string{"--timeout", "abc"},
			want: `--timeout: invalid timeout "abc": want a duration such as 90s or 2m, or a number of seconds`,
		},
		{name: "negative timeout", args: []string{"--timeout=-5s"}, want: `--timeout: invalid timeout "-5s": must be positive`},
		{name: "zero timeout", file: "timeout: 0\n", want: `config file FILE: invalid timeout "0": must be positive`},
		{name: "huge timeout", file: "timeout: 1e300\n", want: `config file FILE: invalid timeout "1e+300": too long`},
		{name: "timeout mapping", file: "timeout: {a: 1}\n", want: `config file FILE: invalid timeout "{...}": want a duration`},
		{name: "timeout list", file: "timeout: [1]\n", want: `config file FILE: invalid timeout "[1]": want a duration`},
		{
			name: "output xml", args: []string{"-o", "xml"},
			want: `--output: invalid output "xml": must be one of text, json`,
		},
		{
			name: "output xml in the file", file: "output: xml\n",
			want: `config file FILE: invalid output "xml": must be one of text, json`,
		},
		{
			name: "negative width", args: []string{"--width=-1"},
			want: `--width: invalid width "-1": must be 0 (detect) or at least 40 columns`,
		},
		{name: "width text", file: "width: wide\n", want: `config file FILE: invalid width "wide": want a whole number`},
		{name: "width fraction", file: "width: 1.5\n", want: `config file FILE: invalid width "1.5": want a whole number`},
		{
			name: "log level", env: map[string]string{"FORGE_LOG_LEVEL": "verbose"},
			want: `FORGE_LOG_LEVEL: invalid log_level "verbose": must be one of debug, info, warn, error, off`,
		},
		{
			name: "max output size", file: "max_output_size: 0\n",
			want: `config file FILE: invalid max_output_size "0": must be a positive number of bytes`,
		},
		{
			name: "history capacity", env: map[string]string{"FORGE_HISTORY_CAPACITY": "-1"},
			want: `FORGE_HISTORY_CAPACITY: invalid history_capacity "-1": must be 0 (keep none) or more`,
		},
		{name: "dry run", file: "dry_run: maybe\n", want: `config file FILE: invalid dry_run "maybe": want true or false`},
		{name: "dry run number", file: "dry_run: 2\n", want: `config file FILE: invalid dry_run "2": want true or false`},
		{name: "log file list", file: "log_file: [a]\n", want: `config file FILE: invalid log_file "[a]": want a string`},
		{name: "allowed roots map", file: "allowed_roots: {a: 1}\n", want: `config file FILE: invalid allowed_roots "{...}": want a list of strings`},
		{name: "allowed roots nested", file: "allowed_roots: [[a]]\n", want: `config file FILE: invalid allowed_roots "[[a]]": want a list of strings`},
		{
			name: "working dir missing", args: []string{"-C", "nowhere"},
			want: `--working-dir: invalid working_dir "nowhere": no such directory`,
		},
		{
			name: "working dir is a file", file: "working_dir: config.yaml\n",
			want: `config file FILE: invalid working_dir "config.yaml": not a directory`,
		},
		{
			name: "~ in a path without HOME", env: map[string]string{"HOME": ""}, file: "history_file: ~/h\n",
			want: `config file FILE: invalid history_file "~/h": cannot expand "~": HOME is not set`,
		},
		{
			name: "~ in --plugins-dir without HOME", env: map[string]string{"HOME": ""}, args: []string{"--plugins-dir", "~/p"},
			want: `--plugins-dir: invalid plugin_dirs "~/p": cannot expand "~": HOME is not set`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			for k, v := range tt.env {
				f.env[k] = v
			}
			p := f.write("config.yaml", tt.file)
			got := f.loadErr(p, tt.args...)
			want := strings.ReplaceAll(tt.want, "FILE", p)
			if !strings.HasPrefix(got, want) {
				t.Errorf("error\n %q\nwant\n %q", got, want)
			}
		})
	}
}

func TestValueErrorType(t *testing.T) {
	f := newFixture(t)
	_, err := Load(f.source("", "--timeout", "abc"))
	var ve *ValueError
	if !errors.As(err, &ve) || ve.Key != "timeout" || ve.Source != "--timeout" || ve.Value != "abc" {
		t.Errorf("error %#v, want a *ValueError for timeout from --timeout", err)
	}
}

func TestValueForms(t *testing.T) {
	tests := []struct {
		file string
		get  func(Config) any
		want any
	}{
		{"timeout: 120\n", func(c Config) any { return c.Timeout }, 120 * time.Second},
		{"timeout: 1.5\n", func(c Config) any { return c.Timeout }, 1500 * time.Millisecond},
		{"timeout: '30'\n", func(c Config) any { return c.Timeout }, 30 * time.Second},
		{"timeout: 1m30s\n", func(c Config) any { return c.Timeout }, 90 * time.Second},
		{"output: JSON\n", func(c Config) any { return c.Output }, "json"},
		{"log_level: ' Info '\n", func(c Config) any { return c.LogLevel }, "info"},
		{"width: '80'\n", func(c Config) any { return c.Width }, 80},
		{"width: 80.0\n", func(c Config) any { return c.Width }, 80},
		{"dry_run: 'on'\n", func(c Config) any { return c.DryRun }, true},
		{"dry_run: 1\n", func(c Config) any { return c.DryRun }, true},
		{"log_file: 42\n", func(c Config) any { return filepath.Base(c.LogFile) }, "42"},
		{"Output: json\n", func(c Config) any { return c.Output }, "json"},
	}
	for _, tt := range tests {
		f := newFixture(t)
		c := f.load(f.write("c.yaml", tt.file))
		if got := tt.get(c); got != tt.want {
			t.Errorf("%q: got %v, want %v", tt.file, got, tt.want)
		}
	}
}

func TestPaths(t *testing.T) {
	f := newFixture(t)
	f.env["XDG_STATE_HOME"] = "/state"
	p := f.write("c.yaml", "allowed_roots: [/srv, ~/projects, rel, '']\nlog_file: logs/forge.log\nhistory_file: ~/h\n")
	c := f.load(p)
	if want := []string{"/srv", filepath.Join(f.home, "projects"), filepath.Join(f.cwd, "rel")}; !reflect.DeepEqual(c.AllowedRoots, want) {
		t.Errorf("AllowedRoots = %v, want %v", c.AllowedRoots, want)
	}
	if want := filepath.Join(f.cwd, "logs", "forge.log"); c.LogFile != want {
		t.Errorf("LogFile = %q, want %q", c.LogFile, want)
	}
	if want := filepath.Join(f.home, "h"); c.HistoryFile != want {
		t.Errorf("HistoryFile = %q, want %q", c.HistoryFile, want)
	}
	c = f.load("")
	if c.HistoryFile != "/state/forge/history" {
		t.Errorf("HistoryFile with XDG_STATE_HOME = %q", c.HistoryFile)
	}
	f.env["FORGE_ALLOWED_ROOTS"] = "/a:/b"
	if c := f.load(""); !reflect.DeepEqual(c.AllowedRoots, []string{"/a", "/b"}) {
		t.Errorf("FORGE_ALLOWED_ROOTS split into %v", c.AllowedRoots)
	}
}

func TestPluginDirs(t *testing.T) {
	f := newFixture(t)
	def := filepath.Join(f.home, ".config", "forge", "plugins")
	if got := f.load("", "--plugins-dir", "/p1", "--plugins-dir", "p2").PluginDirs; !reflect.DeepEqual(got, []string{def, "/p1", filepath.Join(f.cwd, "p2")}) {
		t.Errorf("--plugins-dir twice: %v, want the default and both", got)
	}
	p := f.write("c.yaml", "plugin_dirs: [/f]\n")
	if got := f.load(p).PluginDirs; !reflect.DeepEqual(got, []string{"/f"}) {
		t.Errorf("file: %v, want [/f]", got)
	}
	f.env["FORGE_PLUGIN_DIRS"] = "/e1:/e2"
	if got := f.load(p, "--plugins-dir=/x").PluginDirs; !reflect.DeepEqual(got, []string{"/e1", "/e2", "/x"}) {
		t.Errorf("env and flag: %v", got)
	}
	p = f.write("none.yaml", "plugin_dirs: []\n")
	delete(f.env, "FORGE_PLUGIN_DIRS")
	if got := f.load(p).PluginDirs; len(got) != 0 {
		t.Errorf("plugin_dirs: [] gave %v", got)
	}
}

func TestWarnings(t *testing.T) {
	f := newFixture(t)
	p := f.write("c.yaml", "timout: 5\nworking-dir: /x\nzzz: 1\nmcp:\n  server: {}\n")
	c := f.load(p)
	want := []string{
		`config file ` + p + `: unknown key "timout" (did you mean "timeout"?)`,
		`config file ` + p + `: unknown key "working-dir" (did you mean "working_dir"?)`,
		`config file ` + p + `: unknown key "zzz"`,
		`config file ` + p + `: unknown key "mcp.server" (did you mean "mcp.servers"?)`,
	}
	if !reflect.DeepEqual(c.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant\n%s", strings.Join(c.Warnings, "\n"), strings.Join(want, "\n"))
	}
	if c.Timeout != 120*time.Second {
		t.Errorf("a misspelt key changed timeout to %v", c.Timeout)
	}
}

// TestNestedWarnings: unknown keys inside the read and permissions sections, and a
// nested key written at the top level, are named with the key they were probably
// meant to be.
func TestNestedWarnings(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"read: {alow_outside: false}\n", `unknown key "read.alow_outside" (did you mean "read.allow_outside"?)`},
		{"permissions: {denny: [Bash]}\n", `unknown key "permissions.denny" (did you mean "permissions.deny"?)`},
		{"allow_outside: false\n", `unknown key "allow_outside" (did you mean "read.allow_outside"?)`},
		{"deny: [Bash]\n", `unknown key "deny" (did you mean "permissions.deny"?)`},
		{"max-turns: 5\n", `unknown key "max-turns" (did you mean "max_turns"?)`},
		{"modle: gpt-4o\n", `unknown key "modle" (did you mean "model"?)`},
		{"aproval: yolo\n", `unknown key "aproval" (did you mean "approval"?)`},
		{"mcp: {servers: {x: {url: 'http://h', header: {A: b}}}}\n", `unknown key "mcp.servers.x.header" (did you mean "mcp.servers.x.headers"?)`},
	}
	for _, tt := range tests {
		f := newFixture(t)
		p := f.write("c.yaml", tt.yaml)
		c := f.load(p)
		if want := []string{"config file " + p + ": " + tt.want}; !reflect.DeepEqual(c.Warnings, want) {
			t.Errorf("%q: warnings\n%q\nwant\n%q", tt.yaml, c.Warnings, want)
		}
	}
}

// TestKeysDifferingOnlyInCase: inside a section, as at the top, a key written twice
// in different cases is an error: which one wins would be left to map order.
func TestKeysDifferingOnlyInCase(t *testing.T) {
	tests := []struct{ yaml, want string }{
		{"mcp:\n  servers:\n    x: {command: a, Command: b}\n", `mcp.servers.x: key "command" is written twice ("Command" and "command")`},
		{"mcp:\n  servers: {}\n  Servers: {}\n", `mcp: key "servers" is written twice ("Servers" and "servers")`},
		{"tools:\n  Read:\n    rate: {per_second: 1, Per_Second: 2}\n", `tools.Read.rate: key "per_second" is written twice ("Per_Second" and "per_second")`},
		{"permissions: {allow: [a], Allow: [b]}\n", `permissions: key "allow" is written twice ("Allow" and "allow")`},
		{"read: {allow_outside: true, Allow_Outside: false}\n", `read: key "allow_outside" is written twice ("Allow_Outside" and "allow_outside")`},
		{"read: {allow_outside: true}\nread.allow_outside: false\n", `key "read.allow_outside" is written twice`},
	}
	for _, tt := range tests {
		f := newFixture(t)
		p := f.write("c.yaml", tt.yaml)
		got := f.loadErr(p)
		if want := "config file " + p + ": " + tt.want; !strings.HasPrefix(got, want) {
			t.Errorf("%q: error\n %q\nwant\n %q", tt.yaml, got, want)
		}
	}
}

func TestLoadWithProcessDefaults(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("FORGE_TIMEOUT", "33")
	c, err := Load(Source{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Timeout != 33*time.Second || c.WorkingDir == "" || c.HistoryFile != filepath.Join(home, ".local", "state", "forge", "history") {
		t.Errorf("Load(Source{}) = %+v", c)
	}
	if DefaultConfigFile(nil) != filepath.Join(home, ".config", "forge", "config.yaml") {
		t.Errorf("DefaultConfigFile(nil) = %q", DefaultConfigFile(nil))
	}
}

func TestGetwdError(t *testing.T) {
	_, err := Load(Source{Env: func(string) (string, bool) { return "", false }, Getwd: func() (string, error) {
		return "", errors.New("gone")
	}})
	if err == nil || err.Error() != "current directory: gone" {
		t.Errorf("error %v, want current directory: gone", err)
	}
}

func TestAddFlags(t *testing.T) {
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	AddFlags(fs)
	AddFlags(fs) // twice is harmless
	for _, name := range []string{"config", "working-dir", "timeout", "dry-run", "output", "log-level", "log-file", "no-color", "width", "plugins-dir", "fail-fast",
		"provider", "model", "base-url", "approval", "max-turns", "loop-detection", "tool-format", "system-prompt"} {
		if fs.Lookup(name) == nil {
			t.Errorf("flag --%s missing", name)
		}
	}
	for short, long := range map[string]string{"C": "working-dir", "o": "output"} {
		if f := fs.ShorthandLookup(short); f == nil || f.Name != long {
			t.Errorf("-%s is not --%s", short, long)
		}
	}
}

// TestForeignFlagTypes: a shell that registered a flag with another pflag type (a
// Duration --timeout) still has it read.
func TestForeignFlagTypes(t *testing.T) {
	f := newFixture(t)
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.Duration("timeout", 0, "")
	fs.StringSlice("plugins-dir", nil, "")
	AddFlags(fs)
	if err := fs.Parse([]string{"--timeout", "45s", "--plugins-dir", "/a,/b"}); err != nil {
		t.Fatal(err)
	}
	c, err := Load(Source{Flags: fs, Env: f.lookup, Getwd: func() (string, error) { return f.cwd, nil }})
	if err != nil {
		t.Fatal(err)
	}
	if c.Timeout != 45*time.Second {
		t.Errorf("Timeout = %v", c.Timeout)
	}
	if n := len(c.PluginDirs); n != 3 {
		t.Errorf("PluginDirs = %v, want the default, /a and /b", c.PluginDirs)
	}
}

func TestDefaultPaths(t *testing.T) {
	env := func(m map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	tests := []struct {
		env                   map[string]string
		config, history, plug string
	}{
		{map[string]string{"HOME": "/h"}, "/h/.config/forge/config.yaml", "/h/.local/state/forge/history", "/h/.config/forge/plugins"},
		{map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_STATE_HOME": "/s"}, "/c/forge/config.yaml", "/s/forge/history", "/c/forge/plugins"},
		{map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "", "XDG_STATE_HOME": "s"}, "/h/.config/forge/config.yaml", "/h/.local/state/forge/history", "/h/.config/forge/plugins"},
		{map[string]string{}, "", "", ""},
	}
	for _, tt := range tests {
		e := env(tt.env)
		if got := DefaultConfigFile(e); got != tt.config {
			t.Errorf("%v: DefaultConfigFile = %q, want %q", tt.env, got, tt.config)
		}
		if got := DefaultHistoryFile(e); got != tt.history {
			t.Errorf("%v: DefaultHistoryFile = %q, want %q", tt.env, got, tt.history)
		}
		if got := DefaultPluginDir(e); got != tt.plug {
			t.Errorf("%v: DefaultPluginDir = %q, want %q", tt.env, got, tt.plug)
		}
	}
}

// BenchmarkLoad measures Load with a typical config file: it runs at every start of
// forge, so it counts towards the start-up time of `forge tools -o json`.
func BenchmarkLoad(b *testing.B) {
	f := &fixture{cwd: b.TempDir(), home: b.TempDir()}
	f.env = map[string]string{"HOME": f.home}
	p := filepath.Join(f.cwd, "config.yaml")
	if err := os.WriteFile(p, []byte("timeout: 90s\noutput: json\n"+toolsYAML+mcpYAML), 0o644); err != nil {
		b.Fatal(err)
	}
	fs := pflag.NewFlagSet("forge", pflag.ContinueOnError)
	AddFlags(fs)
	if err := fs.Parse([]string{"--dry-run", "-o", "text"}); err != nil {
		b.Fatal(err)
	}
	src := Source{File: p, Flags: fs, Env: f.lookup, Getwd: func() (string, error) { return f.cwd, nil }}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(src); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExampleConfig: the repository's example configuration loads without an error
// or a warning, so it keeps up with the keys.
func TestExampleConfig(t *testing.T) {
	p, err := filepath.Abs(filepath.Join("..", "..", "examples", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	c := f.load(p)
	if len(c.Warnings) != 0 || len(c.MCP.Servers) == 0 {
		t.Errorf("warnings %q, servers %v", c.Warnings, c.MCP.Servers)
	}
}

// TestREADMEConfig: the README's sample configuration loads without a warning and
// shows every key, so the documentation keeps up with the keys.
func TestREADMEConfig(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "### Configuration")
	if !ok {
		t.Fatal("README has no Configuration section")
	}
	_, after, ok = strings.Cut(after, "```yaml\n")
	sample, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok2 {
		t.Fatal("the Configuration section has no yaml block")
	}
	f := newFixture(t)
	if err := os.MkdirAll(filepath.Join(f.home, "src", "project"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := f.load(f.write("readme.yaml", sample))
	if len(c.Warnings) != 0 {
		t.Errorf("the README's sample warns: %q", c.Warnings)
	}
	for _, k := range append(topKeys(), slices.Concat(groupFields("read"), []string{"mode", "writable", "caches", "network", "allow"},
		permissionFields, []string{"url", "headers"})...) {
		if !strings.Contains(sample, k+":") {
			t.Errorf("the README's sample does not show %s", k)
		}
	}
}

// TestFileLimits: a file no configuration could need is refused quickly, with its
// name, rather than parsed for minutes (the YAML decoder compares a mapping's keys
// pairwise) or read without end.
func TestFileLimits(t *testing.T) {
	f := newFixture(t)
	var many strings.Builder
	for i := range maxMappingKeys + 1 {
		fmt.Fprintf(&many, "    k%d: 1\n", i)
	}
	tests := []struct{ name, content, want string }{
		{"too large", "# " + strings.Repeat("x", maxFileSize) + "\n", fmt.Sprintf("larger than %d bytes", maxFileSize)},
		{"too many keys", "tools:\n  Read:\n" + many.String(), fmt.Sprintf("line 3: a mapping of %d keys; forge reads at most %d", maxMappingKeys+1, maxMappingKeys)},
	}
	for _, tt := range tests {
		p := f.write("big.yaml", tt.content)
		wantContains(t, f.loadErr(p), "config file "+p+": ", tt.want)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		wantContains(t, f.loadErr("/dev/zero"), "config file /dev/zero: ", "larger than")
	}
	var most strings.Builder
	for i := range maxMappingKeys {
		fmt.Fprintf(&most, "    k%d: 1\n", i)
	}
	if c := f.load(f.write("most.yaml", "tools:\n  Read:\n"+most.String())); len(c.ToolSection("Read")) != maxMappingKeys {
		t.Errorf("a mapping of %d keys was not read whole", maxMappingKeys)
	}
}

// BenchmarkLoadLargestFile measures Load at its bounds: a file just under
// maxFileSize of tool sections of maxMappingKeys keys each, and a top level of
// maxMappingKeys unknown keys (each one warned with a suggestion). Nearly all of
// its time is the YAML library's; it takes about a second where, without the
// bounds, a file of that size took minutes.
func BenchmarkLoadLargestFile(b *testing.B) {
	var y strings.Builder
	for i := range maxMappingKeys - 1 {
		fmt.Fprintf(&y, "unknown_%d: 1\n", i)
	}
	y.WriteString("tools:\n")
	for t := 0; y.Len() < maxFileSize-20000; t++ {
		fmt.Fprintf(&y, "  T%d:\n", t)
		for i := range maxMappingKeys {
			fmt.Fprintf(&y, "    k%d: 1\n", i)
		}
	}
	data := []byte(y.String())
	fx := &fixture{cwd: b.TempDir(), home: "/h", env: map[string]string{"HOME": "/h"}}
	src := Source{Env: fx.lookup, Getwd: func() (string, error) { return fx.cwd, nil }}.withDefaults()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := load(src, resolver{cwd: fx.cwd, home: fx.home}, "/big.yaml", data); err != nil {
			b.Fatal(err)
		}
	}
}
