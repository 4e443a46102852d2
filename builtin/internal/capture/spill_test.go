package capture

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestSpill(t *testing.T) {
	data := []byte(strings.Repeat("0123456789", 100)) // 1000 bytes
	cases := []struct {
		name      string
		limit     int
		max       int64
		chunks    []int // sizes of the writes, in order
		file      bool
		fileBytes int
		note      string
	}{
		{"fits: no file", 1000, 1 << 20, []int{400, 600}, false, 0, ""},
		{"one byte over", 999, 1 << 20, []int{1000}, true, 1000, "[The whole output (1000 bytes) is in "},
		{"crossed in a later write", 100, 1 << 20, []int{50, 50, 1, 899}, true, 1000, "[The whole output (1000 bytes) is in "},
		{"many small writes", 10, 1 << 20, repeat(1, 1000), true, 1000, "[The whole output (1000 bytes) is in "},
		{"file capped", 100, 300, []int{250, 750}, true, 300, "[The first 300 bytes of the output (of 1000) are in "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s := NewSpill(c.limit, NewSpills(dir, 1<<30), c.max)
			off := 0
			for _, n := range c.chunks {
				if k, err := s.Write(data[off : off+n]); k != n || err != nil {
					t.Fatalf("Write = %d, %v", k, err)
				}
				off += n
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if s.Total() != int64(off) {
				t.Errorf("Total %d", s.Total())
			}
			if got := s.Path() != ""; got != c.file {
				t.Fatalf("file %v, want %v", got, c.file)
			}
			if !strings.HasPrefix(s.FileNote(), c.note) || (c.note == "") != (s.FileNote() == "") {
				t.Errorf("FileNote %q, want it to start with %q", s.FileNote(), c.note)
			}
			if !c.file {
				if ents, _ := os.ReadDir(dir); len(ents) != 0 {
					t.Errorf("files %v", ents)
				}
				if s.String() != string(data[:off]) {
					t.Errorf("String %q", s.String())
				}
				return
			}
			fi, err := os.Stat(s.Path())
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 || filepath.Dir(s.Path()) != dir {
				t.Errorf("file %s mode %v", s.Path(), fi.Mode().Perm())
			}
			got, _ := os.ReadFile(s.Path())
			if !bytes.Equal(got, data[:c.fileBytes]) || s.Saved() != int64(c.fileBytes) {
				t.Errorf("file holds %d bytes (Saved %d), want the first %d", len(got), s.Saved(), c.fileBytes)
			}
			if !s.Truncated() || !strings.Contains(s.String(), "bytes of output omitted") {
				t.Errorf("String %q", s.String())
			}
		})
	}
}

func repeat(n, times int) []int {
	out := make([]int, times)
	for i := range out {
		out[i] = n
	}
	return out
}

// A directory where no file can be made loses the file, not the output.
func TestSpillUnwritableDir(t *testing.T) {
	s := NewSpill(10, NewSpills(filepath.Join(t.TempDir(), "missing"), 1<<30), 1<<20)
	s.Write([]byte(strings.Repeat("x", 100)))
	if s.Path() != "" || s.Err() == nil || s.Total() != 100 || !s.Truncated() {
		t.Fatalf("path %q err %v total %d", s.Path(), s.Err(), s.Total())
	}
	if note := s.FileNote(); !strings.HasPrefix(note, "[cannot save the whole output: ") {
		t.Errorf("FileNote %q", note)
	}
	if err := s.Close(); err == nil {
		t.Error("Close hid the failure")
	}
}

// After Close nothing more is saved, and no file is made.
func TestSpillClosed(t *testing.T) {
	dir := t.TempDir()
	s := NewSpill(10, NewSpills(dir, 1<<30), 1<<20)
	s.Close()
	s.Write([]byte(strings.Repeat("x", 100)))
	if s.Path() != "" {
		t.Errorf("a file was made after Close: %s", s.Path())
	}
}

func TestSpillConcurrentWrites(t *testing.T) {
	s := NewSpill(100, NewSpills(t.TempDir(), 1<<30), 1<<20)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				s.Write([]byte("0123456789"))
			}
		})
	}
	wg.Wait()
	s.Close()
	if s.Saved() != 8000 || s.Total() != 8000 {
		t.Errorf("saved %d of %d", s.Saved(), s.Total())
	}
}

func BenchmarkSpillWrite(b *testing.B) {
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	s := NewSpill(100000, NewSpills(b.TempDir(), 1<<50), 1<<40)
	defer s.Close()
	b.SetBytes(int64(len(chunk)))
	for b.Loop() {
		s.Write(chunk)
	}
}
