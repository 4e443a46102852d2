package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A directory swapped for a link since forge wrote in it: the restore
// refuses, names the file and the link, and touches nothing, neither
// through the link nor elsewhere in the plan.
func TestRestoreRefusesLinkedDirectory(t *testing.T) {
	for _, tc := range []struct {
		name   string
		before bool // the file existed before the prompt (else it is removed)
	}{{"rewrite", true}, {"remove", false}} {
		t.Run(tc.name, func(t *testing.T) {
			f := files{t, t.TempDir()}
			outside := t.TempDir()
			must(t, os.Mkdir(f.path("sub"), 0o755))
			f.write("a", "a before", 0o644)
			if tc.before {
				f.write("sub/x", "x before", 0o644)
			}
			h := NewMemoryHistory()
			h.Prompt("p", nil)
			edit(t, h, []string{f.path("a"), f.path("sub/x")}, func() {
				f.write("a", "a after", 0o644)
				f.write("sub/x", "x after", 0o644)
			})
			// sub becomes a link to a directory outside, holding what
			// forge left, so that nothing looks changed.
			must(t, os.WriteFile(filepath.Join(outside, "x"), []byte("x after"), 0o644))
			must(t, os.RemoveAll(f.path("sub")))
			must(t, os.Symlink(outside, f.path("sub")))

			plan, err := h.PlanUndo()
			must(t, err)
			_, err = h.Restore(plan, func(FileRestore) bool { return true })
			if err == nil || !strings.Contains(err.Error(), f.path("sub/x")) || !strings.Contains(err.Error(), "link") {
				t.Fatalf("restore through a linked directory: %v", err)
			}
			b, _ := os.ReadFile(filepath.Join(outside, "x"))
			if string(b) != "x after" {
				t.Fatalf("the file outside is now %q", b)
			}
			f.want("a", "a after", 0o644) // the plan is not half-applied
			if _, err := h.PlanUndo(); err != nil {
				t.Fatalf("the prompt stays to undo: %v", err)
			}
		})
	}
}

// Undoing a Write that created a file in new directories removes the
// directories too, when nothing else is in them; a directory that was
// there before, or that holds something else now, stays.
func TestRestoreRemovesCreatedDirectories(t *testing.T) {
	for _, mode := range []string{"memory", "log"} {
		t.Run(mode, func(t *testing.T) {
			f := files{t, t.TempDir()}
			h := NewMemoryHistory()
			var (
				l     *Log
				store *Store
			)
			if mode == "log" {
				store, _ = newStore(t)
				l = create(t, store, "sess_1", f.dir)
				h = l.History()
			}
			must(t, os.Mkdir(f.path("old"), 0o755))
			h.Prompt("p", nil)
			if l != nil {
				must(t, l.Prompt("p"))
			}
			mkfile := func(name string) func() {
				return func() {
					must(t, os.MkdirAll(filepath.Dir(f.path(name)), 0o755))
					f.write(name, "x", 0o644)
				}
			}
			edit(t, h, []string{f.path("newdir/sub/x.go")}, mkfile("newdir/sub/x.go"))
			edit(t, h, []string{f.path("old/y.go")}, mkfile("old/y.go"))
			edit(t, h, []string{f.path("other/deep/z.go")}, mkfile("other/deep/z.go"))
			f.write("other/mine.txt", "mine", 0o644) // the person's, since

			if l != nil { // the created directories survive a resume
				must(t, l.Close())
				l2, _, err := store.Resume("sess_1")
				must(t, err)
				defer l2.Close()
				h = l2.History()
			}
			plan, err := h.PlanUndo()
			must(t, err)
			done, err := h.Restore(plan, nil)
			must(t, err)
			f.gone("newdir")
			f.gone("other/deep")
			f.want("other/mine.txt", "mine", 0o644)
			if _, err := os.Stat(f.path("old")); err != nil {
				t.Fatalf("the directory that was there before is gone: %v", err)
			}
			var dirs []string
			for _, r := range done {
				if r.Dir {
					dirs = append(dirs, strings.TrimPrefix(r.Path, f.dir+"/"))
				}
			}
			if strings.Join(dirs, ",") != "newdir/sub,other/deep,newdir" {
				t.Fatalf("directories reported removed: %v (%+v)", dirs, done)
			}
		})
	}
}
