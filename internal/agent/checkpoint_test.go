package agent

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
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

func TestCheckpointFailureIsANotice(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{scriptCall("Write", `{"file_path": "a.txt", "content": "a"}`)}},
		{Text: "ok"},
	}})
	h.cfg.Checkpointer = &fakeCheckpointer{failSave: true}
	h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
	d := h.run(context.Background(), "go")
	if len(d.FilesChanged) != 1 {
		t.Fatalf("the write did not run: %+v", d)
	}
	for _, e := range h.events {
		if e.Type == EventNotice && strings.Contains(e.Text, "/undo cannot undo this change") {
			return
		}
	}
	t.Fatal("no notice that the change cannot be undone")
}
