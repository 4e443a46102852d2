package fsutil

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func realDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAbs(t *testing.T) {
	tests := []struct {
		wd, p, want, err string
	}{
		{"/wd", "a/b", "/wd/a/b", ""},
		{"/wd", "/x/../y", "/y", ""},
		{"/wd", "../up", "/up", ""},
		{"/wd", "a\x00", "", "NUL byte"},
		{"/wd", "", "", "empty"},
	}
	for _, tc := range tests {
		got, err := Abs(tc.wd, tc.p)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Abs(%q, %q) err %v, want %q", tc.wd, tc.p, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("Abs(%q, %q) = %q, %v; want %q", tc.wd, tc.p, got, err, tc.want)
		}
	}
}

func TestWriteTarget(t *testing.T) {
	wd, out := realDir(t), realDir(t)
	must(t, os.Symlink(out, filepath.Join(wd, "link")))
	must(t, os.Symlink(filepath.Join(wd, "inner"), filepath.Join(wd, "dangling-in")))
	must(t, os.Symlink(filepath.Join(out, "x"), filepath.Join(wd, "dangling-out")))
	must(t, os.Symlink("loop", filepath.Join(wd, "loop")))
	tests := []struct {
		p     string
		roots []string
		want  string // resolved target; "" means refused
	}{
		{p: "a.txt", want: filepath.Join(wd, "a.txt")},
		{p: "new/dir/a.txt", want: filepath.Join(wd, "new/dir/a.txt")},
		{p: "link/a.txt"},
		{p: "link/a.txt", roots: []string{out}, want: filepath.Join(out, "a.txt")},
		{p: "dangling-in", want: filepath.Join(wd, "inner")},
		{p: "dangling-out"},
		{p: "/etc/passwd"},
		{p: "../escape"},
		{p: wd, want: wd},
	}
	for _, tc := range tests {
		got, err := WriteTarget(wd, tc.roots, tc.p)
		if tc.want == "" {
			var oe *OutsideError
			if !errors.As(err, &oe) || !errors.Is(err, ErrOutsideRoots) {
				t.Errorf("%s: got %q, %v; want a refusal", tc.p, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.p, got, err, tc.want)
		}
	}
	if _, err := WriteTarget(wd, nil, "loop"); err == nil {
		t.Error("a symlink loop was accepted")
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		p, root string
		want    bool
	}{{"/a/b", "/a", true}, {"/a", "/a", true}, {"/ab", "/a", false}, {"/x", "/", true}} {
		if Within(tc.p, tc.root) != tc.want {
			t.Errorf("Within(%q, %q) != %v", tc.p, tc.root, tc.want)
		}
	}
}

func TestLooksBinary(t *testing.T) {
	for _, tc := range []struct {
		b         string
		truncated bool
		want      bool
	}{
		{"plain text\n", false, false},
		{"nul\x00", false, true},
		{"caf\xe9", false, true},
		{"caf\xc3", true, false}, // a rune cut by the sniff window
		{"caf\xc3", false, true},
		{"héllo", false, false},
		{"", false, false},
	} {
		if got := LooksBinary([]byte(tc.b), tc.truncated); got != tc.want {
			t.Errorf("LooksBinary(%q, %v) = %v", tc.b, tc.truncated, got)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := realDir(t)
	p := filepath.Join(dir, "sub", "f.txt")
	created, err := WriteFileAtomic(p, []byte("one"))
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	must(t, os.Chmod(p, 0o751))
	created, err = WriteFileAtomic(p, []byte("two"))
	if err != nil || created {
		t.Fatalf("replace: %v %v", created, err)
	}
	fi, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); string(b) != "two" || fi.Mode().Perm() != 0o751 {
		t.Errorf("content %q mode %v", b, fi.Mode().Perm())
	}
	if _, err := WriteFileAtomic(dir, nil); err == nil || !strings.Contains(err.Error(), "Path is a directory") {
		t.Errorf("writing a directory: %v", err)
	}
	if _, err := WriteFileAtomic(filepath.Join(p, "under-a-file"), nil); err == nil {
		t.Error("writing under a file succeeded")
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("leftovers: %v", entries)
	}
}

func TestSpecialFileAndDescribe(t *testing.T) {
	fi, err := os.Stat("/dev/null")
	if err == nil && SpecialFile(fi.Mode()) == "" {
		t.Error("/dev/null not refused")
	}
	if SpecialFile(0o644) != "" {
		t.Error("a regular file refused")
	}
	if got := Describe("/x", fs.ErrNotExist); got != "File not found: /x" {
		t.Errorf("Describe: %q", got)
	}
	if got := Describe("/x", fs.ErrPermission); got != "Permission denied: /x" {
		t.Errorf("Describe: %q", got)
	}
}

func TestWalk(t *testing.T) {
	dir := realDir(t)
	for _, f := range []string{".git/config", ".gitignore", "a.go", "b/c.go", "b/.gitignore", "b/skip.tmp", "b/keep.tmp",
		"ign/x.go", ".hid/y.go", "z.log", "d/e/f.go"} {
		p := filepath.Join(dir, f)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		content := ""
		switch f {
		case ".gitignore":
			content = "ign/\n*.tmp\n*.log\n"
		case "b/.gitignore":
			content = "!keep.tmp\n"
		}
		must(t, os.WriteFile(p, []byte(content), 0o644))
	}
	walk := func(root string, opts WalkOptions) []string {
		var got []string
		err := Walk(context.Background(), root, opts, func(path, rel string, d fs.DirEntry) error {
			if filepath.Join(root, filepath.FromSlash(rel)) != path {
				t.Errorf("rel %q does not match path %q", rel, path)
			}
			got = append(got, rel)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	all := []string{".gitignore", ".hid/y.go", "a.go", "b/.gitignore", "b/c.go", "b/keep.tmp", "b/skip.tmp", "d/e/f.go", "ign/x.go", "z.log"}
	if got := walk(dir, WalkOptions{}); !slices.Equal(got, all) {
		t.Errorf("everything: %v", got)
	}
	if got := walk(dir, WalkOptions{Gitignore: true, SkipHidden: true}); !slices.Equal(got, []string{"a.go", "b/c.go", "b/keep.tmp", "d/e/f.go"}) {
		t.Errorf("ripgrep-like: %v", got)
	}
	// A subdirectory still obeys the .gitignore files above it.
	if got := walk(filepath.Join(dir, "b"), WalkOptions{Gitignore: true}); !slices.Equal(got, []string{".gitignore", "c.go", "keep.tmp"}) {
		t.Errorf("from b: %v", got)
	}
	if got := walk(dir, WalkOptions{MaxDepth: 1}); !slices.Equal(got, []string{".gitignore", "a.go", "z.log"}) {
		t.Errorf("depth 1: %v", got)
	}
	// Outside a repository, .gitignore files do not apply (as in git and ripgrep).
	must(t, os.RemoveAll(filepath.Join(dir, ".git")))
	if got := walk(dir, WalkOptions{Gitignore: true}); !slices.Equal(got, all) {
		t.Errorf("no repository: %v", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Walk(ctx, dir, WalkOptions{}, func(string, string, fs.DirEntry) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: %v", err)
	}
	n := 0
	if err := Walk(context.Background(), dir, WalkOptions{}, func(string, string, fs.DirEntry) error { n++; return fs.SkipAll }); err != nil || n != 1 {
		t.Errorf("SkipAll: %v after %d", err, n)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
