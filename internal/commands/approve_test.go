package commands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestEditDiff(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "old.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := &Env{Exec: tools.ExecutionContext{WorkingDir: dir}}
	for _, tc := range []struct {
		name, path string
		change     func(string) string
		want       []string
	}{
		{"a new file comes from /dev/null", "new.txt", func(string) string { return "hello\n" },
			[]string{"--- /dev/null\n", "+++ b/new.txt\n", "+hello"}},
		{"an edit", "old.txt", func(s string) string { return strings.Replace(s, "two", "2", 1) },
			[]string{"--- a/old.txt\n", "+++ b/old.txt\n", "-two", "+2"}},
		{"no change", "old.txt", func(s string) string { return s }, []string{"old.txt: no change"}},
	} {
		got := editDiff(env, tc.path, tc.change)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: diff lacks %q:\n%s", tc.name, w, got)
			}
		}
	}
}
