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
