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
		target, err := WriteTarget(wd, tc.roots, tc.p)
		if tc.want == "" {
			var oe *OutsideError
			if !errors.As(err, &oe) || !errors.Is(err, ErrOutsideRoots) {
				t.Errorf("%s: got %v, %v; want a refusal", tc.p, target, err)
			}
			continue
		}
		if err != nil || target.Path != tc.want {
			t.Errorf("%s: got %v, %v; want %q", tc.p, target, err, tc.want)
			continue
		}
		must(t, target.Close())
	}
	if _, err := WriteTarget(wd, nil, "loop"); err == nil {
		t.Error("a symlink loop was accepted")
	}
}

// TestWriteTargetPicksTheOutermostRoot checks that a target in a root nested
// in another is reached through the outer one, whose checks also cover the
// inner root being swapped for a link.
// PreviewTarget judges a path as WriteTarget does and creates nothing: a
// missing allowed root gives a target where nothing exists yet.
func TestPreviewTarget(t *testing.T) {
	wd := realDir(t)
	if err := os.WriteFile(filepath.Join(wd, "f.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(wd, "..", filepath.Base(wd)+"-root", "deep")
	for _, tc := range []struct {
		p, path string
		exists  bool
		err     string
	}{
		{"f.txt", filepath.Join(wd, "f.txt"), true, ""},
		{"new/g.txt", filepath.Join(wd, "new", "g.txt"), false, ""},
		{filepath.Join(root, "h.txt"), filepath.Clean(filepath.Join(root, "h.txt")), false, ""},
		{"/etc/passwd", "", false, "outside"},
	} {
		target, err := PreviewTarget(wd, []string{root}, tc.p)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.p, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.p, err)
		}
		if target.Path != tc.path {
			t.Errorf("%s: Path = %q, want %q", tc.p, target.Path, tc.path)
		}
		f, err := target.OpenRegular("")
		if tc.exists != (err == nil) || (!tc.exists && !errors.Is(err, fs.ErrNotExist)) {
			t.Errorf("%s: open: %v, want exists=%v", tc.p, err, tc.exists)
		}
		if err == nil {
			f.Close()
		}
		if _, err := target.WriteAtomic([]byte("y")); err == nil {
			t.Errorf("%s: a preview target was written", tc.p)
		}
		target.Close()
	}
	if _, err := os.Stat(filepath.Dir(root)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the missing root was created: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(wd, "f.txt")); string(b) != "x" {
		t.Errorf("f.txt = %q", b)
	}
}

func TestWriteTargetPicksTheOutermostRoot(t *testing.T) {
	wd := realDir(t)
	inner := filepath.Join(wd, "inner")
	must(t, os.Mkdir(inner, 0o755))
	target, err := WriteTarget(inner, []string{wd}, "f.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	if target.root.Name() != wd || target.name != filepath.Join("inner", "f.txt") {
		t.Errorf("reached through %s as %s", target.root.Name(), target.name)
	}
}

// TestWriteAtomicStaysInsideWhenSwappedAfterResolving replays the race
// deterministically: the path is checked while sub is a directory, then sub
// becomes a link to a directory outside before the write. The write must be
// refused with the message a path outside gets, and nothing written outside.
func TestWriteAtomicStaysInsideWhenSwappedAfterResolving(t *testing.T) {
	for _, p := range []string{"sub/f.txt", "sub/new/f.txt"} {
		wd, outside := realDir(t), realDir(t)
		sub := filepath.Join(wd, "sub")
		must(t, os.Mkdir(sub, 0o755))
		target, err := WriteTarget(wd, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		must(t, os.Rename(sub, filepath.Join(wd, "aside")))
		must(t, os.Symlink(outside, sub))
		_, err = target.WriteAtomic([]byte("x"))
		must(t, target.Close())
		want := "Refusing to write outside the working directory: " + filepath.Join(wd, p) + " (allowed: " + wd + ")"
		if err == nil || err.Error() != want {
			t.Errorf("%s: error %v, want %q", p, err, want)
		}
		if entries, _ := os.ReadDir(outside); len(entries) != 0 {
			t.Errorf("%s: written outside: %v", p, entries)
		}
	}
}

// TestConfinedReadTarget checks that a confined read target refuses what is
// outside, links resolved, and that everything opened below it stays inside.
func TestConfinedReadTarget(t *testing.T) {
	wd, outside := realDir(t), realDir(t)
	must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("s"), 0o644))
	must(t, os.WriteFile(filepath.Join(wd, "in"), []byte("i"), 0o644))
	must(t, os.Symlink(outside, filepath.Join(wd, "out")))
	if _, err := ReadTarget(wd, nil, "out/secret", true); !errors.Is(err, ErrOutsideRoots) ||
		err.Error() != filepath.Join(wd, "out/secret")+" is outside the working directory; reads are confined (read.allow_outside: false); allowed: "+wd {
		t.Errorf("confined read through a link outside: %v", err)
	}
	target, err := ReadTarget(wd, nil, ".", true)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	if _, err := target.ReadDir("out"); !errors.Is(err, ErrOutsideRoots) {
		t.Errorf("listing a link outside from a confined target: %v", err)
	}
	if _, err := target.OpenRegular("out/secret"); !errors.Is(err, ErrOutsideRoots) {
		t.Errorf("opening through a link outside from a confined target: %v", err)
	}
	f, err := target.OpenRegular("in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if b, ok, err := f.ReadAll(10); string(b) != "i" || !ok || err != nil {
		t.Errorf("read %q %v %v", b, ok, err)
	}
	if free, err := ReadTarget(wd, nil, "out/secret", false); err != nil || free.Path != filepath.Join(wd, "out/secret") {
		t.Errorf("unconfined: %v %v", free, err)
	}
}

// TestEscapeIsRecognised pins the text of os.Root's refusal, which the os
// package does not export and escapes depends on.
func TestEscapeIsRecognised(t *testing.T) {
	root, err := os.OpenRoot(realDir(t))
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	_, err = root.Open("../x")
	if err == nil || !escapes(err) {
		t.Errorf("os.Root's refusal %v not recognised", err)
	}
	if escapes(fs.ErrNotExist) {
		t.Error("a missing file taken for an escape")
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

func TestWriteAtomic(t *testing.T) {
	dir := realDir(t)
	p := filepath.Join(dir, "sub", "f.txt")
	write := func(p string, data string) (bool, error) {
		target, err := WriteTarget(dir, nil, p)
		if err != nil {
			return false, err
		}
		defer target.Close()
		return target.WriteAtomic([]byte(data))
	}
	created, err := write(p, "one")
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	must(t, os.Chmod(p, 0o751))
	created, err = write(p, "two")
	if err != nil || created {
		t.Fatalf("replace: %v %v", created, err)
	}
	fi, _ := os.Stat(p)
	if b, _ := os.ReadFile(p); string(b) != "two" || fi.Mode().Perm() != 0o751 {
		t.Errorf("content %q mode %v", b, fi.Mode().Perm())
	}
	for _, d := range []string{dir, filepath.Dir(p)} {
		if _, err := write(d, ""); err == nil || !strings.Contains(err.Error(), "Path is a directory") {
			t.Errorf("writing the directory %s: %v", d, err)
		}
	}
	if _, err := write(filepath.Join(p, "under-a-file"), ""); err == nil || !strings.Contains(err.Error(), "Cannot create directory") {
		t.Errorf("writing under a file: %v", err)
	}
	long := strings.Repeat("n", 250)
	if _, err := write(long, "long name"); err != nil {
		t.Errorf("a name near the limit: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("leftovers: %v", entries)
	}
	if _, err := HostTarget(p).WriteAtomic(nil); err == nil {
		t.Error("a target not resolved for writing was written")
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
		err := HostTarget(root).Walk(context.Background(), opts, func(path, rel string, d fs.DirEntry) error {
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
	if err := HostTarget(dir).Walk(ctx, WalkOptions{}, func(string, string, fs.DirEntry) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled walk: %v", err)
	}
	n := 0
	if err := HostTarget(dir).Walk(context.Background(), WalkOptions{}, func(string, string, fs.DirEntry) error { n++; return fs.SkipAll }); err != nil || n != 1 {
		t.Errorf("SkipAll: %v after %d", err, n)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
