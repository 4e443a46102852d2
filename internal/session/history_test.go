package session

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

func TestBlobStores(t *testing.T) {
	for name, b := range map[string]blobStore{
		"dir":    dirBlobs{dir: filepath.Join(t.TempDir(), "blobs")},
		"memory": &memBlobs{m: map[string][]byte{}},
	} {
		t.Run(name, func(t *testing.T) {
			h1, n, err := b.put(strings.NewReader("hello"))
			must(t, err)
			h2, _, err := b.put(strings.NewReader("hello"))
			must(t, err)
			if h1 != h2 || n != 5 || h1 != "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" {
				t.Fatalf("hashes %s %s, size %d", h1, h2, n)
			}
			got, err := b.get(h1)
			if err != nil || string(got) != "hello" {
				t.Fatalf("get = %q, %v", got, err)
			}
			must(t, b.has(h1, 5))
			if err := b.has(h1, 6); !errors.Is(err, ErrBadBlob) {
				t.Fatalf("has with the wrong size: %v", err)
			}
			if _, err := b.get(strings.Repeat("0", 64)); !errors.Is(err, ErrBadBlob) {
				t.Fatalf("get of a missing blob: %v", err)
			}
		})
	}
}

func TestDirBlobsDedupAndDamage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "blobs")
	b := dirBlobs{dir: dir}
	h, _, err := b.put(strings.NewReader("one"))
	must(t, err)
	_, _, err = b.put(strings.NewReader("one"))
	must(t, err)
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files for one content, want 1 (no temporary left)", len(entries))
	}
	must(t, os.WriteFile(filepath.Join(dir, h), []byte("two"), 0o600))
	if _, err := b.get(h); !errors.Is(err, ErrBadBlob) || !strings.Contains(err.Error(), "sha256 is now") {
		t.Fatalf("get of a damaged blob: %v", err)
	}
	for _, bad := range []string{"../../etc/passwd", "", strings.Repeat("z", 64)} {
		if _, err := b.get(bad); !errors.Is(err, ErrBadBlob) {
			t.Fatalf("get(%q) = %v, want ErrBadBlob", bad, err)
		}
	}
}

// files is a working tree for history tests.
type files struct {
	t   *testing.T
	dir string
}

func (f files) path(name string) string { return filepath.Join(f.dir, name) }

func (f files) write(name, content string, mode fs.FileMode) {
	f.t.Helper()
	must(f.t, os.WriteFile(f.path(name), []byte(content), mode))
	must(f.t, os.Chmod(f.path(name), mode))
}

func (f files) want(name, content string, mode fs.FileMode) {
	f.t.Helper()
	fi, err := os.Stat(f.path(name))
	if err != nil {
		f.t.Fatalf("%s: %v", name, err)
	}
	b, _ := os.ReadFile(f.path(name))
	if string(b) != content || fi.Mode().Perm() != mode {
		f.t.Fatalf("%s is %q %v, want %q %v", name, b, fi.Mode().Perm(), content, mode)
	}
}

func (f files) gone(name string) {
	f.t.Helper()
	if _, err := os.Lstat(f.path(name)); !errors.Is(err, fs.ErrNotExist) {
		f.t.Fatalf("%s exists: %v", name, err)
	}
}

// edit is a call of the agent: checkpoint, change, commit.
func edit(t *testing.T, h *History, paths []string, change func()) {
	t.Helper()
	commit, err := h.Checkpoint(paths)
	must(t, err)
	change()
	must(t, commit())
}

func TestHistoryUndo(t *testing.T) {
	for _, mode := range []string{"memory", "log"} {
		t.Run(mode, func(t *testing.T) {
			f := files{t, t.TempDir()}
			h := NewMemoryHistory()
			if mode == "log" {
				s, _ := newStore(t)
				l := create(t, s, "sess_1", f.dir)
				defer l.Close()
				h = l.History()
			}
			f.write("a.go", "package a\n", 0o644)
			f.write("run.sh", "echo hi\n", 0o755)
			f.write("notes", "keep me", 0o600)

			h.Prompt("first", nil)
			edit(t, h, []string{f.path("a.go")}, func() { f.write("a.go", "package a // 1\n", 0o644) })
			h.Prompt("second", nil)
			edit(t, h, []string{f.path("a.go")}, func() { f.write("a.go", "package a // 2\n", 0o644) })
			edit(t, h, []string{f.path("run.sh")}, func() { f.write("run.sh", "", 0o700) })
			edit(t, h, []string{f.path("new.go")}, func() { f.write("new.go", "package b\n", 0o644) })
			edit(t, h, []string{f.path("notes")}, func() {}) // a call that changed nothing
			h.Prompt("third, no files", nil)

			if got := h.Prompts(); len(got) != 3 || len(got[1].Files) != 3 || len(got[2].Files) != 0 {
				t.Fatalf("prompts %+v", got)
			}
			plan, err := h.PlanUndo()
			must(t, err)
			if len(plan.Turns) != 1 || plan.Turns[0] != 2 || len(plan.Files) != 3 {
				t.Fatalf("plan %+v", plan)
			}
			done, err := h.Restore(plan, nil)
			must(t, err)
			if len(done) != 3 || done[2].Action != ActionRemoved || done[0].Action != ActionRestored {
				t.Fatalf("restored %+v", done)
			}
			f.want("a.go", "package a // 1\n", 0o644)
			f.want("run.sh", "echo hi\n", 0o755)
			f.gone("new.go")

			plan, err = h.PlanUndo()
			must(t, err)
			_, err = h.Restore(plan, nil)
			must(t, err)
			f.want("a.go", "package a\n", 0o644)
			if _, err := h.PlanUndo(); !errors.Is(err, ErrNothingToUndo) {
				t.Fatalf("third undo: %v", err)
			}
		})
	}
}

func TestHistoryConflict(t *testing.T) {
	f := files{t, t.TempDir()}
	h := NewMemoryHistory()
	f.write("a", "1", 0o644)
	f.write("b", "1", 0o644)
	f.write("c", "1", 0o644)
	h.Prompt("p", nil)
	edit(t, h, []string{f.path("a"), f.path("b"), f.path("c")}, func() {
		f.write("a", "2", 0o644)
		f.write("b", "2", 0o644)
		f.write("c", "2", 0o644)
	})
	f.write("b", "someone else", 0o644) // behind forge's back
	must(t, os.Chmod(f.path("c"), 0o600))

	plan, err := h.PlanUndo()
	must(t, err)
	var conflicts []string
	for _, fr := range plan.Files {
		if fr.Conflict() {
			conflicts = append(conflicts, filepath.Base(fr.Path))
		}
	}
	if strings.Join(conflicts, ",") != "b,c" {
		t.Fatalf("conflicts %v, want b and c (content, mode)", conflicts)
	}
	asked := 0
	done, err := h.Restore(plan, func(fr FileRestore) bool { asked++; return filepath.Base(fr.Path) == "c" })
	must(t, err)
	if asked != 2 || done[1].Action != ActionKept {
		t.Fatalf("asked %d, done %+v", asked, done)
	}
	f.want("a", "1", 0o644)
	f.want("b", "someone else", 0o644)
	f.want("c", "1", 0o644)
}

func TestHistoryMissingBlob(t *testing.T) {
	f := files{t, t.TempDir()}
	s, dir := newStore(t)
	l := create(t, s, "sess_1", f.dir)
	defer l.Close()
	h := l.History()
	f.write("a", "before", 0o644)
	f.write("b", "before b", 0o644)
	h.Prompt("p", nil)
	edit(t, h, []string{f.path("a"), f.path("b")}, func() { f.write("a", "after", 0o644); f.write("b", "after b", 0o644) })
	entries, _ := os.ReadDir(blobDir(dir, "sess_1"))
	must(t, os.Remove(filepath.Join(blobDir(dir, "sess_1"), entries[0].Name())))
	plan, err := h.PlanUndo()
	must(t, err)
	if _, err := h.Restore(plan, nil); !errors.Is(err, ErrBadBlob) {
		t.Fatalf("restore with a blob gone: %v", err)
	}
	f.want("a", "after", 0o644) // nothing restored
	f.want("b", "after b", 0o644)
	if _, err := h.PlanUndo(); err != nil {
		t.Fatalf("the prompt stays to undo: %v", err)
	}
}

func TestHistoryResumeAndRewind(t *testing.T) {
	f := files{t, t.TempDir()}
	s, _ := newStore(t)
	l := create(t, s, "sess_1", f.dir)
	f.write("a", "0", 0o644)
	for i, text := range []string{"one", "two", "three"} {
		l.History().Prompt(text, nil)
		must(t, l.Prompt(text))
		edit(t, l.History(), []string{f.path("a")}, func() { f.write("a", string(rune('1'+i)), 0o644) })
		must(t, l.Append(say("done "+text)))
	}
	must(t, l.Close())

	l, st, err := s.Resume("sess_1")
	must(t, err)
	if len(st.Messages) != 6 {
		t.Fatalf("%d messages", len(st.Messages))
	}
	h := l.History()
	plan, err := h.PlanUndo()
	must(t, err)
	_, err = h.Restore(plan, nil)
	must(t, err)
	f.want("a", "2", 0o644)
	must(t, l.Close())

	// A second resume knows prompt 3 was undone: rewind to before 2.
	l, _, err = s.Resume("sess_1")
	must(t, err)
	h = l.History()
	plan, err = h.PlanRewind(2)
	must(t, err)
	if len(plan.Turns) != 1 || plan.Turns[0] != 2 {
		t.Fatalf("rewind plan %+v", plan)
	}
	_, err = h.Restore(plan, nil)
	must(t, err)
	f.want("a", "1", 0o644)
	msgs, err := h.Rewind(2)
	must(t, err)
	if len(msgs) != 2 || msgs[0].Text != "one" {
		t.Fatalf("rewound to %+v", msgs)
	}
	if got := h.Prompts(); len(got) != 1 || got[0].Text != "one" {
		t.Fatalf("prompts after rewind %+v", got)
	}
	must(t, l.Close())

	st2, err := s.Load("sess_1")
	must(t, err)
	if len(st2.Messages) != 2 || st2.Messages[1].Text != "done one" || len(st2.Warnings) > 0 {
		t.Fatalf("loaded after rewind: %+v %q", st2.Messages, st2.Warnings)
	}
}

func TestHistoryRewindInMemory(t *testing.T) {
	h := NewMemoryHistory()
	var conv []llm.Message
	for _, text := range []string{"one", "two"} {
		h.Prompt(text, conv)
		conv = append(conv, user(text), say("ok"))
	}
	msgs, err := h.Rewind(2)
	must(t, err)
	if len(msgs) != 2 || msgs[0].Text != "one" {
		t.Fatalf("rewound to %+v", msgs)
	}
	if _, err := h.Rewind(2); err == nil {
		t.Fatal("rewound to a prompt no longer in the conversation")
	}
	if _, err := h.PlanUndo(); !errors.Is(err, ErrNothingToUndo) {
		t.Fatalf("undo without changes: %v", err)
	}
}

func TestCheckpointRefusesDirectory(t *testing.T) {
	h := NewMemoryHistory()
	h.Prompt("p", nil)
	if _, err := h.Checkpoint([]string{t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("checkpoint of a directory: %v", err)
	}
	if _, err := h.Checkpoint([]string{"relative"}); err == nil {
		t.Fatal("checkpoint of a relative path")
	}
}
