//go:build unix

package builtin

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// newTestExecutor registers this file's groups of tools (execution, web,
// other) lazily in a fresh registry, with per-tool configuration, and closes
// the registry when the test ends.
func newTestExecutor(t *testing.T, config map[string]map[string]any) (*tools.Executor, *tools.Registry) {
	t.Helper()
	if config == nil {
		config = map[string]map[string]any{}
	}
	if config["Bash"] == nil {
		config["Bash"] = map[string]any{"kill_grace": "200ms", "output_dir": t.TempDir()}
	}
	reg := specRegistry(t, config, execSpecs(&shellHolder{}), webSpecs(), otherSpecs())
	t.Cleanup(func() {
		if err := reg.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return tools.NewExecutor(reg), reg
}

func runJSON(t *testing.T, e *tools.Executor, ec tools.ExecutionContext, name, args string) tools.Result {
	t.Helper()
	return e.ExecuteJSON(context.Background(), name, ec, json.RawMessage(args))
}

// The timeout argument is the call's deadline, and the whole group ends.
func TestExecutorBashTimeout(t *testing.T) {
	e, _ := newTestExecutor(t, nil)
	ec := testEC(t)
	marker := ec.WorkingDir + "/pgid"
	start := time.Now()
	r := runJSON(t, e, ec, "Bash", `{"command":"echo $$ > pgid; sleep 60 & sleep 60","timeout":1000}`)
	if r.Status != tools.StatusTimedOut {
		t.Fatalf("%+v", r)
	}
	if d := time.Since(start); d > 30*time.Second { // 60 s if the timeout were ignored
		t.Errorf("returned after %s: the 1 s timeout was not applied", d)
	}
	if !strings.Contains(r.Error, "timed out after 1s") {
		t.Errorf("error %q", r.Error)
	}
	waitGone(t, readPid(t, marker))
}

// A timeout argument longer than the context's is not cut short by it.
func TestExecutorBashTimeoutOutlivesContextTimeout(t *testing.T) {
	e, _ := newTestExecutor(t, nil)
	ec := testEC(t)
	ec.Timeout = 300 * time.Millisecond
	r := runJSON(t, e, ec, "Bash", `{"command":"sleep 0.6; echo done","timeout":3000}`)
	if !r.Success || !strings.Contains(r.Display(), "done") {
		t.Fatalf("%+v", r)
	}
	// Without the argument the context's shorter timeout applies.
	r = runJSON(t, e, ec, "Bash", `{"command":"sleep 0.6; echo done"}`)
	if r.Status != tools.StatusTimedOut {
		t.Fatalf("%+v", r)
	}
}

// `sleep 300 &` returns at once; Registry.Close ends what it left.
func TestExecutorBashBackgroundChildAndClose(t *testing.T) {
	e, reg := newTestExecutor(t, nil)
	ec := testEC(t)
	start := time.Now()
	r := runJSON(t, e, ec, "Bash", `{"command":"echo $$ > pgid; sleep 300 &"}`)
	if !r.Success {
		t.Fatalf("%+v", r)
	}
	if d := time.Since(start); d > 10*time.Second { // 300 s if the call waited for the pipe
		t.Fatalf("took %s", d)
	}
	bg := runJSON(t, e, ec, "Bash", `{"command":"sleep 300","run_in_background":true}`)
	if !bg.Success || bg.Metadata["bash_id"] != "bash_2" {
		t.Fatalf("%+v", bg)
	}
	out := runJSON(t, e, ec, "BashOutput", `{"bash_id":"bash_2"}`)
	if !out.Success || out.Metadata["status"] != "running" {
		t.Fatalf("%+v", out)
	}
	pgid := readPid(t, ec.WorkingDir+"/pgid")
	bgPgid, _ := bg.Metadata["pgid"].(int)
	if err := reg.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pgid)
	waitGone(t, bgPgid)
}

func TestExecutorBashFailureAndDryRun(t *testing.T) {
	e, _ := newTestExecutor(t, nil)
	ec := testEC(t)
	r := runJSON(t, e, ec, "Bash", `{"command":"echo Operation not permitted >&2; exit 1"}`)
	if r.Success || r.ErrorKind != tools.KindExecution || r.Error != "Operation not permitted\n\nThe command failed with exit code 1." {
		t.Fatalf("%+v", r)
	}
	ec.DryRun = true
	r = runJSON(t, e, ec, "Bash", `{"command":"rm -rf /"}`)
	if r.Status != tools.StatusDryRun || r.Display() != "[Dry Run] Would run: rm -rf / (in "+ec.WorkingDir+")" {
		t.Fatalf("%+v", r)
	}
}

func TestExecutorBashValidation(t *testing.T) {
	e, _ := newTestExecutor(t, nil)
	for _, args := range []string{`{}`, `{"command":"true","timeout":5}`, `{"command":"true","timeout":700000}`} {
		r := runJSON(t, e, testEC(t), "Bash", args)
		if r.Success || r.ErrorKind != tools.KindValidation {
			t.Errorf("%s: %+v", args, r)
		}
	}
}

func TestExecutorCancelEndsGroup(t *testing.T) {
	e, _ := newTestExecutor(t, nil)
	ec := testEC(t)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { // cancel once the command is surely running
		for {
			if _, err := os.Stat(ec.WorkingDir + "/pgid"); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	r := e.ExecuteJSON(ctx, "Bash", ec, json.RawMessage(`{"command":"echo $$ > pgid.tmp; mv pgid.tmp pgid; sleep 300"}`))
	if r.Status != tools.StatusCancelled {
		t.Fatalf("%+v", r)
	}
	waitGone(t, readPid(t, ec.WorkingDir+"/pgid"))
}

func TestExecutorTaskTools(t *testing.T) {
	e, reg := newTestExecutor(t, nil)
	for _, name := range []string{"task_completion", "ask_question", "converse"} {
		tl, ok := reg.Get(name)
		if !ok || !tools.IsLoopBreaking(tl) || tl.Category() != tools.CategoryTask {
			t.Errorf("%s: registered %v, loop-breaking/category wrong", name, ok)
		}
	}
	for _, name := range []string{"Bash", "calculator", "WebFetch"} {
		if tl, _ := reg.Get(name); tools.IsLoopBreaking(tl) {
			t.Errorf("%s is loop-breaking", name)
		}
	}
	r := runJSON(t, e, testEC(t), "calculator", `{"operation":"multiply","a":15,"b":23}`)
	if !r.Success || r.Display() != "345" {
		t.Errorf("%+v", r)
	}
	r = runJSON(t, e, testEC(t), "calculator", `{"operation":"divide","a":1,"b":0}`)
	if r.Success || r.Error != "Cannot divide by zero" {
		t.Errorf("%+v", r)
	}
}

// Every tool of these groups is registered with a valid descriptor in the
// category the wireframes give it.
func TestSpecsCategories(t *testing.T) {
	want := map[string]tools.Category{
		"Bash": tools.CategoryExecution, "BashOutput": tools.CategoryExecution, "KillShell": tools.CategoryExecution,
		"WebFetch": tools.CategoryWeb, "WebSearch": tools.CategoryWeb, "NotebookEdit": tools.CategoryNotebook,
		"calculator": tools.CategoryOther, "task_completion": tools.CategoryTask, "ask_question": tools.CategoryTask, "converse": tools.CategoryTask,
	}
	_, reg := newTestExecutor(t, nil)
	if reg.Count() != len(want) {
		t.Errorf("%d tools, want %d: %v", reg.Count(), len(want), reg.ListNames())
	}
	for name, c := range want {
		tl, ok := reg.Get(name)
		if !ok || tl.Category() != c {
			t.Errorf("%s: registered %v, category want %s", name, ok, c)
		}
	}
}
