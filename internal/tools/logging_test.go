package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

type logEvent struct {
	Level     string `json:"level"`
	Message   string `json:"message"`
	Component string `json:"component"`
	Stack     string `json:"stack"`
}

func logEvents(t *testing.T, buf *bytes.Buffer) []logEvent {
	t.Helper()
	var out []logEvent
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if line == "" {
			continue
		}
		var ev logEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if ev.Component != "tools" {
			t.Errorf("log line %q lacks component tools", line)
		}
		out = append(out, ev)
	}
	return out
}

func loggedExecutor(t *testing.T, level zerolog.Level) (*Executor, *bytes.Buffer) {
	var buf bytes.Buffer
	r := NewRegistry()
	read := newTool("Read", CategoryFile,
		Parameter{Name: "file_path", Type: TypeString, Description: "d", Required: true},
		Parameter{Name: "limit", Type: TypeInteger, Description: "d"})
	read.run = func(_ context.Context, _ ExecutionContext, a Args) Result {
		if a.String("file_path") == "/missing" {
			return Fail("File not found: /missing")
		}
		return OK("1234")
	}
	boom := newTool("Bash", CategoryExecution)
	boom.run = func(context.Context, ExecutionContext, Args) Result {
		panic("OSError: [Errno 2] No such file or directory")
	}
	mustRegister(t, r, read, boom)
	return NewExecutor(r, WithLogger(zerolog.New(&buf).Level(level))), &buf
}

// Scenario: Log tool execution start
// Scenario: Log successful execution
// Scenario: Log failed execution
func TestLogInfo(t *testing.T) {
	e, buf := loggedExecutor(t, zerolog.InfoLevel)
	e.Execute(context.Background(), "Read", NewExecutionContext("/home/user"), Args{"file_path": "/x"})
	e.Execute(context.Background(), "Read", NewExecutionContext("/home/user"), Args{"file_path": "/missing"})
	want := []logEvent{
		{Level: "info", Message: "Executing tool: Read"},
		{Level: "info", Message: "Tool Read succeeded"},
		{Level: "info", Message: "Executing tool: Read"},
		{Level: "warn", Message: "Tool Read failed: File not found: /missing"},
	}
	got := logEvents(t, buf)
	if len(got) != len(want) {
		t.Fatalf("events = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Level != want[i].Level || got[i].Message != want[i].Message {
			t.Errorf("event %d = %s %q, want %s %q", i, got[i].Level, got[i].Message, want[i].Level, want[i].Message)
		}
	}
}

// Scenario: Log tool execution parameters
func TestLogDebug(t *testing.T) {
	e, buf := loggedExecutor(t, zerolog.DebugLevel)
	e.Execute(context.Background(), "Read", NewExecutionContext("/home/user"), Args{"file_path": "/home/user/test.py", "limit": 100})
	got := logEvents(t, buf)
	msgs := make([]string, len(got))
	for i, ev := range got {
		msgs[i] = ev.Level + " " + ev.Message
	}
	if len(msgs) != 5 {
		t.Fatalf("events = %q", msgs)
	}
	wantPrefix := []string{
		"info Executing tool: Read",
		`debug Parameters: {"file_path": "/home/user/test.py", "limit": 100}`,
		"debug Context: working_dir=/home/user, timeout=120",
		"debug Result: success=true, output_size=4, duration_ms=",
		"info Tool Read succeeded",
	}
	for i, w := range wantPrefix {
		if !strings.HasPrefix(msgs[i], w) {
			t.Errorf("event %d = %q, want prefix %q", i, msgs[i], w)
		}
	}
}

func TestLogPanicAtErrorLevelWithStack(t *testing.T) {
	e, buf := loggedExecutor(t, zerolog.InfoLevel)
	e.Execute(context.Background(), "Bash", NewExecutionContext("/"), nil)
	var found bool
	for _, ev := range logEvents(t, buf) {
		if ev.Level == "error" {
			found = true
			if ev.Message != "Tool Bash raised exception: OSError: [Errno 2] No such file or directory" {
				t.Errorf("message = %q", ev.Message)
			}
			if !strings.Contains(ev.Stack, "goroutine") {
				t.Errorf("stack = %q", ev.Stack)
			}
		}
	}
	if !found {
		t.Error("no error event for a panic")
	}
}

func TestLogQuietBuildsNothing(t *testing.T) {
	e, buf := loggedExecutor(t, zerolog.ErrorLevel)
	en := e.reg.lookup("Read")
	allocs := testing.AllocsPerRun(50, func() {
		e.logStart(en, &ExecutionContext{WorkingDir: "/"}, Args{"file_path": "/x"})
		e.logDone("Read", en, &Result{Success: true, Output: "x"})
		e.logDone("Read", en, &Result{Success: false, Error: "x"})
	})
	if buf.Len() != 0 || allocs != 0 {
		t.Errorf("quiet logger wrote %q with %v allocations per call", buf.String(), allocs)
	}
}

func TestFormatParamsShortens(t *testing.T) {
	long := strings.Repeat("é", 250)
	items := make([]any, 25)
	for i := range items {
		items[i] = i
	}
	obj := map[string]any{}
	for i := range 22 {
		obj[string(rune('a'+i))] = "v"
	}
	got := formatParams(Args{"content": long, "items": items, "obj": obj, "args": Args{"s": long}, "ch": make(chan int)})
	if strings.Contains(got, long) || !strings.Contains(got, `"content": "`+strings.Repeat("é", 200)+`..."`) {
		t.Errorf("long string not shortened to 200 characters: %.80q", got)
	}
	if !strings.Contains(got, `19,"... (5 more)"]`) {
		t.Errorf("long array not shortened: %s", got)
	}
	if !strings.Contains(got, `"...":"2 more"`) {
		t.Errorf("large object not shortened: %s", got)
	}
	if !strings.Contains(got, `"ch": "<json: unsupported type: chan int>"`) {
		t.Errorf("unmarshalable value: %s", got)
	}
	if formatParams(nil) != "{}" {
		t.Errorf("formatParams(nil) = %q", formatParams(nil))
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	if got := formatParams(Args{"c": cyclic}); !strings.Contains(got, `"self":"..."`) {
		t.Errorf("cyclic value: %s", got)
	}
	if shorten(strings.Repeat("x", 200), 0) != strings.Repeat("x", 200) {
		t.Error("a 200-character string was shortened")
	}
}

func TestOutputSize(t *testing.T) {
	for _, tc := range []struct {
		r    Result
		want int
	}{
		{Result{Success: true, Output: "héllo"}, 6},
		{Result{Success: true, Output: 12345}, 5},
		{Result{Success: false, Error: "x"}, 0},
		{Result{Success: true}, 0},
	} {
		if got := outputSize(tc.r); got != tc.want {
			t.Errorf("outputSize(%+v) = %d, want %d", tc.r, got, tc.want)
		}
	}
}
