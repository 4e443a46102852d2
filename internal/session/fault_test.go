package session

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// failingBlobs is a blob store whose writes fail, as on a full disk.
type failingBlobs struct{ blobStore }

func (failingBlobs) put(io.Reader) (string, int64, error) {
	return "", 0, errors.New("no space left on device")
}

// prompted is a session log at its first prompt, and a directory of files.
func prompted(t *testing.T, text string) (*Store, *Log, files) {
	t.Helper()
	f := files{t, t.TempDir()}
	s, _ := newStore(t)
	l := create(t, s, "sess_1", f.dir)
	l.History().Prompt(text, nil)
	must(t, l.Prompt(text))
	return s, l, f
}

// breakLog makes the log's next write fail, as on a full disk.
func breakLog(l *Log) {
	l.mu.Lock()
	_ = l.f.Close()
	l.mu.Unlock()
}

// A checkpoint that cannot be kept (its content not saved, or its record
// not written) is an error before the call runs, and leaves nothing an
// undo would act on: the call is not to run.
func TestCheckpointNotKept(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault func(t *testing.T, l *Log)
	}{
		{"blob writer fails", func(_ *testing.T, l *Log) { l.hist.blobs = failingBlobs{l.hist.blobs} }},
		{"blob directory unusable", func(t *testing.T, l *Log) {
			// A file where the directory should be (root ignores a
			// directory's permissions, not that).
			must(t, os.MkdirAll(outputDir(l.dir, l.id), 0o700))
			must(t, os.WriteFile(blobDir(l.dir, l.id), nil, 0o600))
		}},
		{"log cannot be written", func(_ *testing.T, l *Log) { breakLog(l) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, l, f := prompted(t, "edit")
			f.write("a", "before", 0o644)
			tc.fault(t, l)
			commit, err := l.History().Checkpoint([]string{f.path("a")})
			if err == nil || commit != nil {
				t.Fatalf("checkpoint: %v", err)
			}
			if got := l.History().Prompts(); len(got) != 1 || len(got[0].Files) != 0 {
				t.Errorf("prompts %+v", got)
			}
			if _, err := l.History().PlanUndo(); !errors.Is(err, ErrNothingToUndo) {
				t.Errorf("undo after a checkpoint not kept: %v", err)
			}
			_ = l.Close()
			b, _ := os.ReadFile(logPath(s.dir, "sess_1"))
			if strings.Contains(string(b), `"type":"edit"`) {
				t.Errorf("the log records an edit:\n%s", b)
			}
		})
	}
}

// An edit begun on record but never finished there (forge killed while
// it ran, or the log failing after it) is named by an undo as not
// undoable, unless its file is as before; the prompt's other files are
// restored, and the prompt counts as undone.
func TestUndoNamesUnrecordedEdit(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changed bool // the unrecorded edit changed its file
		fault   func(l *Log, commit func() error)
	}{
		{"killed mid-edit", true, func(*Log, func() error) {}},
		{"killed before it wrote", false, func(*Log, func() error) {}},
		{"log failed after the edit", true, func(l *Log, commit func() error) {
			breakLog(l)
			_ = commit()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, l, f := prompted(t, "edit")
			f.write("a", "a before", 0o644)
			f.write("b", "b before", 0o644)
			edit(t, l.History(), []string{f.path("b")}, func() { f.write("b", "b after", 0o644) })
			commit, err := l.History().Checkpoint([]string{f.path("a")})
			must(t, err)
			if tc.changed {
				f.write("a", "a after", 0o644)
			}
			tc.fault(l, commit)
			_ = l.Close()

			l, _, err = s.Resume("sess_1")
			must(t, err)
			defer l.Close()
			h := l.History()
			if got := h.Prompts(); len(got) != 1 || strings.Join(got[0].Files, ",") != f.path("b")+","+f.path("a") {
				t.Fatalf("prompts %+v", got)
			}
			plan, err := h.PlanUndo()
			must(t, err)
			done, err := h.Restore(plan, nil)
			f.want("b", "b before", 0o644)
			if !tc.changed {
				must(t, err)
				if len(done) != 2 || done[1].Action != ActionUnchanged {
					t.Errorf("restored %+v", done)
				}
				return
			}
			if !errors.Is(err, ErrNotUndoable) || !strings.Contains(err.Error(), "cannot undo "+f.path("a")+": forge stopped") {
				t.Errorf("restore: %v", err)
			}
			if len(done) != 2 || done[0].Action != ActionRestored || done[1].Action != ActionNotUndoable || done[1].Reason == "" {
				t.Errorf("restored %+v", done)
			}
			f.want("a", "a after", 0o644) // left as it is
			if _, err := h.PlanUndo(); !errors.Is(err, ErrNothingToUndo) {
				t.Errorf("the prompt stays to undo: %v", err)
			}
		})
	}
}

// When the log fails after an edit, the shell that made it still knows
// the edit whole and undoes it; only a resume cannot.
func TestUndoInShellAfterLogFailure(t *testing.T) {
	_, l, f := prompted(t, "edit")
	defer l.Close()
	f.write("a", "before", 0o644)
	commit, err := l.History().Checkpoint([]string{f.path("a")})
	must(t, err)
	f.write("a", "after", 0o644)
	breakLog(l)
	if err := commit(); err == nil {
		t.Fatal("the checkpoint record was written to a broken log")
	}
	plan, err := l.History().PlanUndo()
	must(t, err)
	done, err := l.History().Restore(plan, nil)
	if len(done) != 1 || done[0].Action != ActionRestored {
		t.Fatalf("restored %+v (%v)", done, err)
	}
	f.want("a", "before", 0o644)
}

// A file whose state after the edit cannot be read is recorded as lost:
// the edit's commit says so, and an undo, live or resumed, leaves it.
func TestCheckpointLostAfterState(t *testing.T) {
	s, l, f := prompted(t, "edit")
	f.write("a", "before", 0o644)
	commit, err := l.History().Checkpoint([]string{f.path("a")})
	must(t, err)
	must(t, os.Remove(f.path("a")))
	must(t, os.Mkdir(f.path("a"), 0o755)) // no longer a file forge can read
	if err := commit(); err == nil {
		t.Fatal("commit hid that the file could not be read")
	}
	must(t, os.Remove(f.path("a")))
	f.write("a", "later", 0o644)
	for _, h := range []func() *History{
		func() *History { return l.History() },
		func() *History {
			must(t, l.Close())
			var err error
			l, _, err = s.Resume("sess_1")
			must(t, err)
			return l.History()
		},
	} {
		plan, err := h().PlanUndo()
		must(t, err)
		if len(plan.Files) != 1 || !plan.Files[0].NotUndoable() || plan.Files[0].Conflict() ||
			!strings.Contains(plan.Files[0].Lost, "could not be read") {
			t.Errorf("plan %+v", plan)
		}
	}
	must(t, l.Close())
}

// Edit and checkpoint records are checked as they are read.
func TestDecodeEditRecords(t *testing.T) {
	const a = `{"path":"/a","before":null,"after":null}`
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{`{"type":"edit","checkpoint":{"turn":1,"seq":1,"files":[` + a + `]}}`, true},
		{`{"type":"edit","checkpoint":{"turn":1,"seq":1,"files":[]}}`, false},
		{`{"type":"checkpoint","checkpoint":{"turn":1,"seq":1,"files":[]}}`, true},
		{`{"type":"checkpoint","checkpoint":{"turn":1,"files":[]}}`, false},
		{`{"type":"checkpoint","checkpoint":{"turn":1,"seq":-1,"files":[` + a + `]}}`, false},
		{`{"type":"edit","checkpoint":{"turn":1,"seq":1,"files":[{"path":"a","before":null,"after":null}]}}`, false},
	} {
		_, err := decodeRecord([]byte(tc.line))
		if (err == nil) != tc.ok {
			t.Errorf("%s: %v", tc.line, err)
		}
	}
}
