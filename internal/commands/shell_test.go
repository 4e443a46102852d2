package commands

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

func TestSet(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	env := s.Env()
	sub := filepath.Join(env.Exec.WorkingDir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key, val string
		err      string
		check    func() bool
	}{
		{"dry_run", "on", "", func() bool { return env.Exec.DryRun }},
		{"dry_run", "false", "", func() bool { return !env.Exec.DryRun }},
		{"dry_run", "maybe", `Invalid value for dry_run: "maybe" (use true or false)`, nil},
		{"timeout", "90s", "", func() bool { return env.Exec.Timeout == 90*time.Second }},
		{"timeout", "2.5", "", func() bool { return env.Exec.Timeout == 2500*time.Millisecond }},
		{"timeout", "0", "Invalid value for timeout", nil},
		{"timeout", "-1s", "Invalid value for timeout", nil},
		{"timeout", "soon", "Invalid value for timeout", nil},
		{"max_output_size", "5000", "", func() bool { return env.Exec.MaxOutputSize == 5000 }},
		{"max_output_size", "0", "Invalid value for max_output_size", nil},
		{"max_output_size", "many", "Invalid value for max_output_size", nil},
		{"output", "json", "", func() bool { return env.JSON() }},
		{"output", "text", "", func() bool { return !env.JSON() }},
		{"output", "yaml", `Invalid value for output: "yaml" (use text or json)`, nil},
		{"working_dir", "sub", "", func() bool { return env.Exec.WorkingDir == sub }},
		{"working_dir", "..", "", func() bool { return env.Exec.WorkingDir == filepath.Dir(sub) }},
		{"working_dir", "nowhere", "is not a directory", nil},
		{"timeot", "1s", "Unknown setting: timeot. Did you mean timeout?", nil},
	}
	for _, tt := range tests {
		err := set(env, tt.key, tt.val)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("set(%s, %s) error = %v, want %q", tt.key, tt.val, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("set(%s, %s): %v", tt.key, tt.val, err)
			continue
		}
		if !tt.check() {
			t.Errorf("set(%s, %s) did not take effect", tt.key, tt.val)
		}
	}
}

// /set output answers in the mode it was typed in, and what follows comes
// in the new one.
func TestSetOutputSwitchesPrinter(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	ctx := context.Background()
	s.Exec(ctx, "/set output json")
	s.Exec(ctx, "/run echo text=hi")
	s.Exec(ctx, "/set output text")
	got := out.String()
	if !strings.HasPrefix(got, "output = json\n") || !strings.Contains(got, `{"tool":"echo","status":"success"`) ||
		!strings.HasSuffix(got, `{"set":{"key":"output","value":"text"}}`+"\n") {
		t.Errorf("output:\n%s", got)
	}
}

func TestArgFileRelativeToWorkingDir(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	if err := os.WriteFile(filepath.Join(s.Env().Exec.WorkingDir, "msg.txt"), []byte("from a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := s.Exec(context.Background(), "/run echo text=@msg.txt"); code != 0 {
		t.Fatalf("status %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "from a file") {
		t.Errorf("file contents not passed:\n%s", out.String())
	}
	out.Reset()
	if code := s.Exec(context.Background(), `/run echo {"text": "json object"}`); code != 0 || !strings.Contains(out.String(), "json object") {
		t.Errorf("whole JSON object: status %d\n%s", code, out.String())
	}
}

func TestSchemaShapes(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	ctx := context.Background()
	if code := s.Exec(ctx, "/schema echo"); code != 0 || !strings.HasPrefix(out.String(), "{\n") {
		t.Errorf("one tool: status %d, want an object:\n%s", code, out.String())
	}
	out.Reset()
	if code := s.Exec(ctx, "/schema echo size --format anthropic"); code != 0 || !strings.HasPrefix(out.String(), "[\n") || !strings.Contains(out.String(), `"input_schema"`) {
		t.Errorf("two tools: status %d, want an array:\n%s", code, out.String())
	}
	out.Reset()
	if code := s.Exec(ctx, "/schema echo --category other"); code != ExitUsage {
		t.Errorf("names and --category: status %d, want 2", code)
	}
}

func TestCancelledRunStatus(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if code := s.Exec(ctx, "/run wait"); code != ExitCancelled {
		t.Fatalf("status %d, want %d\n%s", code, ExitCancelled, out.String())
	}
	if !strings.Contains(out.String(), "Cancelled") {
		t.Errorf("no cancelled panel:\n%s", out.String())
	}
}

func TestResultStatus(t *testing.T) {
	tests := []struct {
		r    tools.Result
		want int
	}{
		{tools.OK("x"), ExitOK},
		{tools.Result{Success: true, Status: tools.StatusDryRun}, ExitOK},
		{tools.Fail("boom"), ExitFailed},
		{tools.Result{Status: tools.StatusFailed, ErrorKind: tools.KindValidation}, ExitUsage},
		{tools.Result{Status: tools.StatusFailed, ErrorKind: tools.KindUnknownTool}, ExitUsage},
		{tools.Result{Status: tools.StatusTimedOut, ErrorKind: tools.KindTimeout}, ExitTimedOut},
		{tools.Result{Status: tools.StatusCancelled, ErrorKind: tools.KindCancelled}, ExitCancelled},
	}
	for _, tt := range tests {
		if got := ResultStatus(tt.r); got != tt.want {
			t.Errorf("ResultStatus(%+v) = %d, want %d", tt.r, got, tt.want)
		}
	}
}

func TestComplete(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	tests := []struct {
		line    string
		want    []string
		partial string
	}{
		{"/to", []string{"/todos ", "/tools "}, "/to"},
		{"/too", []string{"/tools "}, "/too"},
		{"/run ec", []string{"echo "}, "ec"},
		{"/run echo ", []string{"count=", "text="}, ""},
		{"/run echo te", []string{"text="}, "te"},
		{"/run echo text=a ", []string{"count="}, ""},
		{"echo c", nil, "c"},
		{"", nil, ""},
		{"/schema --format an", []string{"anthropic "}, "an"},
		{"/schema --category fi", []string{"file "}, "fi"},
		{"/schema --", []string{"--category ", "--format "}, "--"},
		{"/tools --category no", []string{"notebook "}, "no"},
		{"/set dr", []string{"dry_run "}, "dr"},
		{"/set dry_run t", []string{"true "}, "t"},
		{"/set output ", []string{"json ", "text "}, ""},
		{"/help sch", []string{"schema "}, "sch"},
		{"/history --", []string{"--clear ", "--failed "}, "--"},
		{"/mcp ", []string{"connect ", "list ", "login ", "logout ", "reload ", "resources "}, ""},
		{"/plugins re", []string{"reload "}, "re"},
		{"/nope ", nil, ""},
		{`/run echo text="unterminated `, nil, ""},
	}
	for _, tt := range tests {
		got, partial := s.Complete(tt.line)
		if !slices.Equal(got, tt.want) || partial != tt.partial {
			t.Errorf("Complete(%q) = %q, %q; want %q, %q", tt.line, got, partial, tt.want, tt.partial)
		}
	}
}

func TestPrompt(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	if p := s.Prompt(); p != "forge> " {
		t.Errorf("prompt %q", p)
	}
	s.Exec(context.Background(), "/set dry_run true")
	if p := s.Prompt(); p != "forge [dry-run]> " {
		t.Errorf("dry-run prompt %q", p)
	}
}

// Every command of the table is documented and reachable where it says.
func TestTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Table() {
		if seen[c.Name] {
			t.Errorf("%s declared twice", c.Name)
		}
		seen[c.Name] = true
		if c.Summary == "" || c.Usage == "" || !strings.HasPrefix(c.Usage, "/"+c.Name) {
			t.Errorf("%s: summary %q, usage %q", c.Name, c.Summary, c.Usage)
		}
		if c.Run == nil && c.Flags == nil && len(c.Subcommands) == 0 {
			t.Errorf("%s runs nothing", c.Name)
		}
		if strings.HasPrefix(c.CLIUsage(), "/") || strings.Contains(c.CLIUsage(), "/"+c.Name) {
			t.Errorf("%s: CLI usage %q still has the shell's slash", c.Name, c.CLIUsage())
		}
	}
}

// A session of many runs, for BENCHMARKS.md: go test -bench Session.
func BenchmarkSessionRun(b *testing.B) {
	var out, errOut bytes.Buffer
	s := testShell(b, &out, &errOut)
	line := "/run echo text=hello count=2"
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if s.Exec(context.Background(), line) != 0 {
			b.Fatal(errOut.String())
		}
	}
}

func BenchmarkParseArgLine(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseArgLine(`file_path=/tmp/x.txt offset=10 limit=20 edits=[{"old_string":"a b"}]`, testParams, nil); err != nil {
			b.Fatal(err)
		}
	}
}
