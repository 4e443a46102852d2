package repl

import (
	"bytes"
	"io"
	"testing"
	"time"
)

func TestLineEnd(t *testing.T) {
	tests := []struct {
		name, in string
		want     int
	}{
		{"empty", "", 0},
		{"no Enter", "abc", 3},
		{"Enter ends the line", "ab\rcd\r", 3},
		{"Ctrl-D ends the line", "\x04more", 1},
		{"Ctrl-J continues it", "a\nb\rc", 4},
		{"Alt-Enter continues it", "a\x1b\rb\rc", 5},
		{"an Enter in a paste", "x\x1b[200~a\rb\r\x1b[201~\ry", 18},
		{"a paste not ended yet", "x\x1b[200~a\rb", 10},
		{"Escape at the end", "a\x1b", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lineEnd([]byte(tt.in)); got != tt.want {
				t.Errorf("lineEnd(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

// lineEnd never runs past its input, and a cut it makes ends on Enter
// or Ctrl-D.
func FuzzLineEnd(f *testing.F) {
	for _, s := range []string{"ab\rcd", "\x1b[200~\r\x1b[201~\r", "\x1b\r\r", "\x04", "\x1b[200~"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n := lineEnd(b)
		if n < 0 || n > len(b) {
			t.Fatalf("lineEnd(%q) = %d", b, n)
		}
		if n < len(b) && b[n-1] != '\r' && b[n-1] != 0x04 {
			t.Fatalf("lineEnd(%q) = %d cuts after %q", b, n, b[n-1])
		}
	})
}

// Bytes typed while a line runs are kept from a question, which reads
// only what comes after it, and come back one line per prompt.
func TestInputFilterTypeAhead(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	in := newInputFilter(r, nil)
	defer in.Close()

	in.beginTurn()
	if _, err := w.Write([]byte("yes\rand more")); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, in, 12)
	in.pauseTurn() // a question
	go func() { _, _ = w.Write([]byte("n")) }()
	if got := readN(t, in, 1); got != "n" {
		t.Errorf("the question read %q, want what was typed after it", got)
	}
	in.resumeTurn()
	if _, err := w.Write([]byte("!")); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, in, 13)
	in.endTurn()

	in.takeLine()
	if got := readN(t, in, 4); got != "yes\r" {
		t.Errorf("the first prompt got %q", got)
	}
	in.takeLine()
	if got := readN(t, in, 9); got != "and more!" {
		t.Errorf("the second prompt got %q", got)
	}
	go func() { _, _ = w.Write([]byte("x")) }()
	if got := readN(t, in, 1); got != "x" {
		t.Errorf("after the type-ahead: %q", got)
	}
}

// What is typed ahead is kept up to maxTypeAhead; a terminal that goes
// away while a line runs ends the reading at the next prompt, after what
// was typed.
func TestInputFilterTypeAheadBounds(t *testing.T) {
	big := bytes.Repeat([]byte("x"), maxTypeAhead+10)
	in := newInputFilter(io.MultiReader(bytes.NewReader(big)), nil)
	defer in.Close()
	in.beginTurn()
	deadline := time.Now().Add(5 * time.Second)
	for {
		in.mu.Lock()
		n, err := len(in.held), in.err
		in.mu.Unlock()
		if err != nil {
			if n != maxTypeAhead {
				t.Errorf("kept %d bytes, want %d", n, maxTypeAhead)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the end of input was not seen; %d bytes kept", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
	in.endTurn()
	in.takeLine()
	got, err := io.ReadAll(in)
	if len(got) != maxTypeAhead || err != nil {
		t.Errorf("read %d bytes, %v", len(got), err)
	}
}

// waitHeld waits until n bytes typed ahead were read from the terminal.
func waitHeld(t *testing.T, in *inputFilter, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		in.mu.Lock()
		got := len(in.held)
		in.mu.Unlock()
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes typed ahead were read, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}
