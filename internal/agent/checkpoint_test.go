package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/session"
)

// fakeCheckpointer records what it is asked to keep, and what each file
// held when it was first asked.
type fakeCheckpointer struct {
	mu       sync.Mutex
	saved    []string
	before   map[string]string
	commits  int
	failSave bool
}

func (f *fakeCheckpointer) Checkpoint(paths []string) (func() error, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failSave {
		return nil, os.ErrPermission
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			b = []byte("<absent>")
		}
		f.saved = append(f.saved, p)
		if _, ok := f.before[p]; !ok {
			f.before[p] = string(b)
		}
	}
	return func() error {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.commits++
		return nil
	}, nil
}

func TestCheckpointsBeforeEdits(t *testing.T) {
	turns := []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{
			scriptCall("Write", `{"file_path": "new.txt", "content": "new"}`),
			scriptCall("Edit", `{"file_path": "old.txt", "old_string": "old", "new_string": "edited"}`),
			scriptCall("Read", `{"file_path": "old.txt"}`),
			scriptCall("Write", `{"file_path": "/etc/forge-outside", "content": "x"}`),
			scriptCall("Edit", `{"file_path": "old.txt", "old_string": "not there", "new_string": "x"}`),
		}},
		{Text: "ok"},
	}
	cases := []struct {
		name    string
		dryRun  bool
		mode    permission.Mode
		saved   []string
		changed []string
		commits int
	}{
		{name: "yolo", mode: permission.ModeYolo, saved: []string{"new.txt", "old.txt", "old.txt"}, changed: []string{"new.txt", "old.txt"}, commits: 3},
		{name: "dry run", mode: permission.ModeYolo, dryRun: true},
		{name: "refused", mode: permission.ModeAsk}, // no approver: edits are denied
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: turns})
			h.file("old.txt", "old text\n")
			cp := &fakeCheckpointer{before: map[string]string{}}
			h.cfg.Checkpointer = cp
			h.cfg.Policy = h.policy(permission.Config{Mode: c.mode})
			h.cfg.Exec.DryRun = c.dryRun
			d := h.run(context.Background(), "go")
			dir, _ := filepath.EvalSymlinks(h.dir)
			rel := func(ps []string) []string {
				var out []string
				for _, p := range ps {
					r, _ := filepath.Rel(dir, p)
					out = append(out, r)
				}
				return out
			}
			if got := rel(cp.saved); !slices.Equal(got, c.saved) {
				t.Errorf("saved %q, want %q", got, c.saved)
			}
			if got := rel(d.FilesChanged); !slices.Equal(got, c.changed) {
				t.Errorf("files changed %q, want %q", got, c.changed)
			}
			if cp.commits != c.commits {
				t.Errorf("%d commits, want %d", cp.commits, c.commits)
			}
			if c.commits > 0 && cp.before[filepath.Join(dir, "old.txt")] != "old text\n" {
				t.Errorf("old.txt was saved as %q, not as it was before the edit", cp.before[filepath.Join(dir, "old.txt")])
			}
		})
	}
}

// An edit whose checkpoint cannot be kept is not run: the file stays as
// it was, and the model is told why, so that no change exists that undo
// cannot take back. Both with a failing Checkpointer and with a session
// whose blob directory cannot be made (a file that does not exist yet
// needs no blob: creating it could still be undone).
func TestEditNotRunWithoutCheckpoint(t *testing.T) {
	for _, tc := range []struct {
		name string
		cp   func(t *testing.T, h *harness) Checkpointer
	}{
		{"checkpointer fails", func(*testing.T, *harness) Checkpointer { return &fakeCheckpointer{failSave: true} }},
		{"session blobs unusable", func(t *testing.T, h *harness) Checkpointer {
			dir := filepath.Join(t.TempDir(), "sessions")
			log, err := session.NewStore(dir, time.Now).Create(session.Meta{ID: "sess_1", CWD: h.dir})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { log.Close() })
			// A file where the blob directory goes: nothing can be kept.
			if err := os.MkdirAll(filepath.Join(dir, "sess_1.d"), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "sess_1.d", "blobs"), nil, 0o600); err != nil {
				t.Fatal(err)
			}
			h.conv.Log = log
			history := log.History()
			history.Prompt("go", nil)
			return history
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{
					scriptCall("Write", `{"file_path": "a.txt", "content": "new"}`),
					scriptCall("Edit", `{"file_path": "b.txt", "old_string": "old", "new_string": "edited"}`),
				}},
				{Text: "ok"},
			}})
			h.file("a.txt", "old\n")
			h.file("b.txt", "old\n")
			h.cfg.Checkpointer = tc.cp(t, h)
			h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
			d := h.run(context.Background(), "go")
			if len(d.FilesChanged) != 0 {
				t.Errorf("files changed: %v", d.FilesChanged)
			}
			for _, name := range []string{"a.txt", "b.txt"} {
				if b, _ := os.ReadFile(filepath.Join(h.dir, name)); string(b) != "old\n" {
					t.Errorf("%s is %q", name, b)
				}
			}
			told := resultsOf(h.srv.Requests()[1])
			for i, r := range h.results() {
				if r.Status != StatusFailed || !strings.Contains(r.Error, "could not keep a checkpoint for undo") {
					t.Errorf("result %d: %+v", i, r)
				}
				if len(told) != 2 || !strings.HasPrefix(told[i], "Could not keep a checkpoint for undo: ") ||
					!strings.HasSuffix(told[i], "; the file was not changed.") {
					t.Errorf("the model was told %q", told)
				}
			}
			h.assertValid()
		})
	}
}
