package render

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// screen replays what a view wrote as a terminal would show it: carriage
// returns, new lines, cursor moves up and erasures to the end of the
// screen or line. It is enough to see what the live area leaves behind.
func screen(raw string) string {
	lines := []string{""}
	row, col := 0, 0
	put := func(r rune) {
		l := []rune(lines[row])
		for len(l) < col {
			l = append(l, ' ')
		}
		if col < len(l) {
			l[col] = r
		} else {
			l = append(l, r)
		}
		lines[row] = string(l)
		col++
	}
	for i := 0; i < len(raw); {
		switch {
		case raw[i] == '\r':
			col = 0
			i++
		case raw[i] == '\n':
			row, col = row+1, 0
			if row == len(lines) {
				lines = append(lines, "")
			}
			i++
		case strings.HasPrefix(raw[i:], "\x1b["):
			j := i + 2
			for j < len(raw) && (raw[j] >= '0' && raw[j] <= '9') {
				j++
			}
			n, _ := strconv.Atoi(raw[i+2 : j])
			switch raw[j] {
			case 'A':
				row = max(0, row-max(n, 1))
			case 'J':
				lines = lines[:row+1]
				lines[row] = string([]rune(lines[row])[:min(col, utf8.RuneCountInString(lines[row]))])
			case 'B':
				row = min(len(lines)-1, row+max(n, 1))
			case 'K':
				if n == 2 {
					lines[row] = strings.Repeat(" ", col)
				} else {
					lines[row] = string([]rune(lines[row])[:min(col, utf8.RuneCountInString(lines[row]))])
				}
			}
			i = j + 1
		default:
			r, size := utf8.DecodeRuneInString(raw[i:])
			put(r)
			i += size
		}
	}
	// Rows below the cursor that were cleared show nothing.
	for len(lines) > row+1 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// liveRun is a run view on a 60-column terminal whose live area has a
// clock the test moves and no ticker of its own; its tools are lookup's,
// or plain ones (presentingTool) of any name.
type liveRun struct {
	v     *runView
	out   *bytes.Buffer
	clock *fakeClock
}

func newLiveRun(lookup func(string) (tools.Tool, bool)) *liveRun {
	if lookup == nil {
		lookup = func(n string) (tools.Tool, bool) { return presentingTool{name: n}, true }
	}
	var out bytes.Buffer
	p := NewText(TextOptions{Out: &out, Err: &out, Terminal: true, Renderer: New(Options{Width: 60})})
	v := p.Run(RunInfo{}, RunOptions{Lookup: lookup}).(*runView)
	clock := &fakeClock{t: time.Date(2024, 1, 15, 10, 0, 0, 0, time.UTC)}
	v.live.now, v.live.tick = clock.now, make(chan time.Time)
	return &liveRun{v: v, out: &out, clock: clock}
}

func (l *liveRun) send(es ...agent.Event) {
	for _, e := range es {
		l.v.Event(e)
	}
}

func (l *liveRun) screen() string { return screen(l.out.String()) }

var (
	bashCall = &agent.Call{ID: "c1", Name: "Bash", Args: tools.Args{"command": "make test"}}
	readCall = &agent.Call{ID: "c2", Name: "Read", Args: tools.Args{"file_path": "main.go"}, ReadOnly: true}
)

func ok(out string) *agent.CallResult {
	return &agent.CallResult{Status: agent.StatusSuccess, Output: out,
		Result: tools.Result{Success: true, Status: tools.StatusSuccess, Output: out}}
}

// A command's run as a terminal shows it: the spinner while the model
// thinks, then the call with its elapsed time and its last lines, redrawn
// in place, and once it is over, its line and the first lines of its
// output, the live area gone.
func TestRunViewLiveCall(t *testing.T) {
	l := newLiveRun(nil)
	l.send(agent.Event{Type: agent.EventRequest})
	if got := l.screen(); got != "⠋ Thinking…" {
		t.Errorf("thinking: %q", got)
	}
	l.send(agent.Event{Type: agent.EventToolCall, Call: bashCall}, agent.Event{Type: agent.EventToolStart, Call: bashCall})
	if got := l.screen(); got != "⠋ Bash(make test) · 0s" {
		t.Errorf("started: %q", got)
	}
	l.clock.advance(2 * time.Second)
	l.send(agent.Event{Type: agent.EventToolOutput, Call: bashCall, Text: "ok  pkg/a\nok  pkg/b\n"})
	l.send(agent.Event{Type: agent.EventToolOutput, Call: bashCall, Text: "ok  pkg/c\nFAIL pkg/d"})
	l.clock.advance(time.Second)
	l.v.live.onTick()
	want := "⠙ Bash(make test) · 3s\n    ok  pkg/a\n    ok  pkg/b\n    ok  pkg/c\n    FAIL pkg/d"
	if got := l.screen(); got != want {
		t.Errorf("running:\n%s\nwant:\n%s", got, want)
	}
	l.send(agent.Event{Type: agent.EventToolResult, Call: bashCall, Result: ok("ok  pkg/a\nok  pkg/b\nok  pkg/c\nok  pkg/d\nok  pkg/e\nok  pkg/f\n")})
	want = "✓ Bash(make test)\n  ⎿ ok  pkg/a\n    ok  pkg/b\n    ok  pkg/c\n    ok  pkg/d\n    … +2 lines (/last shows all)\n"
	if got := l.screen(); got != want {
		t.Errorf("finished:\n%s\nwant:\n%s", got, want)
	}
	l.v.Close()
}

// Ctrl-C: the call's line says it was cancelled, and the last lines it
// printed stay on the screen.
func TestRunViewCancelledKeepsOutput(t *testing.T) {
	l := newLiveRun(nil)
	l.send(agent.Event{Type: agent.EventToolStart, Call: bashCall})
	for i := 1; i <= 9; i++ {
		l.send(agent.Event{Type: agent.EventToolOutput, Call: bashCall, Text: "step " + strconv.Itoa(i) + "\n"})
	}
	l.out.WriteString("^C") // the terminal's echo
	l.send(agent.Event{Type: agent.EventToolResult, Call: bashCall,
		Result: &agent.CallResult{Status: agent.StatusCancelled, Output: "Error: cancelled", Error: "cancelled"}})
	want := "⊘ Bash(make test): cancelled\n  ⎿ … 5 lines before (/last shows all)\n    step 6\n    step 7\n    step 8\n    step 9\n"
	if got := l.screen(); got != want {
		t.Errorf("cancelled:\n%s\nwant:\n%s", got, want)
	}
	l.v.Close()
}

// A tool's brief stands for its output; an edit shows its diff; the
// output of a loop-breaking tool is the run's answer, shown once.
func TestRunViewPreviews(t *testing.T) {
	tl := map[string]tools.Tool{
		"Read":            presentingTool{name: "Read", brief: "120 lines"},
		"Edit":            presentingTool{name: "Edit"},
		"task_completion": presentingTool{name: "task_completion", breaks: true},
	}
	l := newLiveRun(func(n string) (tools.Tool, bool) { t, ok := tl[n]; return t, ok })
	edit := change("a\nb\n", "a\nB\n")
	editCall := &agent.Call{ID: "c3", Name: "Edit", Args: tools.Args{"file_path": "f.txt"}}
	doneCall := &agent.Call{ID: "c4", Name: "task_completion", Args: tools.Args{"file_path": "All done: three fixes."}}
	editRes := ok("The file f.txt has been updated.")
	editRes.Change = &edit
	l.send(agent.Event{Type: agent.EventToolStart, Call: readCall},
		agent.Event{Type: agent.EventToolResult, Call: readCall, Result: ok("     1\tpackage main\n")},
		agent.Event{Type: agent.EventToolStart, Call: editCall},
		agent.Event{Type: agent.EventToolResult, Call: editCall, Result: editRes},
		agent.Event{Type: agent.EventToolStart, Call: doneCall},
		agent.Event{Type: agent.EventToolResult, Call: doneCall, Result: ok("All done: three fixes.")})
	want := "✓ Read(main.go) · 120 lines\n✓ Edit(f.txt) +1 −1\n  ⎿ @@ -1,2 +1,2 @@\n     a\n    -b\n    +B\n✓ task_completion(All done: three fixes.)\n"
	if got := l.screen(); got != want {
		t.Errorf("previews:\n%s\nwant:\n%s", got, want)
	}
	l.v.Close()
}

// presentingTool is a tool that presents its results with a brief, or
// breaks the loop.
type presentingTool struct {
	name   string
	brief  string
	breaks bool
}

func (p presentingTool) Name() string             { return p.name }
func (p presentingTool) Description() string      { return "" }
func (p presentingTool) Category() tools.Category { return tools.CategoryFile }
func (p presentingTool) IsLoopBreaking() bool     { return p.breaks }
func (p presentingTool) Parameters() []tools.Parameter {
	return []tools.Parameter{{Name: "file_path", Type: tools.TypeString}, {Name: "command", Type: tools.TypeString}}
}
func (p presentingTool) Execute(context.Context, tools.ExecutionContext, tools.Args) tools.Result {
	return tools.OK("")
}
func (p presentingTool) Present(tools.Args, tools.Result) tools.Presentation {
	return tools.Presentation{Brief: p.brief}
}

// While a running call asks the person something, nothing draws over the
// question; its next output shows the live area again.
func TestRunViewPausesForAQuestion(t *testing.T) {
	l := newLiveRun(nil)
	l.send(agent.Event{Type: agent.EventToolStart, Call: bashCall},
		agent.Event{Type: agent.EventToolQuestion, Call: bashCall})
	l.out.WriteString("Your name?\n? ")
	before := l.out.Len()
	l.clock.advance(time.Second)
	l.v.live.onTick()
	if l.out.Len() != before {
		t.Errorf("drawn over the question: %q", l.out.String()[before:])
	}
	l.out.WriteString("Ada\n")
	l.send(agent.Event{Type: agent.EventToolOutput, Call: bashCall, Text: "hello Ada\n"})
	if got := l.screen(); !strings.HasSuffix(got, "? Ada\n⠋ Bash(make test) · 1s\n    hello Ada") {
		t.Errorf("after the answer:\n%s", got)
	}
	l.v.Close()
}

// A subagent's calls follow the line of the Task call they work for, one
// line each; its own spinner and output do not replace the Task's.
func TestRunViewSubagentUnderItsTask(t *testing.T) {
	task := &agent.Call{ID: "t1", Name: "Task", Args: tools.Args{"file_path": "find the config"}}
	l := newLiveRun(func(n string) (tools.Tool, bool) { return presentingTool{name: n}, true })
	l.send(agent.Event{Type: agent.EventToolStart, Call: task},
		agent.Event{Type: agent.EventRequest, ParentID: "t1"},
		agent.Event{Type: agent.EventToolCall, Call: readCall, ParentID: "t1"},
		agent.Event{Type: agent.EventToolStart, Call: readCall, ParentID: "t1"},
		agent.Event{Type: agent.EventToolResult, Call: readCall, Result: ok("x"), ParentID: "t1"})
	if got := l.screen(); got != "● Task(find the config)\n  ↳ ✓ Read(main.go)\n⠋ Task(find the config) · 0s" {
		t.Errorf("while the subagent works:\n%s", got)
	}
	l.send(agent.Event{Type: agent.EventToolResult, Call: task, Result: ok("It is in config.yaml.")})
	if got := l.screen(); got != "● Task(find the config)\n  ↳ ✓ Read(main.go)\n✓ Task(find the config)\n  ⎿ It is in config.yaml.\n" {
		t.Errorf("after:\n%s", got)
	}
	l.v.Close()
}

// On a pipe nothing is drawn in place and no preview is shown: the lines
// are those of a script's log, as before.
func TestRunViewPipedUnchanged(t *testing.T) {
	out, _ := runText(false,
		agent.Event{Type: agent.EventRequest},
		agent.Event{Type: agent.EventToolCall, Call: bashCall},
		agent.Event{Type: agent.EventToolStart, Call: bashCall},
		agent.Event{Type: agent.EventToolOutput, Call: bashCall, Text: "secret progress\n"},
		agent.Event{Type: agent.EventToolResult, Call: bashCall, Result: ok("line\n")})
	if out != "✓ Bash\n" {
		t.Errorf("piped: %q", out)
	}
}

// Output of a call that is not running (over, or never started here) is
// not shown.
func TestRunViewIgnoresStrayOutput(t *testing.T) {
	l := newLiveRun(nil)
	l.send(agent.Event{Type: agent.EventToolOutput, Call: bashCall, Text: "late\n"})
	if l.out.Len() != 0 {
		t.Errorf("stray output drawn: %q", l.out.String())
	}
	l.v.Close()
}

// failingTool presents a failed call as a command that ran and exited
// (Exit set), or as another failure.
type failingTool struct {
	presentingTool
	exit string
}

func (f failingTool) Present(_ tools.Args, res tools.Result) tools.Presentation {
	return tools.Presentation{Failure: &tools.Failure{Error: res.Error, Exit: f.exit, Summary: "The command failed with exit code 1."}}
}

// A command that ran and failed shows as a call line with how it ended
// and how long it took, and its last lines (a failing test's summary is
// at the end); a failure of the tool itself keeps its panel; a pipe gets
// the one line it always had.
func TestRunViewFailedCommand(t *testing.T) {
	goTest := &agent.Call{ID: "c9", Name: "Bash", Args: tools.Args{"command": "go test ./..."}}
	out := "=== RUN   TestGreet\n    greet_test.go:7: Greet() = \"Hello, World!\", want \"Hello, forge!\"\n" +
		"--- FAIL: TestGreet (0.00s)\nFAIL\nFAIL\texample.com/greet\t0.003s\nFAIL\n"
	failed := &agent.CallResult{Status: agent.StatusFailed, Output: out + "\nThe command failed with exit code 1.", Error: out,
		Result: tools.Result{Status: tools.StatusFailed, ErrorKind: tools.KindExecution, Error: out, DurationMS: 3200}}
	exited := func(string) (tools.Tool, bool) { return failingTool{presentingTool{name: "Bash"}, "exit 1"}, true }
	l := newLiveRun(exited)
	l.send(agent.Event{Type: agent.EventToolStart, Call: goTest}, agent.Event{Type: agent.EventToolResult, Call: goTest, Result: failed})
	want := "✗ Bash(go test ./...) · exit 1 · 3.2s\n  ⎿ === RUN   TestGreet\n        greet_test.go:7: Greet() = \"Hello, World!\", want \"H…\n" +
		"    --- FAIL: TestGreet (0.00s)\n    FAIL\n    FAIL    example.com/greet       0.003s\n    FAIL\n"
	if got := l.screen(); got != want {
		t.Errorf("a failed command:\n%s\nwant:\n%s", got, want)
	}
	l.v.Close()

	other := func(string) (tools.Tool, bool) { return failingTool{presentingTool{name: "Bash"}, ""}, true }
	l = newLiveRun(other)
	l.send(agent.Event{Type: agent.EventToolStart, Call: goTest}, agent.Event{Type: agent.EventToolResult, Call: goTest, Result: failed})
	if got := l.screen(); !strings.Contains(got, "Error: Tool Execution Failed") || strings.Contains(got, "✗ Bash") {
		t.Errorf("a tool's own failure lost its panel:\n%s", got)
	}
	l.v.Close()

	var o, e bytes.Buffer
	p := NewText(TextOptions{Out: &o, Err: &e, Renderer: New(Options{Width: 60})})
	v := p.Run(RunInfo{}, RunOptions{Lookup: exited})
	v.Event(agent.Event{Type: agent.EventToolResult, Call: goTest, Result: failed})
	v.Close()
	if o.String() != "✗ Bash(go test ./...): === RUN   TestGreet\n" {
		t.Errorf("piped: %q", o.String())
	}
}

// Every line a call leaves on a narrow terminal fits it: a long command,
// a refusal with the person's words.
func TestRunViewCallLinesFit(t *testing.T) {
	long := &agent.Call{ID: "c7", Name: "Bash", Args: tools.Args{"command": "go test -race -count=1 ./internal/agent/... ./internal/render/... ./internal/repl/..."}}
	denied := &agent.CallResult{Status: agent.StatusDenied, Error: "denied by you: use make test instead, it sets the race detector's options"}
	l := newLiveRun(nil)
	l.send(agent.Event{Type: agent.EventToolStart, Call: long},
		agent.Event{Type: agent.EventToolResult, Call: long, Result: ok("ok\n")},
		agent.Event{Type: agent.EventToolResult, Call: long, Result: denied})
	got := l.screen()
	want := "✓ Bash(go test -race -count=1 ./internal/agent/... ./intern…\n  ⎿ ok\n" +
		"⊘ Bash(go test -race -count=1 …: denied by you: use make\n  test instead, it sets the race detector's options\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	for _, line := range strings.Split(got, "\n") {
		if w := textWidth(line); w > 60 {
			t.Errorf("%q is %d cells wide", line, w)
		}
	}
	l.v.Close()
}

// purposeTool presents what each call is for, as Bash its description.
type purposeTool struct{ presentingTool }

func (purposeTool) Present(args tools.Args, _ tools.Result) tools.Presentation {
	return tools.Presentation{Purpose: args.String("description")}
}

func TestCallHeadlinePurpose(t *testing.T) {
	lookup := func(string) (tools.Tool, bool) { return purposeTool{presentingTool{name: "Bash"}}, true }
	for _, tc := range []struct {
		args tools.Args
		want string
	}{
		{tools.Args{"command": "go test ./..."}, "Bash(go test ./...)"},
		{tools.Args{"command": "go test ./...", "description": "Run the\n  tests"}, "Bash(go test ./...) · Run the tests"},
		{tools.Args{"command": "ls", "description": strings.Repeat("word ", 30)}, "Bash(ls) · " + strings.Repeat("word ", 11) + "word…"},
		{tools.Args{"description": "\x1b[31mred"}, "Bash · ^[[31mred"},
	} {
		if got := CallHeadline(&agent.Call{Name: "Bash", Args: tc.args}, lookup); got != tc.want {
			t.Errorf("CallHeadline(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
