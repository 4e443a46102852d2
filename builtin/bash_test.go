//go:build unix

package builtin

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/proc"
	"github.com/forgehq/forge/internal/tools"
)

// newTestBash builds Bash with a short kill grace and its own table, which
// the test closes (ending every group it started).
func newTestBash(t *testing.T) *bashTool {
	t.Helper()
	b := buildTool(t, newBash(&shellHolder{}), map[string]any{"kill_grace": "200ms", "output_dir": t.TempDir()}).(*bashTool)
	t.Cleanup(func() { b.Close() })
	return b
}

// bashArgs are validated Bash arguments with the defaults applied.
func bashArgs(command string) tools.Args {
	return tools.Args{"command": command, "timeout": bashDefaultTimeoutMS, "run_in_background": false}
}

// waitGone fails the test unless the group soon has no live member.
func waitGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second) // a bound for a loaded machine
	for time.Now().Before(deadline) {
		if !proc.Alive(pgid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	m, _ := proc.Members(pgid)
	t.Fatalf("process group %d still has live members %v", pgid, m)
}

// readPid reads the pid a command wrote to path ($$: the shell, the leader
// of the group).
func readPid(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func jsonNumber(s string) json.Number { return json.Number(s) }

func metaInt(t *testing.T, r tools.Result, key string) int {
	t.Helper()
	switch v := r.Metadata[key].(type) {
	case int:
		return v
	case int64:
		return int(v)
	}
	t.Fatalf("metadata %q = %#v (%T), want an integer; result %+v", key, r.Metadata[key], r.Metadata[key], r)
	return 0
}

func TestBashForeground(t *testing.T) {
	b := newTestBash(t)
	ec := testEC(t)
	cases := []struct {
		name     string
		command  string
		ok       bool
		exit     int
		contains []string
	}{
		{"echo", "echo hello", true, 0, []string{"hello\n"}},
		{"stdout and stderr together", "echo out; echo err >&2", true, 0, []string{"out\n", "err\n"}},
		{"working directory", "pwd", true, 0, []string{ec.WorkingDir}},
		{"stdin is empty", "cat; echo after", true, 0, []string{"after"}},
		{"no output", "true", true, 0, []string{"(no output)"}},
		{"exit code", "echo oops; exit 3", false, 3, []string{"oops", "The command failed with exit code 3."}},
		{"killed by signal", "kill -KILL $$", false, -1, []string{"The command was killed by signal SIGKILL."}},
		{"unicode", "printf 'héllo ✓'", true, 0, []string{"héllo ✓"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := b.Execute(context.Background(), ec, bashArgs(c.command))
			if r.Success != c.ok {
				t.Fatalf("Success = %v, want %v: %+v", r.Success, c.ok, r)
			}
			text := r.Display()
			for _, want := range c.contains {
				if !strings.Contains(text, want) {
					t.Errorf("result %q does not contain %q", text, want)
				}
			}
			if got := metaInt(t, r, "exit_code"); got != c.exit {
				t.Errorf("exit_code = %d, want %d", got, c.exit)
			}
		})
	}
}

func TestBashBadInput(t *testing.T) {
	b := newTestBash(t)
	ec := testEC(t)
	missing := ec
	missing.WorkingDir = ec.WorkingDir + "/nope"
	cases := []struct {
		name, command string
		ec            tools.ExecutionContext
		want          string
	}{
		{"empty", "  ", ec, "The command is empty."},
		{"NUL", "echo a\x00b", ec, "NUL byte"},
		{"missing working directory", "true", missing, "Working directory does not exist: " + missing.WorkingDir},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := b.Execute(context.Background(), c.ec, bashArgs(c.command))
			if r.Success || !strings.Contains(r.Error, c.want) {
				t.Fatalf("got %+v, want a failure containing %q", r, c.want)
			}
		})
	}
	// A context that has already ended starts nothing.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := b.Execute(ctx, ec, bashArgs("touch started"))
	if r.Status != tools.StatusCancelled || !strings.Contains(r.Error, "not started") {
		t.Fatalf("got %+v", r)
	}
}

// The output is bounded: head and tail kept, the middle counted.
func TestBashOutputCap(t *testing.T) {
	b := newTestBash(t)
	ec := testEC(t)
	ec.MaxOutputSize = 1000
	// 2 MB, far beyond the cap; the first and last lines are recognisable.
	r := b.Execute(context.Background(), ec, bashArgs("echo FIRST; head -c 2000000 /dev/zero | tr '\\0' a; echo; echo LAST"))
	if !r.Success {
		t.Fatalf("%+v", r)
	}
	out := r.Output.(string)
	if len(out) > ec.MaxOutputSize {
		t.Errorf("output is %d bytes, cap %d", len(out), ec.MaxOutputSize)
	}
	for _, want := range []string{"FIRST", "LAST", "bytes of output omitted"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if got := r.Metadata["bytes"].(int64); got != int64(2000000+len("FIRST\n\nLAST\n")) {
		t.Errorf("bytes = %d", got)
	}
	if r.Metadata["truncated"] != true {
		t.Error("truncated not set")
	}
}

// A background child that keeps the output pipe open must not hang the
// call; it is tracked and ended when the table closes.
func TestBashBackgroundChildDoesNotHang(t *testing.T) {
	b := newTestBash(t)
	start := time.Now()
	r := b.Execute(context.Background(), testEC(t), bashArgs("echo started; sleep 300 &"))
	if d := time.Since(start); d > 10*time.Second { // it would be 300 s if the call waited for the pipe
		t.Fatalf("call took %s", d)
	}
	if !r.Success || !strings.Contains(r.Display(), "started") || !strings.Contains(r.Display(), "still running as bash_1") {
		t.Fatalf("%+v", r)
	}
	s, ok := b.shells.get("bash_1")
	if !ok {
		t.Fatal("the leftover group was not adopted")
	}
	if st, _ := s.status(); st != shellRunning {
		t.Fatalf("status %s", st)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, s.pgid)
	if st, _ := s.status(); st != shellKilled {
		t.Errorf("status after close = %s, want killed", st)
	}
	// No new commands after Close.
	if r := b.Execute(context.Background(), testEC(t), bashArgs("sleep 300 &")); !strings.Contains(r.Display(), "ended") {
		t.Errorf("after close: %+v", r)
	}
}

// A leftover child that does not hold the pipe is tracked too.
func TestBashDetachedChildTracked(t *testing.T) {
	b := newTestBash(t)
	r := b.Execute(context.Background(), testEC(t), bashArgs("sleep 300 >/dev/null 2>&1 &"))
	if !r.Success || !strings.Contains(r.Display(), "bash_1") {
		t.Fatalf("%+v", r)
	}
	s, _ := b.shells.get("bash_1")
	b.Close()
	waitGone(t, s.pgid)
}

func TestBashTimeoutEndsGroup(t *testing.T) {
	b := newTestBash(t)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	r := b.Execute(ctx, testEC(t), bashArgs("echo before; sleep 300 & sleep 300"))
	if r.Status != tools.StatusTimedOut || r.ErrorKind != tools.KindTimeout {
		t.Fatalf("%+v", r)
	}
	if !strings.Contains(r.Error, "before") || !strings.Contains(r.Error, "timed out after") {
		t.Errorf("error %q", r.Error)
	}
	if pg, ok := r.Metadata["exit_code"]; !ok || pg != -1 {
		t.Errorf("exit_code %v", pg)
	}
	assertNoSleepers(t, b)
	waitGone(t, metaInt(t, r, "pgid"))
}

// assertNoSleepers checks that no group of the table is alive and the last
// foreground group is gone: Terminate returned only once it was.
func assertNoSleepers(t *testing.T, b *bashTool) {
	t.Helper()
	if n := len(b.shells.list()); n != 0 {
		t.Errorf("%d shells adopted after a stopped command", n)
	}
}

func TestBashCancelEndsGroup(t *testing.T) {
	b := newTestBash(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	r := b.Execute(ctx, testEC(t), bashArgs("sleep 300 & sleep 300"))
	if r.Status != tools.StatusCancelled || !strings.Contains(r.Error, "cancelled") {
		t.Fatalf("%+v", r)
	}
	waitGone(t, metaInt(t, r, "pgid"))
}

// A command that ignores SIGTERM is killed after the grace.
func TestBashTermIgnoredIsKilled(t *testing.T) {
	b := newTestBash(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	r := b.Execute(ctx, testEC(t), bashArgs("trap '' TERM; sleep 300 & sleep 300"))
	if r.Status != tools.StatusTimedOut {
		t.Fatalf("%+v", r)
	}
	waitGone(t, metaInt(t, r, "pgid"))
}

func TestBashCallTimeout(t *testing.T) {
	b := newTestBash(t)
	ec := tools.NewExecutionContext("")
	short := ec
	short.Timeout = 30 * time.Second
	cases := []struct {
		name string
		ec   tools.ExecutionContext
		raw  tools.Args
		want time.Duration
	}{
		{"argument wins over a shorter context", short, tools.Args{"command": "x", "timeout": 300000}, 300 * time.Second},
		{"the default, as validation fills it, does not", short, tools.Args{"command": "x", "timeout": bashDefaultTimeoutMS}, 30 * time.Second},
		{"argument as decoded JSON", ec, tools.Args{"command": "x", "timeout": jsonNumber("5000")}, 5 * time.Second},
		{"no argument: the shorter context", short, tools.Args{"command": "x"}, 30 * time.Second},
		{"no argument: at most 120 s", func() tools.ExecutionContext { e := ec; e.Timeout = time.Hour; return e }(), tools.Args{"command": "x"}, 120 * time.Second},
		{"background: the context's", ec, tools.Args{"command": "x", "run_in_background": true}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := b.CallTimeout(c.ec, c.raw); got != c.want {
				t.Errorf("CallTimeout = %s, want %s", got, c.want)
			}
		})
	}
}

func TestBashDryRun(t *testing.T) {
	b := newTestBash(t)
	ec := testEC(t)
	if got, want := b.DryRun(ec, bashArgs("rm -rf build")), "Would run: rm -rf build (in "+ec.WorkingDir+")"; got != want {
		t.Errorf("DryRun = %q, want %q", got, want)
	}
	a := bashArgs("make serve")
	a["run_in_background"] = true
	if got := b.DryRun(ec, a); !strings.HasPrefix(got, "Would run in background: make serve") {
		t.Errorf("DryRun = %q", got)
	}
}

func TestBashSchemaMatchesSeed(t *testing.T) {
	raw, err := tools.ExportSchema(bashDescriptor, tools.FormatOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	for _, want := range []string{
		`"name":"Bash"`,
		`"command":{"type":"string","description":"The command to execute"}`,
		`"timeout":{"type":"integer","description":"Timeout in milliseconds"`,
		`"run_in_background":{"type":"boolean","description":"Run command in background"`,
		`"required":["command"]`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("schema %s lacks %s", s, want)
		}
	}
	if !strings.HasPrefix(bashDescriptor.Description, "Execute a bash command.") {
		t.Errorf("description %q", bashDescriptor.Description)
	}
}

// A command that wants a terminal fails at once instead of hanging: it runs
// in a session of its own, without a controlling terminal.
func TestBashNoControllingTerminal(t *testing.T) {
	b := newTestBash(t)
	r := b.Execute(context.Background(), testEC(t), bashArgs("cat /dev/tty"))
	if r.Success || r.Status == tools.StatusTimedOut || !strings.Contains(r.Error, "exit code 1") {
		t.Fatalf("%+v", r)
	}
}
