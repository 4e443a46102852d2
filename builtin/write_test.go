package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestWrite(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"old.txt": "old content\n"})
	if err := os.Chmod(filepath.Join(dir, "old.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		content string
		created bool
		mode    os.FileMode
	}{
		{name: "new file", path: "new.txt", content: "hello", created: true, mode: 0o644},
		{name: "parents created", path: "a/b/c/deep.txt", content: "deep\n", created: true, mode: 0o644},
		{name: "replace keeps mode", path: "old.txt", content: "new content\n", mode: 0o600},
		{name: "empty content", path: "empty.txt", content: "", created: true, mode: 0o644},
		{name: "absolute path", path: filepath.Join(dir, "abs.txt"), content: "x", created: true, mode: 0o644},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := execFile(t, dir, "Write", tools.Args{"file_path": tc.path, "content": tc.content})
			wantOK(t, r)
			full := tc.path
			if !filepath.IsAbs(full) {
				full = filepath.Join(dir, full)
			}
			if got := mustRead(t, full); got != tc.content {
				t.Errorf("content %q, want %q", got, tc.content)
			}
			fi, err := os.Stat(full)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tc.mode {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tc.mode)
			}
			if r.Metadata["created"] != tc.created || r.Metadata["bytes"] != len(tc.content) || r.Metadata["file_path"] != full {
				t.Errorf("metadata %v", r.Metadata)
			}
		})
	}
	// No temporary file is left behind.
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".forge-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestWriteThroughSymlinkKeepsLink(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"target.txt": "old"})
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("target.txt", link); err != nil {
		t.Fatal(err)
	}
	wantOK(t, execFile(t, dir, "Write", tools.Args{"file_path": "link.txt", "content": "new"}))
	if got := mustRead(t, filepath.Join(dir, "target.txt")); got != "new" {
		t.Errorf("target holds %q", got)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
}

func TestWriteRefusals(t *testing.T) {
	dir := realTempDir(t)
	outside := realTempDir(t)
	if err := os.Symlink(outside, filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "nothing-yet"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	refused := "Refusing to write outside the working directory: "
	tests := []struct {
		name string
		path string
		want string
	}{
		{name: "absolute outside", path: filepath.Join(outside, "x.txt"), want: refused + filepath.Join(outside, "x.txt") + " (allowed: " + dir + ")"},
		{name: "dot-dot escape", path: "../x.txt", want: refused},
		{name: "through a symlinked directory", path: "escape/x.txt", want: refused + filepath.Join(dir, "escape/x.txt")},
		{name: "missing parents under a symlinked directory", path: "escape/new/dir/x.txt", want: refused},
		{name: "dangling symlink pointing outside", path: "dangling", want: refused},
		{name: "nul byte", path: "a\x00b", want: "Invalid file_path: "},
		{name: "a directory", path: "adir", want: "Path is a directory: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantFail(t, execFile(t, dir, "Write", tools.Args{"file_path": tc.path, "content": "x"}), tc.want)
		})
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("something was written outside: %v", entries)
	}
}

func TestWriteAllowedRoots(t *testing.T) {
	dir, extra, conf := realTempDir(t), realTempDir(t), realTempDir(t)
	ec := tools.NewExecutionContext(dir)
	ec.AllowedRoots = []string{extra}
	ex := fileExecutor(t, map[string]map[string]any{"Write": {"allowed_roots": []any{conf}}})
	for _, p := range []string{filepath.Join(extra, "a.txt"), filepath.Join(conf, "b.txt")} {
		wantOK(t, ex.Execute(t.Context(), "Write", ec, tools.Args{"file_path": p, "content": "ok"}))
	}
	r := ex.Execute(t.Context(), "Write", tools.NewExecutionContext(dir), tools.Args{"file_path": filepath.Join(extra, "c.txt"), "content": "no"})
	wantFail(t, r, "(allowed: "+dir+", "+conf+")")
}

func TestWriteDryRunAndCancel(t *testing.T) {
	dir := realTempDir(t)
	ec := tools.NewExecutionContext(dir)
	ec.DryRun = true
	r := fileExecutor(t, nil).Execute(t.Context(), "Write", ec, tools.Args{"file_path": "f.txt", "content": "bar"})
	if want := "[Dry Run] Would write 3 bytes to " + filepath.Join(dir, "f.txt"); r.Display() != want || r.Status != tools.StatusDryRun {
		t.Errorf("dry run %q (%s), want %q", r.Display(), r.Status, want)
	}
	r = fileExecutor(t, nil).Execute(t.Context(), "Write", ec, tools.Args{"file_path": "/elsewhere/f.txt", "content": "bar"})
	if !strings.Contains(r.Display(), "Would refuse: Refusing to write outside") {
		t.Errorf("dry run outside: %q", r.Display())
	}
	tl := buildTool(t, newWrite(nil), nil)
	wantFail(t, tl.Execute(cancelled(), tools.NewExecutionContext(dir), tools.Args{"file_path": "f.txt", "content": "bar"}), "Write cancelled")
	if _, err := os.Stat(filepath.Join(dir, "f.txt")); err == nil {
		t.Error("a file was written by a dry run or a cancelled call")
	}
}

// TestWriteCreatesAMissingAllowedRoot writes into an allowed root that does
// not exist yet: it is created, as any missing directory on the way is.
func TestWriteCreatesAMissingAllowedRoot(t *testing.T) {
	dir := realTempDir(t)
	root := filepath.Join(realTempDir(t), "later", "out")
	ec := tools.NewExecutionContext(dir)
	ec.AllowedRoots = []string{root}
	wantOK(t, fileExecutor(t, nil).Execute(t.Context(), "Write", ec, tools.Args{"file_path": filepath.Join(root, "a.txt"), "content": "ok"}))
	if got := mustRead(t, filepath.Join(root, "a.txt")); got != "ok" {
		t.Errorf("content %q", got)
	}
	// A confined read of a root that is missing finds no file.
	ec.AllowedRoots = []string{filepath.Join(root, "none")}
	ec.ConfineReads = true
	wantFail(t, fileExecutor(t, nil).Execute(t.Context(), "Read", ec, tools.Args{"file_path": filepath.Join(root, "none", "a.txt")}), "File not found: ")
}
