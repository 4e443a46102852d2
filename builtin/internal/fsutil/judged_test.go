package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A target bound to judged places opens only a file found at one of them
// without following any link.
func TestJudgedTargetOpensOnlyTheJudgedFile(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"a.txt": "a", "sub/b.txt": "b", "other/b.txt": "other"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "a.txt"), filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "other"), filepath.Join(dir, "sublink")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		open   string
		judged []string
		ok     bool
	}{
		{"the judged file", "a.txt", []string{filepath.Join(dir, "a.txt")}, true},
		{"one of two judged", "a.txt", []string{filepath.Join(dir, "x"), filepath.Join(dir, "a.txt")}, true},
		{"another file", "sub/b.txt", []string{filepath.Join(dir, "a.txt")}, false},
		{"through a link to the judged file", "link.txt", []string{filepath.Join(dir, "a.txt")}, true},
		{"judged through a link", "a.txt", []string{filepath.Join(dir, "link.txt")}, false},
		{"judged through a linked directory", "sublink/b.txt", []string{filepath.Join(dir, "sublink", "b.txt")}, false},
		{"nothing judged", "a.txt", []string{}, false},
		{"not bound", "a.txt", nil, true},
		{"a relative judged path", "a.txt", []string{"a.txt"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target, err := ReadTarget(dir, nil, tt.open, false)
			if err != nil {
				t.Fatal(err)
			}
			defer target.Close()
			target.Judge(tt.judged)
			f, err := target.OpenRegular("")
			if f != nil {
				_ = f.Close()
			}
			if got := err == nil; got != tt.ok {
				t.Errorf("OpenRegular: %v, want ok %v", err, tt.ok)
			}
		})
	}
}

// An anchored directory target, reads not confined, is walked beneath
// its own handle: a directory in it swapped for a link to outside after
// it was listed leads nowhere, and a judged target must be the judged
// directory.
func TestAnchoredTargetStaysBeneathItsDirectory(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir, outside := filepath.Join(base, "project"), filepath.Join(base, "outside")
	for name, content := range map[string]string{"project/sub/id_rsa": "nothing", "outside/id_rsa": "PRIVATE KEY"} {
		p := filepath.Join(base, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	target, err := ReadTarget(base, nil, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	target.Judge([]string{dir})
	if err := target.Anchor(); err != nil {
		t.Fatalf("Anchor: %v", err)
	}
	// The walk listed sub as a directory; now it is a link outside.
	if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	if entries, err := target.ReadDir("sub"); err == nil {
		t.Errorf("ReadDir(sub) listed outside: %v", entries)
	}
	if f, err := target.OpenRegular("sub/id_rsa"); err == nil {
		_ = f.Close()
		t.Error("OpenRegular(sub/id_rsa) opened the file outside")
	}
	if got := target.HostPath("sub/id_rsa"); got != filepath.Join(dir, "sub", "id_rsa") {
		t.Errorf("HostPath = %s", got)
	}

	other, err := ReadTarget(base, nil, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.Judge([]string{outside})
	if err := other.Anchor(); !errors.Is(err, ErrChanged) {
		t.Errorf("Anchor of a directory not the judged one: %v, want ErrChanged", err)
	}
}
