package session

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// A process killed with SIGKILL while it appends leaves a log that loads:
// at most its last record torn, the conversation repaired. The writer is
// TestKillChild in a process of its own.
func TestKilledWriter(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	dir := filepath.Join(t.TempDir(), "s")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "FORGE_SESSION_KILL_DIR="+dir)
	must(t, cmd.Start())
	defer cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if fi, err := os.Stat(logPath(dir, "sess_kill")); err == nil && fi.Size() > 1<<20 {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the writer wrote too little")
		}
		time.Sleep(10 * time.Millisecond)
	}
	must(t, cmd.Process.Kill())
	_ = cmd.Wait()

	s := NewStore(dir, newClock().now)
	// Its sidecar was written when it was created, never since: the list
	// counts what the log holds, as a load does.
	sums, err := s.List()
	must(t, err)
	loaded, err := s.Load("sess_kill")
	must(t, err)
	if len(sums) != 1 || sums[0].Turns != loaded.Turns || loaded.Turns == 0 || !sums[0].ReachedModel() ||
		sums[0].Usage != loaded.Usage || !sums[0].LastActivity.Equal(loaded.LastActivity) {
		t.Errorf("list %+v after the kill; the log holds %d turns, usage %+v", sums, loaded.Turns, loaded.Usage)
	}
	l, st, err := s.Resume("sess_kill")
	must(t, err)
	for _, w := range st.Warnings {
		if !strings.Contains(w, "the last record was cut off") && !strings.HasPrefix(w, "repaired: ") {
			t.Errorf("warning %q", w)
		}
	}
	if _, notes := llm.Repair(st.Messages); len(notes) > 0 || st.Turns == 0 {
		t.Errorf("turns %d, still to repair %q", st.Turns, notes)
	}
	must(t, l.Prompt("after the kill"))
	must(t, l.Close())
	st, err = s.Load("sess_kill")
	must(t, err)
	if last := st.Messages[len(st.Messages)-1]; last.Text != "after the kill" || hasWarning(st.Warnings, "cut off") {
		t.Errorf("after resuming: last %+v, warnings %q", last, st.Warnings)
	}
}

// TestKillChild appends rounds until it is killed; it does nothing in an
// ordinary test run.
func TestKillChild(t *testing.T) {
	dir := os.Getenv("FORGE_SESSION_KILL_DIR")
	if dir == "" {
		t.Skip("run by TestKilledWriter")
	}
	s := NewStore(dir, time.Now)
	l := create(t, s, "sess_kill", "/src")
	for i := 0; ; i++ {
		writeRounds(t, l, 1, 20<<10+i) // outputs of varied sizes, some in side files
		writeRounds(t, l, 1, bigOutput+i)
	}
}
