package capture

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// spill writes n bytes through a new Spill of files that keeps 10 in
// memory, and closes it unless open is set.
func spill(t *testing.T, files *Spills, n int, open bool) *Spill {
	t.Helper()
	s := NewSpill(10, files, 1<<20)
	s.Write([]byte(strings.Repeat("x", n)))
	if s.Path() == "" {
		t.Fatalf("no file: %v", s.Err())
	}
	if !open {
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// The files of a Spills hold at most its max in all: the oldest finished
// ones go first, never one still being written, and what is left is
// what the newest outputs need.
func TestSpillsBoundTheTotal(t *testing.T) {
	dir := t.TempDir()
	files := NewSpills(dir, 2500)
	a := spill(t, files, 1000, false)
	b := spill(t, files, 1000, true) // still being written
	c := spill(t, files, 1000, false)
	// 3000 > 2500: a, the oldest finished, went; b stays while open.
	want := []string{filepath.Base(b.Path()), filepath.Base(c.Path())}
	slices.Sort(want)
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("files %v, want %v (a was %s)", got, want, filepath.Base(a.Path()))
	}
	if files.Total() != 2000 {
		t.Errorf("total %d, want 2000", files.Total())
	}
	// More to b, still open: c, the only finished file, makes room.
	b.Write([]byte(strings.Repeat("y", 1000)))
	if got := names(t, dir); !slices.Equal(got, []string{filepath.Base(b.Path())}) {
		t.Errorf("files %v, want only b", got)
	}
	// Nothing finished left to remove: the file being written goes on,
	// up to the bound on its own.
	b.Write([]byte(strings.Repeat("y", 1000)))
	if got, _ := os.ReadFile(b.Path()); len(got) != 2500 || files.Total() != 2500 || b.Saved() != 2500 {
		t.Errorf("b holds %d bytes, total %d", len(got), files.Total())
	}
	// Finished, it stays for its result to name, until a later output
	// needs the room.
	must(t, b.Close())
	if got := names(t, dir); !slices.Equal(got, []string{filepath.Base(b.Path())}) {
		t.Errorf("files %v, want b", got)
	}
	d := spill(t, files, 1000, false)
	if got := names(t, dir); !slices.Equal(got, []string{filepath.Base(d.Path())}) || files.Total() != 1000 {
		t.Errorf("files %v (total %d), want only d", got, files.Total())
	}
}

// Close removes every file, one still being written too, and later
// outputs make none but say why.
func TestSpillsClose(t *testing.T) {
	dir := t.TempDir()
	files := NewSpills(dir, 1<<30)
	spill(t, files, 1000, false)
	open := spill(t, files, 1000, true)
	must(t, files.Close())
	if got := names(t, dir); len(got) != 0 {
		t.Errorf("files left: %v", got)
	}
	open.Write([]byte("more"))
	must(t, open.Close())
	late := NewSpill(10, files, 1<<20)
	late.Write([]byte(strings.Repeat("x", 100)))
	if late.Path() != "" || !strings.Contains(late.FileNote(), "forge is exiting") {
		t.Errorf("after Close: path %q, note %q", late.Path(), late.FileNote())
	}
	if len(names(t, dir)) != 0 {
		t.Errorf("files made after Close: %v", names(t, dir))
	}
	must(t, files.Close())
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
