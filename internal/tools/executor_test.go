package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func newEchoExecutor(t testing.TB, opts ...ExecutorOption) *Executor {
	r := NewRegistry()
	mustRegister(t, r, echo())
	return NewExecutor(r, opts...)
}

// Scenario: Execute tool successfully
// Scenario: Execute tool by name
func TestExecuteByName(t *testing.T) {
	e := newEchoExecutor(t)
	ec := NewExecutionContext("/home/user")
	res := e.Execute(context.Background(), "Echo", ec, Args{"message": "Hello"})
	if !res.Success || res.Status != StatusSuccess || res.Output != "Hello" || res.ErrorKind != KindNone {
		t.Errorf("result = %+v", res)
	}
	if res.DurationMS < 0 {
		t.Errorf("DurationMS = %v", res.DurationMS)
	}
	if e.Registry() == nil {
		t.Error("Registry() = nil")
	}
}

// Scenario: Execute unknown tool
func TestExecuteUnknownTool(t *testing.T) {
	e := NewExecutor(NewRegistry())
	res := e.Execute(context.Background(), "Unknown", NewExecutionContext("/"), nil)
	if res.Success || res.Error != "Unknown tool: Unknown" || res.ErrorKind != KindUnknownTool || res.Status != StatusFailed {
		t.Errorf("result = %+v", res)
	}
	if n := len(e.Executions()); n != 1 {
		t.Errorf("history has %d records, want the failed call", n)
	}
	if _, ok := e.ToolMetrics("Unknown"); ok {
		t.Error("an unknown tool got a metrics entry")
	}
}

// Scenario: Execute tool with validation failure
func TestExecuteValidationFailure(t *testing.T) {
	r := NewRegistry()
	var ran bool
	read := newTool("Read", CategoryFile,
		Parameter{Name: "file_path", Type: TypeString, Description: "d", Required: true},
		Parameter{Name: "limit", Type: TypeInteger, Description: "d", Default: 2000})
	read.run = func(context.Context, ExecutionContext, Args) Result { ran = true; return OK("") }
	mustRegister(t, r, read)
	e := NewExecutor(r)
	tests := []struct {
		args      Args
		msg, path string
		received  any
	}{
		{Args{}, "Missing required parameter: file_path", "file_path", nil},
		{Args{"file_path": "/x", "limit": "10"}, "Invalid type for limit: expected integer", "limit", "10"},
	}
	for _, tc := range tests {
		res := e.Execute(context.Background(), "Read", NewExecutionContext("/"), tc.args)
		if res.Success || res.Error != tc.msg || res.ErrorKind != KindValidation || res.Status != StatusFailed {
			t.Errorf("%v: result = %+v", tc.args, res)
		}
		if res.Metadata["parameter"] != tc.path || res.Metadata["received"] != tc.received {
			t.Errorf("%v: metadata = %v", tc.args, res.Metadata)
		}
	}
	if ran {
		t.Error("the tool ran despite invalid arguments")
	}
}

// Scenario: Optional parameter uses default when not provided
func TestExecuteAppliesDefaults(t *testing.T) {
	r := NewRegistry()
	var got Args
	tl := newTool("Bash", CategoryExecution,
		Parameter{Name: "timeout", Type: TypeInteger, Description: "d", Default: 120})
	tl.run = func(_ context.Context, _ ExecutionContext, a Args) Result { got = a; return OK("") }
	mustRegister(t, r, tl)
	NewExecutor(r).Execute(context.Background(), "Bash", ExecutionContext{}, Args{})
	if got.Int("timeout") != 120 {
		t.Errorf("the tool got %v, want timeout=120", got)
	}
}

// Scenario: Execute tool with timeout
func TestExecuteTimeout(t *testing.T) {
	r := NewRegistry()
	slow := newTool("SlowTool", CategoryOther)
	slow.run = blocker(t) // ignores its context, like a tool in a system call
	coop := newTool("Coop", CategoryOther)
	coop.run = func(ctx context.Context, _ ExecutionContext, _ Args) Result {
		<-ctx.Done()
		return Fail("stopped: "+ctx.Err().Error(), "partial", "half")
	}
	mustRegister(t, r, slow, coop)
	e := NewExecutor(r)
	for _, name := range []string{"SlowTool", "Coop"} {
		start := time.Now()
		res := e.Execute(context.Background(), name, ExecutionContext{Timeout: 30 * time.Millisecond}, nil)
		if elapsed := time.Since(start); elapsed > 5*time.Second {
			t.Fatalf("%s: Execute returned after %v, long past its deadline", name, elapsed)
		}
		if res.Success || res.Status != StatusTimedOut || res.ErrorKind != KindTimeout || res.Error != "Tool timed out after 0.03s" {
			t.Errorf("%s: result = %+v", name, res)
		}
		if !strings.Contains(res.Error, "timed out") {
			t.Errorf("%s: error %q lacks \"timed out\"", name, res.Error)
		}
	}
	if m, _ := e.ToolMetrics("SlowTool"); m.Timeouts != 1 || m.Failures != 1 || m.Calls != 1 {
		t.Errorf("metrics = %+v", m)
	}
}

// A tool that notices its deadline and reports it in its own words (with its
// own status) still gets the executor's message, so the text never depends on
// who saw the deadline first; the tool's words are kept as detail.
func TestExecuteTimeoutReportedByTool(t *testing.T) {
	r := NewRegistry()
	own := newTool("Own", CategoryOther)
	own.run = func(ctx context.Context, _ ExecutionContext, _ Args) Result {
		<-ctx.Done()
		res := Fail("The command timed out after 29ms", "exit_code", -1)
		res.Status = StatusTimedOut
		return res
	}
	mustRegister(t, r, own)
	res := NewExecutor(r).Execute(context.Background(), "Own", ExecutionContext{Timeout: 30 * time.Millisecond}, nil)
	if res.Status != StatusTimedOut || res.Error != "Tool timed out after 0.03s" {
		t.Fatalf("result = %+v", res)
	}
	// Whether the tool's metadata survives depends on which of the two saw
	// the deadline first; when it does, its words are the detail.
	if d, ok := res.Metadata["detail"]; ok && d != "The command timed out after 29ms" {
		t.Errorf("detail = %v", d)
	}
}

func TestFormatSeconds(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Second: "1s", 120 * time.Second: "120s", 1500 * time.Millisecond: "1.5s", 50 * time.Millisecond: "0.05s"} {
		if got := formatSeconds(d); got != want {
			t.Errorf("formatSeconds(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestExecuteCancelled(t *testing.T) {
	r := NewRegistry()
	slow := newTool("SlowTool", CategoryOther)
	slow.run = blocker(t)
	mustRegister(t, r, slow)
	e := NewExecutor(r)

	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	res := e.Execute(ctx, "SlowTool", NewExecutionContext("/"), nil)
	if res.Status != StatusCancelled || res.ErrorKind != KindCancelled || res.Error != "Tool execution cancelled" || res.Success {
		t.Errorf("cancelled mid-call: %+v", res)
	}
	// Already cancelled: the tool does not start.
	res = e.Execute(ctx, "Echo", NewExecutionContext("/"), nil)
	if res.ErrorKind != KindUnknownTool {
		t.Errorf("unknown tool with a cancelled context: %+v", res)
	}
	res = e.Execute(ctx, "SlowTool", NewExecutionContext("/"), nil)
	if res.Status != StatusCancelled {
		t.Errorf("already cancelled: %+v", res)
	}
	// A parent deadline is a timeout, not a cancellation.
	dctx, dcancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer dcancel()
	res = e.Execute(dctx, "SlowTool", NewExecutionContext("/"), nil)
	if res.Status != StatusTimedOut {
		t.Errorf("parent deadline: %+v", res)
	}
}

// Scenario: Execute tool in dry run mode
func TestExecuteDryRun(t *testing.T) {
	r := NewRegistry()
	var wrote bool
	write := &dryTool{rtTool: rtTool{name: "Write", params: []Parameter{
		{Name: "message", Type: TypeString, Description: "d"},
	}}}
	plain := newTool("WriteTool", CategoryFile,
		Parameter{Name: "file_path", Type: TypeString, Description: "d", Required: true},
		Parameter{Name: "content", Type: TypeString, Description: "d", Required: true},
		Parameter{Name: "mode", Type: TypeString, Description: "d", Default: "overwrite"})
	plain.run = func(context.Context, ExecutionContext, Args) Result { wrote = true; return OK("written") }
	mustRegister(t, r, write, plain)
	e := NewExecutor(r)
	ec := NewExecutionContext("/")
	ec.DryRun = true

	res := e.Execute(context.Background(), "WriteTool", ec, Args{"file_path": "/foo", "content": "bar"})
	if !res.Success || res.Status != StatusDryRun || !strings.Contains(res.Output.(string), "[Dry Run]") {
		t.Errorf("generic dry run = %+v", res)
	}
	if want := `[Dry Run] Would run WriteTool with {"content":"bar","file_path":"/foo","mode":"overwrite"}`; res.Output != want {
		t.Errorf("generic dry run output = %q, want %q", res.Output, want)
	}
	if wrote {
		t.Error("a dry run wrote the file")
	}
	res = e.Execute(context.Background(), "Write", ec, Args{"message": "hi"})
	if res.Output != "[Dry Run] Would say hi" || res.Status != StatusDryRun {
		t.Errorf("DryRunner dry run = %+v", res)
	}
	// Validation still applies to a dry run.
	res = e.Execute(context.Background(), "WriteTool", ec, Args{"file_path": "/foo"})
	if res.ErrorKind != KindValidation {
		t.Errorf("invalid dry run = %+v", res)
	}
}

func TestGenericDryRunUnmarshalable(t *testing.T) {
	got := genericDryRun("X", Args{"ch": make(chan int)})
	if got != `Would run X with {"ch": "<json: unsupported type: chan int>"}` {
		t.Errorf("genericDryRun = %q", got)
	}
}

// Scenario: Execute tool with exception
// Scenario: Tool execution catches all exceptions
func TestExecutePanic(t *testing.T) {
	r := NewRegistry()
	boom := newTool("Boom", CategoryOther)
	boom.run = func(context.Context, ExecutionContext, Args) Result {
		panic(fmt.Errorf("RuntimeError: %s", "Unexpected error"))
	}
	dry := &panicDry{rtTool: rtTool{name: "PanicDry"}}
	mustRegister(t, r, boom, dry)
	e := NewExecutor(r)
	res := e.Execute(context.Background(), "Boom", NewExecutionContext("/"), nil)
	if res.Success || res.ErrorKind != KindPanic || res.Status != StatusFailed || !strings.Contains(res.Error, "Unexpected error") {
		t.Errorf("result = %+v", res)
	}
	ec := NewExecutionContext("/")
	ec.DryRun = true
	if res := e.Execute(context.Background(), "PanicDry", ec, nil); res.ErrorKind != KindPanic || !strings.Contains(res.Error, "dry panic") {
		t.Errorf("panicking DryRun = %+v", res)
	}
	if res := e.Execute(context.Background(), "PanicDry", NewExecutionContext("/"), nil); res.ErrorKind != KindPanic || !strings.Contains(res.Error, "deadline panic") {
		t.Errorf("panicking CallTimeout = %+v", res)
	}
}

func TestExecuteToolCallingGoexit(t *testing.T) {
	r := NewRegistry()
	quitter := newTool("Quitter", CategoryOther)
	quitter.run = func(context.Context, ExecutionContext, Args) Result { runtime.Goexit(); return OK("") }
	mustRegister(t, r, quitter)
	res := NewExecutor(r).Execute(context.Background(), "Quitter", ExecutionContext{}, nil)
	if res.Success || res.ErrorKind != KindPanic || res.Error != "Execution error: the tool exited without a result" {
		t.Errorf("result = %+v", res)
	}
}

type panicDry struct{ rtTool }

func (*panicDry) DryRun(ExecutionContext, Args) string             { panic("dry panic") }
func (*panicDry) CallTimeout(ExecutionContext, Args) time.Duration { panic("deadline panic") }

func TestExecuteDeadlinerOverridesTimeout(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, &dryTool{rtTool: rtTool{name: "Own", params: []Parameter{{Name: "message", Type: TypeString, Description: "d"}}}, timeout: 20 * time.Millisecond},
		&dryTool{rtTool: rtTool{name: "Zero", params: []Parameter{{Name: "message", Type: TypeString, Description: "d"}}}})
	e := NewExecutor(r)
	res := e.Execute(context.Background(), "Own", NewExecutionContext("/"), Args{"message": "slow"})
	if res.Status != StatusTimedOut || res.Error != "Tool timed out after 0.02s" {
		t.Errorf("own timeout: %+v", res)
	}
	res = e.Execute(context.Background(), "Zero", ExecutionContext{Timeout: 20 * time.Millisecond}, Args{"message": "slow"})
	if res.Status != StatusTimedOut || res.Error != "Tool timed out after 0.02s" {
		t.Errorf("CallTimeout 0 keeps the context's: %+v", res)
	}
}

func TestExecuteSettlesStatus(t *testing.T) {
	r := NewRegistry()
	mk := func(name string, res Result) *rtTool {
		tl := newTool(name, CategoryOther)
		tl.run = func(context.Context, ExecutionContext, Args) Result { return res }
		return tl
	}
	mustRegister(t, r,
		mk("Bare", Result{Success: true}),
		mk("BareFail", Result{Error: "nope"}),
		mk("Failed", Fail("File not found")),
		mk("Custom", Result{Success: false, Status: StatusTimedOut, Error: "Command timed out", ErrorKind: KindTimeout}))
	e := NewExecutor(r)
	want := map[string][2]string{
		"Bare": {string(StatusSuccess), ""}, "BareFail": {string(StatusFailed), string(KindExecution)},
		"Failed": {string(StatusFailed), string(KindExecution)}, "Custom": {string(StatusTimedOut), string(KindTimeout)},
	}
	for name, w := range want {
		res := e.Execute(context.Background(), name, ExecutionContext{}, nil)
		if string(res.Status) != w[0] || string(res.ErrorKind) != w[1] {
			t.Errorf("%s: status %q kind %q, want %q %q", name, res.Status, res.ErrorKind, w[0], w[1])
		}
	}
}

func TestExecuteCapsOutput(t *testing.T) {
	r := NewRegistry()
	mk := func(name string, out any) *rtTool {
		tl := newTool(name, CategoryOther)
		tl.run = func(context.Context, ExecutionContext, Args) Result { return OK(out, "lines", 3) }
		return tl
	}
	long := strings.Repeat("é", 10) // 20 bytes, 2 per character
	mustRegister(t, r, mk("Long", long), mk("Short", "ok"), mk("Slice", []string{long}))
	e := NewExecutor(r)

	res := e.Execute(context.Background(), "Long", ExecutionContext{MaxOutputSize: 7}, nil)
	out := res.Output.(string)
	body, note, _ := strings.Cut(out, "\n")
	if body != strings.Repeat("é", 3) || !utf8.ValidString(body) {
		t.Errorf("body = %q, want 3 whole characters (6 bytes <= 7)", body)
	}
	if note != "[Output truncated: 14 of 20 bytes not shown]" {
		t.Errorf("note = %q", note)
	}
	if res.Metadata["truncated"] != true || res.Metadata["original_size"] != 20 || res.Metadata["lines"] != 3 {
		t.Errorf("metadata = %v", res.Metadata)
	}
	for _, name := range []string{"Short", "Slice"} {
		res := e.Execute(context.Background(), name, ExecutionContext{MaxOutputSize: 7}, nil)
		if _, cut := res.Metadata["truncated"]; cut {
			t.Errorf("%s was truncated: %+v", name, res)
		}
	}
	if res := e.Execute(context.Background(), "Long", ExecutionContext{}, nil); res.Output != long {
		t.Errorf("default cap truncated 20 bytes: %q", res.Output)
	}
}

// Scenario: Track execution history
// Scenario: Execution record contains timing
// Scenario: Clear execution history
func TestExecutionHistory(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, fileTools()...)
	e := NewExecutor(r)
	ec := NewExecutionContext("/home/user")
	before := time.Now()
	e.Execute(context.Background(), "Read", ec, Args{"file_path": "/foo"})
	e.Execute(context.Background(), "Write", ec, Args{"file_path": "/bar", "content": "test"})
	xs := e.Executions()
	if len(xs) != 2 || xs[0].ToolName != "Read" || xs[1].ToolName != "Write" {
		t.Fatalf("executions = %+v", xs)
	}
	for i, x := range xs {
		if x.Seq != int64(i+1) {
			t.Errorf("record %d: Seq = %d", i, x.Seq)
		}
		if x.StartedAt.Before(before) || x.CompletedAt.Before(x.StartedAt) || x.DurationMS < 0 || x.DurationMS != x.Result.DurationMS {
			t.Errorf("record %d timing: %v .. %v, %v ms", i, x.StartedAt, x.CompletedAt, x.DurationMS)
		}
		if x.Context.WorkingDir != "/home/user" || x.Context.Timeout != DefaultTimeout {
			t.Errorf("record %d context = %+v", i, x.Context)
		}
	}
	if xs[0].Parameters["file_path"] != "/foo" {
		t.Errorf("parameters = %v", xs[0].Parameters)
	}
	if e.TotalExecutions() != 2 {
		t.Errorf("TotalExecutions = %d", e.TotalExecutions())
	}
	e.ClearExecutions()
	if len(e.Executions()) != 0 || e.TotalExecutions() != 0 {
		t.Errorf("after ClearExecutions: %d records, total %d", len(e.Executions()), e.TotalExecutions())
	}
	e.Execute(context.Background(), "Read", ec, Args{"file_path": "/foo"})
	if xs := e.Executions(); xs[0].Seq != 3 {
		t.Errorf("Seq after clear = %d, want 3 (never reused)", xs[0].Seq)
	}
}

func TestHistoryIsBounded(t *testing.T) {
	e := newEchoExecutor(t, WithHistoryCapacity(3))
	for i := range 7 {
		e.Execute(context.Background(), "Echo", ExecutionContext{}, Args{"message": fmt.Sprint(i)})
	}
	xs := e.Executions()
	var got []string
	for _, x := range xs {
		got = append(got, x.Result.Output.(string))
	}
	if strings.Join(got, ",") != "4,5,6" {
		t.Errorf("history = %v, want the newest three oldest first", got)
	}
	if xs[0].Seq != 5 || e.TotalExecutions() != 7 {
		t.Errorf("Seq of oldest = %d, total = %d", xs[0].Seq, e.TotalExecutions())
	}

	off := newEchoExecutor(t, WithHistoryCapacity(0))
	off.Execute(context.Background(), "Echo", ExecutionContext{}, Args{"message": "x"})
	if len(off.Executions()) != 0 || off.TotalExecutions() != 1 {
		t.Errorf("history off: %d records, total %d", len(off.Executions()), off.TotalExecutions())
	}
	if m, ok := off.ToolMetrics("Echo"); !ok || m.Calls != 1 {
		t.Errorf("metrics with history off = %+v", m)
	}
	if neg := newEchoExecutor(t, WithHistoryCapacity(-5)); neg.hist.capacity != 0 {
		t.Errorf("negative capacity = %d", neg.hist.capacity)
	}
}

func TestMetrics(t *testing.T) {
	r := NewRegistry()
	flaky := newTool("Flaky", CategoryOther, Parameter{Name: "fail", Type: TypeBoolean, Description: "d"})
	flaky.run = func(_ context.Context, _ ExecutionContext, a Args) Result {
		time.Sleep(time.Millisecond)
		if a.Bool("fail") {
			return Fail("asked to")
		}
		return OK("")
	}
	mustRegister(t, r, flaky)
	e := NewExecutor(r)
	for _, fail := range []bool{false, true, false} {
		e.Execute(context.Background(), "Flaky", ExecutionContext{}, Args{"fail": fail})
	}
	m := e.Metrics()["Flaky"]
	if m.Calls != 3 || m.Failures != 1 || m.Timeouts != 0 {
		t.Errorf("metrics = %+v", m)
	}
	if m.Max < time.Millisecond || m.Total < 3*time.Millisecond || m.Max > m.Total {
		t.Errorf("durations: max %v total %v", m.Max, m.Total)
	}
	if len(e.Metrics()) != 1 {
		t.Errorf("Metrics() = %v", e.Metrics())
	}
}

func TestExecuteJSON(t *testing.T) {
	e := newEchoExecutor(t)
	ec := NewExecutionContext("/")
	if res := e.ExecuteJSON(context.Background(), "Echo", ec, json.RawMessage(`{"message":"hi"}`)); res.Output != "hi" {
		t.Errorf("good JSON: %+v", res)
	}
	res := e.ExecuteJSON(context.Background(), "Echo", ec, json.RawMessage(`{"message":`))
	if res.ErrorKind != KindValidation || !strings.HasPrefix(res.Error, "Invalid JSON arguments: ") || res.Status != StatusFailed {
		t.Errorf("bad JSON: %+v", res)
	}
	if res := e.ExecuteJSON(context.Background(), "Nope", ec, json.RawMessage(`[`)); res.ErrorKind != KindUnknownTool {
		t.Errorf("bad JSON for an unknown tool: %+v", res)
	}
	if n := len(e.Executions()); n != 3 {
		t.Errorf("history has %d records, want 3 (refused calls are recorded)", n)
	}
	if m, _ := e.ToolMetrics("Echo"); m.Calls != 2 || m.Failures != 1 {
		t.Errorf("metrics = %+v", m)
	}
}

// Scenario: Concurrent tool execution
func TestConcurrentExecution(t *testing.T) {
	e := newEchoExecutor(t)
	var wg sync.WaitGroup
	results := make([]Result, 10)
	for i := range 10 {
		wg.Go(func() {
			results[i] = e.Execute(context.Background(), "Echo", ExecutionContext{}, Args{"message": fmt.Sprint(i)})
		})
	}
	wg.Wait()
	for i, res := range results {
		if !res.Success || res.Output != fmt.Sprint(i) {
			t.Errorf("call %d: %+v", i, res)
		}
	}
	seqs := map[int64]bool{}
	for _, x := range e.Executions() {
		seqs[x.Seq] = true
	}
	if len(seqs) != 10 || e.TotalExecutions() != 10 || e.Metrics()["Echo"].Calls != 10 {
		t.Errorf("state after 10 concurrent calls: %d distinct Seq, total %d, metrics %+v", len(seqs), e.TotalExecutions(), e.Metrics())
	}
}

// With an injected clock the recorded times and durations are the clock's,
// while deadlines still run on real time: a clock fixed in the past must not
// time every call out.
func TestExecutorClock(t *testing.T) {
	fixed := time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC)
	reg := NewRegistry()
	slow := &rtTool{name: "slow", run: func(ctx context.Context, _ ExecutionContext, _ Args) Result {
		time.Sleep(5 * time.Millisecond)
		return OK("done")
	}}
	if err := reg.Register(slow); err != nil {
		t.Fatal(err)
	}
	ex := NewExecutor(reg, WithClock(func() time.Time { return fixed }))
	r := ex.Execute(context.Background(), "slow", ExecutionContext{Timeout: time.Minute}, nil)
	if r.Status != StatusSuccess || r.DurationMS != 0 {
		t.Fatalf("result %+v, want success in 0ms on a fixed clock", r)
	}
	xs := ex.Executions()
	if len(xs) != 1 || !xs[0].StartedAt.Equal(fixed) || !xs[0].CompletedAt.Equal(fixed) {
		t.Errorf("recorded %+v, want both times %v", xs, fixed)
	}
	// A stepping clock: the duration is the clock's difference.
	tick := fixed
	step := NewExecutor(reg, WithClock(func() time.Time { tick = tick.Add(250 * time.Millisecond); return tick }))
	if r := step.Execute(context.Background(), "slow", ExecutionContext{}, nil); r.DurationMS != 250 {
		t.Errorf("duration %v ms, want 250", r.DurationMS)
	}
	if r := step.Execute(context.Background(), "nope", ExecutionContext{}, nil); r.DurationMS != 250 {
		t.Errorf("unknown tool's duration %v ms, want 250", r.DurationMS)
	}
}
