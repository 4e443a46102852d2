package plugin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// examplesDir holds the example plugin that docs/extending.md describes.
var examplesDir = filepath.Join("..", "..", "examples", "plugins")

// writePlugin writes an executable script and its manifest in dir and
// returns the manifest.
func writePlugin(t *testing.T, dir, name, script, extra string) *Manifest {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name+".sh"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		t.Fatal(err)
	}
	y := "name: " + name + "\ndescription: test plugin " + name + "\ncommand: ./" + name + ".sh\n" + extra
	path := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func run(t *testing.T, reg *tools.Registry, name string, ec tools.ExecutionContext, args tools.Args) tools.Result {
	t.Helper()
	return tools.NewExecutor(reg).Execute(context.Background(), name, ec, args)
}

func TestExamplePluginThroughExecutor(t *testing.T) {
	reg := tools.NewRegistry()
	mgr := NewManager(reg, []string{examplesDir})
	if err := mgr.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	ec := tools.NewExecutionContext(t.TempDir())
	r := run(t, reg, "wordcount", ec, tools.Args{"text": "one two three\nfour"})
	if !r.Success || r.Output != "4 words" {
		t.Fatalf("result = %+v", r)
	}
	if r.Metadata["lines"] != json.Number("2") || r.Metadata["plugin"] != "wordcount" {
		t.Errorf("metadata = %v", r.Metadata)
	}
	r = run(t, reg, "wordcount", ec, tools.Args{"text": "a\nb\nc", "unit": "lines"})
	if r.Output != "3 lines" {
		t.Errorf("lines: %+v", r)
	}
	// forge validates before running: the manifest's constraints apply.
	r = run(t, reg, "wordcount", ec, tools.Args{"text": ""})
	if r.ErrorKind != tools.KindValidation || r.Error != "Value for text is shorter than minimum length: 1" {
		t.Errorf("empty text: %+v", r)
	}
	r = run(t, reg, "wordcount", ec, tools.Args{"text": "x", "unit": "pages"})
	if r.ErrorKind != tools.KindValidation || !strings.HasPrefix(r.Error, "Invalid value for unit: must be one of") {
		t.Errorf("bad unit: %+v", r)
	}
	ec.DryRun = true
	r = run(t, reg, "wordcount", ec, tools.Args{"text": "x"})
	if r.Status != tools.StatusDryRun || !strings.Contains(r.Display(), "[Dry Run] Would run plugin wordcount") {
		t.Errorf("dry run: %+v", r)
	}
}

func TestPluginProtocol(t *testing.T) {
	dir := t.TempDir()
	ec := tools.NewExecutionContext(dir)
	for _, tc := range []struct {
		name, script string
		args         tools.Args
		ok           bool
		output       any
		errPrefix    string
	}{
		{"plain", "cat >/dev/null; echo hello", nil, true, "hello", ""},
		{"stdin", "cat", tools.Args{"a": "b"}, true, `{"a":"b"}`, ""},
		{"envarg", `printf '%s|%s' "$FORGE_ARG_A" "$FORGE_ARGS"`, tools.Args{"a": "b c"}, true, `b c|{"a":"b c"}`, ""},
		{"cwd", `pwd`, nil, true, dir, ""},
		{"reply", `echo '{"output": {"n": 1}, "metadata": {"k": "v"}}'`, nil, true, map[string]any{"n": json.Number("1")}, ""},
		{"reply error", `echo '{"error": "no such thing"}'`, nil, false, nil, "no such thing"},
		{"other json is text", `echo '{"result": 1}'`, nil, true, `{"result": 1}`, ""},
		{"exit", `echo partial; echo "disk on fire" >&2; exit 3`, nil, false, "partial", "Plugin exit failed with exit status 3\ndisk on fire"},
		{"exit with reply", `echo '{"error": "bad input"}'; exit 1`, nil, false, nil, "Plugin exit_with_reply failed with exit status 1: bad input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.ReplaceAll(tc.name, " ", "_")
			m := writePlugin(t, dir, name, tc.script, "parameters:\n  - {name: a, type: string}\n")
			reg := tools.NewRegistry()
			if err := reg.Register(newPlugin(m)); err != nil {
				t.Fatal(err)
			}
			r := run(t, reg, name, ec, tc.args)
			if r.Success != tc.ok {
				t.Fatalf("result = %+v", r)
			}
			if tc.output != nil && !equalJSON(r.Output, tc.output) {
				t.Errorf("output = %#v, want %#v", r.Output, tc.output)
			}
			if !strings.HasPrefix(r.Error, tc.errPrefix) {
				t.Errorf("error = %q, want prefix %q", r.Error, tc.errPrefix)
			}
		})
	}
}

func TestPluginTimeoutKillsGroup(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "child.pid")
	// The script starts a grandchild that would outlive a plain kill.
	m := writePlugin(t, dir, "sleepy", `sleep 30 & echo $! > `+pidFile+`; wait`, "timeout: 300ms\n")
	reg := tools.NewRegistry()
	if err := reg.Register(newPlugin(m)); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := run(t, reg, "sleepy", tools.NewExecutionContext(dir), nil)
	if r.Status != tools.StatusTimedOut || r.Error != "Tool timed out after 0.3s" {
		t.Errorf("result = %+v", r)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	deadline := time.Now().Add(5 * time.Second)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("grandchild %d still alive", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestPluginCancelDirect(t *testing.T) {
	dir := t.TempDir()
	m := writePlugin(t, dir, "slow", `sleep 30`, "")
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	r := newPlugin(m).Execute(ctx, tools.NewExecutionContext(dir), nil)
	if r.Status != tools.StatusCancelled {
		t.Errorf("result = %+v", r)
	}
}

func TestPluginOutputCap(t *testing.T) {
	dir := t.TempDir()
	m := writePlugin(t, dir, "chatty", `i=0; while [ $i -lt 2000 ]; do echo 0123456789012345678901234567890123456789; i=$((i+1)); done`, "")
	ec := tools.NewExecutionContext(dir)
	ec.MaxOutputSize = 1000
	r := newPlugin(m).Execute(context.Background(), ec, nil)
	out, _ := r.Output.(string)
	if !r.Success || !strings.HasPrefix(out, "0123") || !strings.Contains(out, "[output truncated: ") || len(out) > 1100 {
		t.Errorf("result = %d bytes, %+v", len(out), r.Metadata)
	}
	if r.Metadata["truncated"] != true {
		t.Errorf("metadata = %v", r.Metadata)
	}
}

func TestPluginMissingProgram(t *testing.T) {
	m, err := ParseManifest(filepath.Join(t.TempDir(), "m.yaml"), []byte("name: m\ndescription: d\ncommand: ./nowhere.sh\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := newPlugin(m).Execute(context.Background(), tools.NewExecutionContext(""), nil)
	if r.Success || !strings.Contains(r.Error, "Plugin m could not run") {
		t.Errorf("result = %+v", r)
	}
	m.Command = []string{"forge-no-such-program-anywhere"}
	r = newPlugin(m).Execute(context.Background(), tools.NewExecutionContext(""), nil)
	if r.Success || !strings.Contains(r.Error, "cannot run forge-no-such-program-anywhere") {
		t.Errorf("result = %+v", r)
	}
}

func TestParseReply(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Reply
	}{
		{"hello\n", Reply{Output: "hello"}},
		{"a\r\n", Reply{Output: "a"}},
		{"", Reply{Output: ""}},
		{`{"output": "x"}`, Reply{Output: "x"}},
		{`{"output": null, "error": null}`, Reply{}},
		{`{"output": 1} trailing`, Reply{Output: `{"output": 1} trailing`}},
		{`{"error": 5}`, Reply{Output: `{"error": 5}`}},
		{`{}`, Reply{Output: `{}`}},
		{"\xff\n", Reply{Output: "\uFFFD"}},
	} {
		got := parseReply([]byte(tc.in))
		if !equalJSON(got.Output, tc.want.Output) || got.Error != tc.want.Error {
			t.Errorf("parseReply(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}

func TestEnvName(t *testing.T) {
	for in, want := range map[string]string{"text": "TEXT", "file-path": "FILE_PATH", "a.b9": "A_B9"} {
		if got := envName(in); got != want {
			t.Errorf("envName(%q) = %q", in, got)
		}
	}
}

func BenchmarkPluginCall(b *testing.B) {
	reg := tools.NewRegistry()
	if err := NewManager(reg, []string{examplesDir}).Load(context.Background()); err != nil {
		b.Fatal(err)
	}
	ex := tools.NewExecutor(reg, tools.WithHistoryCapacity(0))
	ec := tools.NewExecutionContext(b.TempDir())
	for b.Loop() {
		if r := ex.Execute(context.Background(), "wordcount", ec, tools.Args{"text": "one two"}); !r.Success {
			b.Fatal(r)
		}
	}
}

// alive reports whether pid runs; a zombie (killed, not yet reaped by
// whoever inherited it) does not count.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: trust kill
	}
	i := strings.LastIndexByte(string(b), ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// BenchmarkPluginCallMinimal is the floor of a plugin call: one sh that
// prints a line.
func BenchmarkPluginCallMinimal(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "min.sh"), []byte("#!/bin/sh\necho ok\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	m, err := ParseManifest(filepath.Join(dir, "min.yaml"), []byte("name: min\ndescription: d\ncommand: ./min.sh\n"))
	if err != nil {
		b.Fatal(err)
	}
	p, ec := newPlugin(m), tools.NewExecutionContext(dir)
	for b.Loop() {
		if r := p.Execute(context.Background(), ec, nil); !r.Success {
			b.Fatal(r)
		}
	}
}

// newPlugin is the tool for m as a Manager without pass_env builds it.
func newPlugin(m *Manifest) *Plugin { return &Plugin{m: m} }

// lockedBuffer is a LiveOutput a test can read while a call writes to it.
type lockedBuffer struct {
	mu     sync.Mutex
	writes []string
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes = append(b.writes, string(p))
	return len(p), nil
}

// TestPluginStderrIsLive: what a plugin writes on standard error reaches
// the call's live output as it is written, and its result is unchanged.
func TestPluginStderrIsLive(t *testing.T) {
	dir := t.TempDir()
	m := writePlugin(t, dir, "slow", "echo 'step 1' >&2; sleep 0.1; echo 'step 2' >&2; echo done", "")
	reg := tools.NewRegistry()
	if err := reg.Register(newPlugin(m)); err != nil {
		t.Fatal(err)
	}
	live := &lockedBuffer{}
	ec := tools.NewExecutionContext(dir)
	ec.LiveOutput = live
	r := run(t, reg, "slow", ec, nil)
	if !r.Success || r.Output != "done" {
		t.Fatalf("result = %+v", r)
	}
	live.mu.Lock()
	defer live.mu.Unlock()
	if got := strings.Join(live.writes, ""); got != "step 1\nstep 2\n" || len(live.writes) != 2 {
		t.Errorf("live output %q, want two writes of step 1 and step 2", live.writes)
	}
}
