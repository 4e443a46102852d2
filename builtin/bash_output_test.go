//go:build unix

package builtin

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// execTrio builds Bash, BashOutput and KillShell over one table, as
// execSpecs does.
func execTrio(t *testing.T) (*bashTool, *bashOutputTool, *killShellTool) {
	t.Helper()
	h := &shellHolder{}
	ctx := context.Background()
	deps := tools.Deps{Config: map[string]any{"kill_grace": "200ms", "output_dir": t.TempDir()}}
	b, err := newBash(h)(ctx, deps)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := newBashOutput(h)(ctx, tools.Deps{})
	k, _ := newKillShell(h)(ctx, tools.Deps{})
	t.Cleanup(func() { o.(*bashOutputTool).Close() })
	return b.(*bashTool), o.(*bashOutputTool), k.(*killShellTool)
}

func startBackground(t *testing.T, b *bashTool, ec tools.ExecutionContext, command string) string {
	t.Helper()
	a := bashArgs(command)
	a["run_in_background"] = true
	r := b.Execute(context.Background(), ec, a)
	if !r.Success {
		t.Fatalf("start %q: %+v", command, r)
	}
	id, _ := r.Metadata["bash_id"].(string)
	if !strings.Contains(r.Display(), id) || !strings.Contains(r.Display(), "BashOutput") {
		t.Errorf("start message %q", r.Display())
	}
	return id
}

// readUntil reads id until its status is want (or 10 s pass), returning
// everything read.
func readUntil(t *testing.T, o *bashOutputTool, ec tools.ExecutionContext, id string, want shellState) (string, tools.Result) {
	t.Helper()
	var all strings.Builder
	deadline := time.Now().Add(10 * time.Second) // a bound for a loaded machine
	for {
		r := o.Execute(context.Background(), ec, tools.Args{"bash_id": id})
		if !r.Success {
			t.Fatalf("BashOutput: %+v", r)
		}
		all.WriteString(r.Display())
		if r.Metadata["status"] == string(want) {
			return all.String(), r
		}
		if time.Now().After(deadline) {
			t.Fatalf("status %v after 10s, want %s; read %q", r.Metadata["status"], want, all.String())
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// waitDrained waits until the background command's output has ended.
func waitDrained(t *testing.T, b *bashTool, id string) {
	t.Helper()
	s, _ := b.shells.get(id)
	select {
	case <-s.drained:
	case <-time.After(10 * time.Second): // a bound for a loaded machine, not a timing
		t.Fatal("command did not finish")
	}
}

func TestBashOutputIncremental(t *testing.T) {
	b, o, _ := execTrio(t)
	ec := testEC(t)
	id := startBackground(t, b, ec, "echo one; sleep 0.3; echo two; exit 4")
	if id != "bash_1" {
		t.Errorf("id = %q, want bash_1", id)
	}
	all, last := readUntil(t, o, ec, id, shellExited)
	if !strings.Contains(all, "one\n") || !strings.Contains(all, "two\n") {
		t.Errorf("read %q", all)
	}
	if strings.Count(all, "one\n") != 1 {
		t.Errorf("output repeated: %q", all)
	}
	if got := metaInt(t, last, "exit_code"); got != 4 {
		t.Errorf("exit_code = %d", got)
	}
	if !strings.Contains(last.Display(), "Status: exited (exit code 4)") {
		t.Errorf("last read %q", last.Display())
	}
	// Nothing new afterwards.
	r := o.Execute(context.Background(), ec, tools.Args{"bash_id": id})
	if !strings.Contains(r.Display(), "(no new output)") {
		t.Errorf("re-read %q", r.Display())
	}
}

func TestBashOutputFilter(t *testing.T) {
	b, o, _ := execTrio(t)
	ec := testEC(t)
	id := startBackground(t, b, ec, "printf 'ok 1\\nERROR a\\nok 2\\nERROR b\\n'")
	waitDrained(t, b, id)
	r := o.Execute(context.Background(), ec, tools.Args{"bash_id": id, "filter": "^ERROR"})
	body := strings.SplitN(r.Display(), "\n\n", 2)[1] // after the status and command lines
	if !r.Success || body != "ERROR a\nERROR b\n" {
		t.Fatalf("filtered read %+v", r)
	}
	r = o.Execute(context.Background(), ec, tools.Args{"bash_id": id, "filter": "("})
	if r.Success || !strings.Contains(r.Error, "Invalid filter regular expression") {
		t.Fatalf("bad filter: %+v", r)
	}
}

func TestBashOutputUnknownID(t *testing.T) {
	b, o, k := execTrio(t)
	ec := testEC(t)
	r := o.Execute(context.Background(), ec, tools.Args{"bash_id": "bash_9"})
	if r.Success || !strings.Contains(r.Error, "There are no background shells") {
		t.Fatalf("%+v", r)
	}
	id := startBackground(t, b, ec, "sleep 300")
	for _, r := range []tools.Result{
		o.Execute(context.Background(), ec, tools.Args{"bash_id": "bash_9"}),
		k.Execute(context.Background(), ec, tools.Args{"shell_id": "bash_9"}),
	} {
		if r.Success || !strings.Contains(r.Error, `No background shell with id "bash_9"`) || !strings.Contains(r.Error, id+" (running: sleep 300)") {
			t.Errorf("%+v", r)
		}
	}
}

func TestKillShell(t *testing.T) {
	b, o, k := execTrio(t)
	ec := testEC(t)
	id := startBackground(t, b, ec, "echo up; sleep 300 & sleep 300")
	s, _ := b.shells.get(id)
	if got := k.DryRun(ec, tools.Args{"shell_id": id}); !strings.Contains(got, "Would kill background shell "+id) {
		t.Errorf("DryRun %q", got)
	}
	r := k.Execute(context.Background(), ec, tools.Args{"shell_id": id})
	if !r.Success || !strings.Contains(r.Display(), "Killed shell "+id) {
		t.Fatalf("%+v", r)
	}
	waitGone(t, s.pgid)
	_, last := readUntil(t, o, ec, id, shellKilled)
	if !strings.Contains(last.Display(), "killed") {
		t.Errorf("%q", last.Display())
	}
	// Killing again says it had ended.
	r = k.Execute(context.Background(), ec, tools.Args{"shell_id": id})
	if !r.Success || !strings.Contains(r.Display(), "had already ended") {
		t.Errorf("%+v", r)
	}
}

// Background output is bounded: the oldest bytes are dropped and counted.
func TestBashOutputBounded(t *testing.T) {
	b, o, _ := execTrio(t)
	ec := testEC(t)
	ec.MaxOutputSize = 2000
	id := startBackground(t, b, ec, "head -c 1200000 /dev/zero | tr '\\0' x; echo; echo END")
	waitDrained(t, b, id)
	r := o.Execute(context.Background(), ec, tools.Args{"bash_id": id})
	if !r.Success {
		t.Fatal(r.Error)
	}
	if d, _ := r.Metadata["dropped"].(int64); d != 1200000+5-streamSize {
		t.Errorf("dropped = %v", r.Metadata["dropped"])
	}
	if txt := r.Display(); len(txt) > 2500 || !strings.Contains(txt, "END") || !strings.Contains(txt, "earlier bytes were dropped") {
		t.Errorf("read %d bytes: %.300q", len(txt), txt)
	}
}

func TestBashOutputCancelledAndDryRun(t *testing.T) {
	_, o, _ := execTrio(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := o.Execute(ctx, testEC(t), tools.Args{"bash_id": "bash_1"}); r.Success {
		t.Errorf("%+v", r)
	}
	if got := o.DryRun(testEC(t), tools.Args{"bash_id": "bash_1"}); got != "Would read the new output of background shell bash_1" {
		t.Errorf("%q", got)
	}
}

// The table forgets the oldest ended commands beyond maxShells, never a
// running one.
func TestShellTablePrunes(t *testing.T) {
	b, _, _ := execTrio(t)
	ec := testEC(t)
	running := startBackground(t, b, ec, "sleep 300")
	var last string
	for i := 0; i < maxShells+5; i++ {
		last = startBackground(t, b, ec, "true")
		waitDrained(t, b, last)
		s, _ := b.shells.get(last)
		<-s.group.Done()
	}
	if n := len(b.shells.list()); n > maxShells {
		t.Errorf("%d shells kept, at most %d expected", n, maxShells)
	}
	if _, ok := b.shells.get(running); !ok {
		t.Error("the running command was forgotten")
	}
	if _, ok := b.shells.get(last); !ok {
		t.Error("the newest command was forgotten")
	}
	if _, ok := b.shells.get("bash_2"); ok {
		t.Error("the oldest ended command was kept")
	}
}
