package repl

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"
)

// filterRun feeds the chunks to a new filter, keys set first, and returns
// what the editor got and the pastes handed over (each shown as <n>).
func filterRun(keys string, max int, chunks ...string) (string, []string) {
	var pasted []string
	f := keyFilter{keys: keys, max: max, onPaste: func(text string, cut bool) string {
		if cut {
			text += "<cut>"
		}
		pasted = append(pasted, text)
		return fmt.Sprintf("<%d>", len(pasted))
	}}
	var out []byte
	for _, c := range chunks {
		out = f.feed([]byte(c), out)
	}
	return string(out), pasted
}

// Shift+Tab, even split across two reads, is the mode key, counted so
// that the editor tells it from a Ctrl-G typed.
func TestKeyFilterShiftTab(t *testing.T) {
	f := keyFilter{}
	out := f.feed([]byte("\x1b["), nil)
	out = f.feed([]byte("Z\x07"), out)
	if string(out) != modeKey+"\x07" || f.modeKeys != 1 {
		t.Errorf("got %q, %d mode keys", out, f.modeKeys)
	}
	f.keys = "yn"
	if out := f.feed([]byte("\x1b[Z"), nil); len(out) != 0 || f.modeKeys != 1 {
		t.Errorf("a question got %q, %d mode keys", out, f.modeKeys)
	}
}

func TestKeyFilter(t *testing.T) {
	tests := []struct {
		name   string
		keys   string
		in     string
		out    string
		pasted []string
	}{
		{"plain keys", "", "ls -la\r", "ls -la\r", nil},
		{"a paste is cut out", "", "explain: \x1b[200~a\r\tb\r\x1b[201~!\r", "explain: <1>!\r", []string{"a\r\tb\r"}},
		{"two pastes", "", "\x1b[200~x\x1b[201~ \x1b[200~y\x1b[201~", "<1> <2>", []string{"x", "y"}},
		{"an empty paste", "", "\x1b[200~\x1b[201~", "<1>", []string{""}},
		{"keys and escapes inside a paste are text", "", "\x1b[200~\x03\x1b[A\x1b[200~\n\x1b[201~", "<1>", []string{"\x03\x1b[A\x1b[200~\n"}},
		{"a false end inside a paste", "", "\x1b[200~a\x1b[201x\x1b[20\x1b[201~", "<1>", []string{"a\x1b[201x\x1b[20"}},
		{"an end without a beginning", "", "a\x1b[201~b", "ab", nil},
		{"arrows and Alt keys pass", "", "\x1b[A\x1b[1;5C\x1bb\x1bOH", "\x1b[A\x1b[1;5C\x1bb\x1bOH", nil},
		{"Escape before a sequence", "", "\x1b\x1b[A", "\x1b\x1b[A", nil},
		{"a broken sequence passes as it came", "", "\x1b[2\x01x", "\x1b[2\x01x", nil},
		{"a sequence too long is none", "", "\x1b[" + strings.Repeat("1", 40) + "~", "\x1b[" + strings.Repeat("1", 40) + "~", nil},
		{"Ctrl-J continues the line", "", "a\nb\r", "a\\\rb\r", nil},
		{"Alt-Enter continues the line", "", "a\x1b\rb\r", "a\\\rb\r", nil},
		{"Shift+Tab is the mode key", "", "a\x1b[Zb", "a" + modeKey + "b", nil},
		{"Shift+Tab does not answer a question", "yn", "\x1b[Zy", "y\r", nil},
		{"a key answers with Enter", "yn", "xy", "y\r", nil},
		{"after the answer keys are typed", "yn", "yyes", "y\ryes", nil},
		{"Enter, Ctrl-C and Ctrl-D pass to a question", "yn", "\r\x03\x04", "\r\x03\x04", nil},
		{"a paste never answers", "yn", "\x1b[200~y\x1b[201~n", "n\r", nil},
		{"arrows and Ctrl-J are not answers", "yn", "\x1b[A\x1bOB\n\x1b\ry", "y\r", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, pasted := filterRun(tt.keys, 0, tt.in)
			if out != tt.out || !slices.Equal(pasted, tt.pasted) {
				t.Errorf("got %q, pastes %q; want %q, %q", out, pasted, tt.out, tt.pasted)
			}
			// Split anywhere, in two and in single bytes, the same comes out.
			for i := range len(tt.in) {
				out2, pasted2 := filterRun(tt.keys, 0, tt.in[:i], tt.in[i:])
				if out2 != out || !slices.Equal(pasted2, pasted) {
					t.Errorf("split at %d: %q, %q", i, out2, pasted2)
				}
			}
			out3, pasted3 := filterRun(tt.keys, 0, strings.Split(tt.in, "")...)
			if out3 != out || !slices.Equal(pasted3, pasted) {
				t.Errorf("byte by byte: %q, %q", out3, pasted3)
			}
		})
	}
}

// An Enter that comes in the same read as a single-key answer ("y\r"
// typed in a blink) is dropped; one pressed after the answer, in a read of
// its own, is the person's and is never dropped, however soon it comes.
func TestKeyFilterDropsEnterOnlyWithAnswer(t *testing.T) {
	for _, tt := range []struct {
		name   string
		chunks []string
		out    string
	}{
		{"Enter with the answer", []string{"y\rls\r"}, "y\rls\r"},
		{"Ctrl-J with the answer", []string{"y\nls\r"}, "y\rls\r"},
		{"only right after it", []string{"yx\r\r"}, "y\rx\r\r"},
		{"Enter alone after the answer", []string{"A", "\r"}, "A\r\r"},
		{"Enter with what follows", []string{"y", "\rls\r"}, "y\r\rls\r"},
		{"Ctrl-J after the answer", []string{"y", "\n"}, "y\r\\\r"},
		{"the answer and Enter together, then Enter", []string{"y\r", "\r"}, "y\r\r"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if out, _ := filterRun("yaA", 0, tt.chunks...); out != tt.out {
				t.Errorf("got %q, want %q", out, tt.out)
			}
		})
	}
}

// A paste over the limit keeps its beginning and says it was cut.
func TestKeyFilterCutsHugePaste(t *testing.T) {
	out, pasted := filterRun("", 8, "\x1b[200~0123", "456789abc\x1b[201~z")
	if out != "<1>z" || !slices.Equal(pasted, []string{"01234567<cut>"}) {
		t.Errorf("got %q, %q", out, pasted)
	}
}

// A paste whose end never comes ends when the terminal goes quiet, and
// what follows is typed as usual.
func TestInputFilterEndsQuietPaste(t *testing.T) {
	r, w := io.Pipe()
	var pasted []string
	in := newInputFilter(r, func(text string, _ bool) string { pasted = append(pasted, text); return "[P]" })
	in.idle = 50 * time.Millisecond
	defer in.Close()
	go func() { _, _ = w.Write([]byte("a\x1b[200~half a paste\x1b[20")) }()
	got := readN(t, in, 4)
	if got != "a[P]" || !slices.Equal(pasted, []string{"half a paste\x1b[20"}) {
		t.Errorf("got %q, pastes %q", got, pasted)
	}
	go func() { _, _ = w.Write([]byte("b\r")) }()
	if got := readN(t, in, 2); got != "b\r" {
		t.Errorf("after the paste: %q", got)
	}
	w.Close()
	if _, err := in.Read(make([]byte, 8)); err != io.EOF {
		t.Errorf("at the end: %v", err)
	}
}

// Close ends a read that waits for the terminal.
func TestInputFilterClose(t *testing.T) {
	r, _ := io.Pipe()
	in := newInputFilter(r, nil)
	done := make(chan error)
	go func() {
		_, err := in.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	in.Close()
	select {
	case err := <-done:
		if err != io.EOF {
			t.Errorf("read after close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the read")
	}
}

func readN(t *testing.T, r io.Reader, n int) string {
	t.Helper()
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(buf)
}

// Whatever the terminal sends, and however its reads split it, the filter
// gives the same, never panics, and passes plain bytes untouched.
func FuzzKeyFilter(f *testing.F) {
	f.Add([]byte("ls\r"), byte(1), "")
	f.Add([]byte("x\x1b[200~a\r\x1b[201\x1b[201~\x1b[A\n\x1b\r"), byte(3), "")
	f.Add([]byte("\x1b[200~y\x1b[201~\x1b\x1b[Bny"), byte(2), "yn")
	f.Add([]byte("\x1b[2\x1b[200~\x1b[201~~"), byte(5), "a")
	f.Add([]byte("ab\x1b[Z\x07\x1b[Zc"), byte(2), "")
	f.Fuzz(func(t *testing.T, in []byte, step byte, keys string) {
		whole, pw := filterRun(keys, 64, string(in))
		var chunks []string
		n := int(step%7) + 1
		for i := 0; i < len(in); i += n {
			chunks = append(chunks, string(in[i:min(i+n, len(in))]))
		}
		split, ps := filterRun(keys, 64, chunks...)
		// Split reads may keep an Enter that came with an answer.
		if whole != split && !(keys != "" && oneEnterMore(split, whole)) || !slices.Equal(pw, ps) {
			t.Fatalf("whole %q %q, split %q %q", whole, pw, split, ps)
		}
		if keys == "" && !bytes.ContainsAny(in, "\x1b\n") && whole != string(in) {
			t.Fatalf("plain bytes changed: %q -> %q", in, whole)
		}
	})
}

// oneEnterMore says more is less with one Enter (or the continued line
// a Ctrl-J types) more.
func oneEnterMore(more, less string) bool {
	for i := range len(more) {
		for _, enter := range []string{"\r", continueLine} {
			if strings.HasPrefix(more[i:], enter) && more[:i]+more[i+len(enter):] == less {
				return true
			}
		}
	}
	return false
}

// A paste's text comes out as it went in, whatever it holds but its end.
func FuzzPasteRoundTrip(f *testing.F) {
	f.Add("before ", "line one\r\tline two\x1b[201")
	f.Add("", "\x1b\x1b[200~\x1b[20")
	f.Fuzz(func(t *testing.T, before, text string) {
		if strings.Contains(text, pasteEnd) || strings.ContainsAny(before, "\x1b\n") {
			return
		}
		out, pasted := filterRun("", 0, before+pasteStart+text+pasteEnd)
		if out != before+"<1>" || !slices.Equal(pasted, []string{text}) {
			t.Fatalf("got %q, %q", out, pasted)
		}
	})
}

// A 200 KB paste through the filter, in the terminal's 4 KB reads.
func BenchmarkKeyFilterPaste(b *testing.B) {
	in := []byte(pasteStart + strings.Repeat("0123456789abcdef\r", 200<<10/17) + pasteEnd)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		f := keyFilter{onPaste: func(string, bool) string { return "[P]" }}
		var out []byte
		for i := 0; i < len(in); i += 4096 {
			out = f.feed(in[i:min(i+4096, len(in))], out[:0])
		}
	}
}
