package app

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/commands"
)

// runForge runs forge with args and stdin, with its real start-up (built-in
// tools and extensions), in a fresh home and working directory, with a
// pinned clock.
func runForge(t testing.TB, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "XDG_STATE_HOME": dir}
	opts := Options{
		Clock:     func() time.Time { return time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC) },
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd:     func() (string, error) { return dir, nil },
	}
	code = Main(context.Background(), args, strings.NewReader(stdin), &out, &errb, opts)
	return code, out.String(), errb.String()
}

func TestScriptedStatus(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		code   int
		stdout []string
		stderr []string
	}{
		{"all succeed", nil, "# comment\n\n/run calculator operation=add a=1 b=2\n/run calculator operation=multiply a=6 b=7\n", 0, []string{"│ 3 ", "│ 42 "}, nil},
		{"one fails", nil, "/run calculator operation=add a=1\n/run calculator operation=add a=2 b=2\n", 1, []string{"Missing required parameter: b", "│ 4 "}, nil},
		{"fail fast", []string{"--fail-fast"}, "/nope\n/run calculator operation=add a=1 b=1\n", 1, nil, []string{"Unknown command: /nope."}},
		{"exit stops", nil, "/exit\n/nope\n", 0, nil, nil},
		{"crlf", nil, "/run calculator operation=add a=1 b=1\r\n", 0, []string{"│ 2 "}, nil},
		{"no final newline", nil, "/run calculator operation=add a=1 b=4", 0, []string{"│ 5 "}, nil},
		{"dash c", []string{"-c", "/run Read file_path=x limit=0"}, "", commands.ExitUsage, []string{"Value for limit is below minimum: 1"}, nil},
		{"ask reads next line", nil, "/run ask_question question=name?\nAda\n/run calculator operation=add a=1 b=1\n", 0, []string{"│ Ada ", "│ 2 "}, nil},
		{"control bytes are data", nil, "/run Bash command='printf \"a\\tb\\001x\"'\n", 0, []string{"a       b^Ax"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runForge(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errOut)
			}
			for _, want := range tt.stdout {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			for _, want := range tt.stderr {
				if !strings.Contains(errOut, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errOut)
				}
			}
			if strings.Contains(out, "\x1b[") {
				t.Errorf("escape sequences in scripted output:\n%q", out)
			}
		})
	}
}

// Every answered line of a JSON session is exactly one JSON object, and
// nothing goes to standard error.
func TestJSONSessionEveryLineParses(t *testing.T) {
	script := strings.Join([]string{
		"/help", "/help run", "/tools", "/tools Read", "/tools Nope", "/tools --category bogus",
		"/run Bash command=\"echo '<&>'\"", "/run Read", "/run Nope", "/run Read file_path=\"unterminated",
		"/schema", "/schema Read --format anthropic", "/schema --format xml",
		"/history", "/history 1 --failed", "/context", "/registry", "/set", "/set dry_run true",
		"/run Write file_path=x content=y", "/set timeout never", "/frob", "frob the widgets", "# comment", "", "/history --clear",
		"/version", "/mcp", "/plugins", "/exit",
	}, "\n")
	code, out, errOut := runForge(t, script, "-o", "json")
	if code != commands.ExitFailed {
		t.Errorf("status %d, want 1", code)
	}
	if errOut != "" {
		t.Errorf("stderr not empty in JSON mode: %q", errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if want := 28; len(lines) != want { // 30 lines, minus the comment and the blank one
		t.Errorf("%d answers, want %d:\n%s", len(lines), want, out)
	}
	for i, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Errorf("line %d is not a JSON object: %v\n%s", i+1, err, l)
		}
	}
	if !strings.Contains(out, `<&>`) {
		t.Errorf("HTML characters escaped or lost:\n%s", out)
	}
	if !strings.Contains(out, `"status":"dry_run"`) {
		t.Errorf("dry run not applied:\n%s", out)
	}
}

// Lines of 17 MiB pass through the whole shell.
func TestLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates tens of MiB")
	}
	big := strings.Repeat("x", 17<<20)
	code, out, errOut := runForge(t, "/run Write file_path=big.txt content="+big+"\n/run calculator operation=add a=1 b=1\n")
	if code != 0 || !strings.Contains(out, fmt.Sprint(17<<20)) || !strings.Contains(out, "│ 2 ") {
		t.Fatalf("17 MiB line: status %d\nstdout: %.500s\nstderr: %s", code, out, errOut)
	}
}

func TestJSONOutputBeforeSetup(t *testing.T) {
	tests := []struct {
		args []string
		env  string
		want bool
	}{
		{[]string{"run", "-o", "json"}, "", true},
		{[]string{"run", "--output=json"}, "", true},
		{[]string{"run", "-ojson"}, "", true},
		{[]string{"run", "-o=json"}, "", true},
		{[]string{"run", "-o", "json", "-o", "text"}, "", false},
		{[]string{"run"}, "json", true},
		{[]string{"run", "-o", "text"}, "json", false},
		{[]string{"run", "--", "-o", "json"}, "", false},
		{[]string{"run"}, "", false},
	}
	for _, tt := range tests {
		a := newApp(nil, nil, nil, Options{LookupEnv: func(k string) (string, bool) {
			if k == "FORGE_OUTPUT" && tt.env != "" {
				return tt.env, true
			}
			return "", false
		}})
		a.args = tt.args
		if got := a.jsonOutput(); got != tt.want {
			t.Errorf("jsonOutput(%q, FORGE_OUTPUT=%q) = %v, want %v", tt.args, tt.env, got, tt.want)
		}
	}
}

// examplePlugins is absolute: forge resolves --plugins-dir against its
// working directory, a temporary one here.
var examplePlugins, _ = filepath.Abs(filepath.Join("..", "..", "examples", "plugins"))

func TestPluginsCommand(t *testing.T) {
	code, out, errOut := runForge(t, "/plugins\n/run wordcount text=\"a b c\"\n/plugins reload\n", "--plugins-dir", examplePlugins)
	if code != commands.ExitOK {
		t.Fatalf("code %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"Plugins: 1 found", "✓ wordcount", "3 words"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = runForge(t, "", "--plugins-dir", examplePlugins, "-o", "json", "-c", "/plugins")
	var got struct {
		Plugins []struct {
			Name   string `json:"name"`
			Loaded bool   `json:"loaded"`
		} `json:"plugins"`
	}
	if code != commands.ExitOK || json.Unmarshal([]byte(out), &got) != nil || len(got.Plugins) != 1 || !got.Plugins[0].Loaded {
		t.Errorf("json: %d %s", code, out)
	}
	if code, out, _ := runForge(t, "", "--plugins-dir", examplePlugins, "plugins", "list"); code != 0 || !strings.Contains(out, "✓ wordcount") {
		t.Errorf("forge plugins list: %d %s", code, out)
	}
}

func TestPluginCollisionShowsPanel(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "read.yaml"), []byte("name: Read\ndescription: an impostor\ncommand: ./x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("name: bad\ndescription: d\ncommand: c\ncolour: red\n"), 0o644)
	code, out, errOut := runForge(t, "", "--plugins-dir", dir, "-c", "/plugins reload")
	if code != commands.ExitFailed {
		t.Errorf("code = %d", code)
	}
	if !strings.Contains(errOut, "Error: Registration Failed") || !strings.Contains(out, `Cannot register tool "Read": a tool with this name already exists.`) {
		t.Errorf("no registration panel:\nstdout %s\nstderr %s", out, errOut)
	}
	if !strings.Contains(errOut, "bad.yaml: colour: unknown field") {
		t.Errorf("no manifest error on stderr:\n%s", errOut)
	}
}

func TestMCPCommandWithoutServers(t *testing.T) {
	code, out, _ := runForge(t, "", "-c", "/mcp")
	if code != commands.ExitOK || !strings.Contains(out, "MCP servers: none configured") {
		t.Errorf("%d %s", code, out)
	}
	code, _, errOut := runForge(t, "", "-c", "/mcp reload nope")
	if code != commands.ExitUsage || !strings.Contains(errOut, "Unknown MCP server: nope") {
		t.Errorf("%d %s", code, errOut)
	}
	code, _, errOut = runForge(t, "", "-c", "/mcp frobnicate")
	if code != commands.ExitUsage || !strings.Contains(errOut, "Unknown /mcp argument: frobnicate") {
		t.Errorf("%d %s", code, errOut)
	}
}

// The second call's turn is 100 s away, beyond the plugin's own 10 s
// deadline, so it fails at once saying when to retry.
func TestRateLimitFromConfig(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "forge.yaml")
	os.WriteFile(cfg, []byte("tools:\n  wordcount:\n    rate: {per_second: 0.01, burst: 1}\n"), 0o644)
	code, out, errOut := runForge(t, "/run wordcount text=one\n/run wordcount text=two\n", "--config", cfg, "--plugins-dir", examplePlugins)
	if code != commands.ExitFailed || !strings.Contains(out, "1 words") || !strings.Contains(out, "Rate limit for wordcount exceeded: retry in") {
		t.Errorf("code %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

// A configured server that is not started at start-up has no tools
// registered yet; the first /run of one of its tools connects it (the lazy
// first use) instead of "Tool Not Found".
func TestRunConnectsMCPServerOnFirstUse(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the test MCP server")
	}
	dir := t.TempDir()
	server := filepath.Join(dir, "mcpserver")
	build := exec.Command("go", "build", "-o", server, "../mcp/testdata/mcpserver")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cfg := filepath.Join(dir, "forge.yaml")
	if err := os.WriteFile(cfg, []byte("mcp:\n  servers:\n    test:\n      command: "+server+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runForge(t, "/run mcp__test__echo text=hello-mcp\n/mcp\n", "--config", cfg, "-o", "json")
	if code != commands.ExitOK {
		t.Fatalf("code %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var res struct {
		Status string `json:"status"`
		Output string `json:"output"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &res); err != nil || res.Status != "success" || res.Output != "hello-mcp" {
		t.Errorf("first /run = %s (%v)", lines[0], err)
	}
	if len(lines) < 2 || !strings.Contains(lines[1], `"state":"connected"`) {
		t.Errorf("/mcp after the first use: %v", lines)
	}
}

// countingReader counts the reads of forge's randomness, which building
// the tool registry takes its id from.
type countingReader struct{ reads int }

func (r *countingReader) Read(p []byte) (int, error) {
	r.reads++
	for i := range p {
		p[i] = byte(i)
	}
	return len(p), nil
}

// forge --version builds no tool registry: it prints what forge version
// prints, and asks nothing of what only tools need.
func TestVersionBuildsNoRegistry(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		reads bool
	}{
		{[]string{"--version"}, false},
		{[]string{"version", "-o", "json"}, false},
		{[]string{"tools", "-o", "json"}, true},
	} {
		dir := t.TempDir()
		env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "XDG_STATE_HOME": dir}
		random := &countingReader{}
		var out, errb bytes.Buffer
		opts := Options{Random: random, LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
			Getwd: func() (string, error) { return dir, nil }}
		if code := Main(context.Background(), tc.args, strings.NewReader(""), &out, &errb, opts); code != 0 || out.Len() == 0 {
			t.Fatalf("forge %v: exit %d, %q %q", tc.args, code, out.String(), errb.String())
		}
		if (random.reads > 0) != tc.reads {
			t.Errorf("forge %v: %d reads of randomness, want some: %v", tc.args, random.reads, tc.reads)
		}
	}
}

// A command's help text is wrapped to 80 columns when its help is shown,
// by --help and by forge help alike.
func TestHelpWrappedWhenShown(t *testing.T) {
	for _, args := range [][]string{{"run", "--help"}, {"help", "run"}, {"sessions", "rm", "-h"}} {
		code, out, errOut := runForge(t, "", args...)
		if code != 0 || !strings.Contains(out, "Usage:") {
			t.Fatalf("forge %v: exit %d\n%s%s", args, code, out, errOut)
		}
		if args[0] != "sessions" && !strings.Contains(out, "Arguments are key=value words.") {
			t.Errorf("forge %v: no help text:\n%s", args, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "  ") || strings.HasPrefix(l, "Usage:") {
				continue // flags, examples and usage lines are cobra's own
			}
			if len([]rune(l)) > 80 {
				t.Errorf("forge %v: a help line over 80 columns: %q", args, l)
			}
		}
	}
}
