package repl

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// funcTool is a test tool: its parameters and a function.
type funcTool struct {
	name, desc string
	cat        tools.Category
	params     []tools.Parameter
	run        func(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result
}

func (f funcTool) Name() string                  { return f.name }
func (f funcTool) Description() string           { return f.desc }
func (f funcTool) Category() tools.Category      { return f.cat }
func (f funcTool) Parameters() []tools.Parameter { return f.params }
func (f funcTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	return f.run(ctx, ec, args)
}

// testRegistry holds small tools whose behaviour the tests control.
func testRegistry(t testing.TB) *tools.Registry {
	t.Helper()
	reg := tools.NewRegistry()
	textParams := []tools.Parameter{
		{Name: "text", Type: tools.TypeString, Description: "Text to echo", Required: true},
		{Name: "count", Type: tools.TypeInteger, Description: "Times to repeat", Minimum: tools.Float(1), Maximum: tools.Float(3)},
	}
	echo := funcTool{"echo", "Echo the text", tools.CategoryOther, textParams,
		func(_ context.Context, _ tools.ExecutionContext, a tools.Args) tools.Result {
			n := max(a.Int("count"), 1)
			text := a.String("text")
			return tools.OK(strings.Repeat(text, n), "bytes", len(text)*n)
		}}
	size := funcTool{"size", "Report the length of text", tools.CategoryOther, textParams,
		func(_ context.Context, _ tools.ExecutionContext, a tools.Args) tools.Result {
			return tools.OK(fmt.Sprint(len(a.String("text"))))
		}}
	wait := funcTool{"wait", "Wait until cancelled", tools.CategoryExecution, nil,
		func(ctx context.Context, _ tools.ExecutionContext, _ tools.Args) tools.Result {
			<-ctx.Done()
			return tools.Fail(ctx.Err().Error())
		}}
	ask := funcTool{"ask", "Ask the person", tools.CategoryTask,
		[]tools.Parameter{{Name: "question", Type: tools.TypeString}},
		func(ctx context.Context, ec tools.ExecutionContext, a tools.Args) tools.Result {
			if ec.Asker == nil {
				return tools.Fail("no asker")
			}
			answer, err := ec.Asker.Ask(ctx, a.String("question"))
			if err != nil {
				return tools.Fail(err.Error())
			}
			return tools.OK("answer: " + answer)
		}}
	if err := reg.RegisterMany(echo, size, wait, ask); err != nil {
		t.Fatal(err)
	}
	return reg
}

// runForge runs forge with args and stdin on the test registry.
func runForge(t testing.TB, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runApp(t, testRegistry(t), stdin, args...)
}

// runApp runs forge in a fresh home and working directory, on reg, or with
// its real start-up (built-in tools and extensions) when reg is nil.
func runApp(t testing.TB, reg *tools.Registry, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "XDG_STATE_HOME": dir, DeterministicEnv: "1"}
	app := &App{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Getwd:     func() (string, error) { return dir, nil },
		Registry:  reg,
	}
	code = app.Run(context.Background(), args)
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
		{"all succeed", nil, "# comment\n\n/run echo text=hi\necho text=there count=2\n", 0, []string{"hi", "therethere"}, nil},
		{"one fails", nil, "/run echo\n/run echo text=ok\n", 1, []string{"Missing required parameter: text", "ok"}, nil},
		{"fail fast", []string{"--fail-fast"}, "/nope\n/run echo text=never\n", 1, nil, []string{"Unknown command: /nope."}},
		{"exit stops", nil, "/exit\n/nope\n", 0, nil, nil},
		{"crlf", nil, "/run echo text=crlf\r\n", 0, []string{"│ crlf "}, nil},
		{"no final newline", nil, "/run echo text=last", 0, []string{"last"}, nil},
		{"dash c", []string{"-c", "/run echo count=9 text=x"}, "", ExitUsage, []string{"Value for count exceeds maximum: 3"}, nil},
		{"ask reads next line", nil, "/run ask question=name?\nAda\n/run echo text=after\n", 0, []string{"answer: Ada", "after"}, nil},
		{"tabs and control bytes are data", nil, "/run echo text=\"a\\tb\"\n/run echo text=\x01x\n", 0, []string{"a       b", "^Ax"}, nil},
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

// Every answered line of a JSON session is exactly one JSON object.
func TestJSONSessionEveryLineParses(t *testing.T) {
	script := strings.Join([]string{
		"/help", "/help run", "/tools", "/tools echo", "/tools Nope", "/tools --category bogus",
		"/run echo text=<&>", "/run echo", "/run Nope", "/run echo text=\"unterminated",
		"/schema", "/schema echo --format anthropic", "/schema --format xml",
		"/history", "/history 1 --failed", "/context", "/registry", "/set", "/set dry_run true",
		"/run echo text=dry", "/set timeout never", "/frob", "frob", "# comment", "", "/history --clear", "/exit",
	}, "\n")
	code, out, errOut := runForge(t, script, "-o", "json")
	if code != ExitFailed {
		t.Errorf("status %d, want 1", code)
	}
	if errOut != "" {
		t.Errorf("stderr not empty in JSON mode: %q", errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if want := 25; len(lines) != want { // 27 lines, minus the comment and the blank one
		t.Errorf("%d answers, want %d:\n%s", len(lines), want, out)
	}
	for i, l := range lines {
		var v map[string]any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Errorf("line %d is not a JSON object: %v\n%s", i+1, err, l)
		}
	}
	if !strings.Contains(out, `"output":"<&>"`) {
		t.Errorf("HTML characters escaped or lost:\n%s", out)
	}
	if !strings.Contains(out, `"status":"dry_run"`) {
		t.Errorf("dry run not applied:\n%s", out)
	}
}

// Lines of 17 MiB pass; a line over the limit is a clear error and the
// session goes on.
func TestLongLines(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates tens of MiB")
	}
	big := strings.Repeat("x", 17<<20)
	code, out, errOut := runForge(t, "/run size text="+big+"\n/run echo text=next\n")
	if code != 0 || !strings.Contains(out, fmt.Sprint(17<<20)) || !strings.Contains(out, "next") {
		t.Fatalf("17 MiB line: status %d\nstdout: %.500s\nstderr: %s", code, out, errOut)
	}

	var stdout, stderr bytes.Buffer
	s := testShell(t, &stdout, &stderr)
	code = s.runScript(context.Background(), strings.NewReader("/run echo text="+strings.Repeat("y", 100)+"\n/run echo text=next\n"), false, 64)
	if code != ExitFailed {
		t.Errorf("status %d, want 1", code)
	}
	if want := "Error: Line 1 is longer than 64 bytes and was skipped"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q lacks %q", stderr.String(), want)
	}
	if !strings.Contains(stdout.String(), "next") {
		t.Errorf("the session stopped after the long line:\n%s", stdout.String())
	}
}

// testShell returns a shell over the test registry, set up with defaults.
func testShell(t testing.TB, out, errOut *bytes.Buffer) *Shell {
	t.Helper()
	dir := t.TempDir()
	app := &App{Stdin: strings.NewReader(""), Stdout: out, Stderr: errOut,
		LookupEnv: func(k string) (string, bool) {
			if k == "XDG_CONFIG_HOME" || k == "HOME" {
				return dir, true
			}
			return "", false
		},
		Getwd: func() (string, error) { return dir, nil }, Registry: testRegistry(t)}
	root := app.RootCommand()
	if err := app.setup(context.Background(), root, false); err != nil {
		t.Fatal(err)
	}
	s := newShell(app)
	s.noSignals = true
	return s
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
		if got := resultStatus(tt.r); got != tt.want {
			t.Errorf("resultStatus(%+v) = %d, want %d", tt.r, got, tt.want)
		}
	}
}

func TestComplete(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	tests := []struct {
		line string
		want []string // suffixes
		n    int
	}{
		{"/to", []string{"ols "}, 3},
		{"/run ec", []string{"ho "}, 2},
		{"/run echo ", []string{"text=", "count="}, 0},
		{"/run echo te", []string{"xt="}, 2},
		{"/run echo text=a ", []string{"count="}, 0},
		{"echo c", []string{"ount="}, 1},
		{"/schema --format an", []string{"thropic "}, 2},
		{"/schema --category fi", []string{"le "}, 2},
		{"/tools --category no", []string{"tebook "}, 2},
		{"/set dr", []string{"y_run "}, 2},
		{"/set dry_run t", []string{"rue "}, 1},
		{"/set output ", []string{"json ", "text "}, 0},
		{"/help sch", []string{"ema "}, 3},
		{"/nope ", nil, 0},
		{`/run echo text="unterminated `, nil, 0},
	}
	for _, tt := range tests {
		got, n := s.Do([]rune(tt.line), len([]rune(tt.line)))
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
		}
		if strings.Join(gs, "|") != strings.Join(sortedCopy(tt.want), "|") || n != tt.n {
			t.Errorf("Do(%q) = %q, %d; want %q, %d", tt.line, gs, n, sortedCopy(tt.want), tt.n)
		}
	}
}

func sortedCopy(xs []string) []string {
	// Candidates come back sorted by their full text; for the cases above
	// that is the order of the suffixes too.
	return slices.Sorted(slices.Values(xs))
}

func TestPrompt(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	if p := s.prompt(); p != "forge> " {
		t.Errorf("prompt %q", p)
	}
	s.Exec(context.Background(), "/set dry_run true")
	if p := s.prompt(); p != "forge [dry-run]> " {
		t.Errorf("dry-run prompt %q", p)
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
