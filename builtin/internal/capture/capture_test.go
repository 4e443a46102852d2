package capture

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHeadTail(t *testing.T) {
	cases := []struct {
		name   string
		limit  int
		writes []string
		want   string
	}{
		{"fits", 10, []string{"hello"}, "hello"},
		{"exactly", 10, []string{"0123456789"}, "0123456789"},
		{"cut", 10, []string{"0123456789abcdef"}, "0123" + OmittedLine(6) + "abcdef"},
		{"many small writes", 10, strings.Split("0123456789abcdef", ""), "0123" + OmittedLine(6) + "abcdef"},
		{"big write after small", 10, []string{"01", "23456789abcdefghij"}, "0123" + OmittedLine(10) + "efghij"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewHeadTail(c.limit)
			for _, w := range c.writes {
				b.Write([]byte(w))
			}
			if got := b.String(); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// Cuts never split a UTF-8 character.
func TestHeadTailUTF8(t *testing.T) {
	s := strings.Repeat("é✓", 100)
	for limit := 2; limit < 40; limit++ {
		got := Cap(s, limit)
		if !utf8.ValidString(got) {
			t.Fatalf("limit %d: invalid UTF-8 %q", limit, got)
		}
	}
}

// Memory stays bounded however much is written.
func TestHeadTailBounded(t *testing.T) {
	b := NewHeadTail(1000)
	chunk := bytes.Repeat([]byte("x"), 32<<10)
	for i := 0; i < 300; i++ { // ~10 MB
		b.Write(chunk)
	}
	if cap(b.head) > 1000 || cap(b.tail.buf) > 1000 {
		t.Errorf("buffers grew to %d and %d", cap(b.head), cap(b.tail.buf))
	}
	if b.Total() != 300*32<<10 || !b.Truncated() {
		t.Errorf("total %d truncated %v", b.Total(), b.Truncated())
	}
}

func TestStream(t *testing.T) {
	s := NewStream(8)
	s.Write([]byte("abc"))
	data, dropped, next := s.Since(0)
	if string(data) != "abc" || dropped != 0 || next != 3 {
		t.Fatalf("%q %d %d", data, dropped, next)
	}
	s.Write([]byte("defghijkl")) // 12 written, 8 kept: efghijkl
	data, dropped, next = s.Since(next)
	if string(data) != "efghijkl" || dropped != 1 || next != 12 {
		t.Fatalf("%q %d %d", data, dropped, next)
	}
	if data, _, _ = s.Since(next); data != nil {
		t.Fatalf("nothing new expected, got %q", data)
	}
	data, _, _ = s.Since(10)
	if string(data) != "kl" {
		t.Fatalf("%q", data)
	}
}

func FuzzHeadTail(f *testing.F) {
	f.Add([]byte("hello world"), 5, 3)
	f.Add([]byte("é✓é✓é✓"), 4, 1)
	f.Fuzz(func(t *testing.T, data []byte, limit, chunk int) {
		limit = 2 + abs(limit)%64
		chunk = 1 + abs(chunk)%16
		b := NewHeadTail(limit)
		r := NewStream(limit)
		for i := 0; i < len(data); i += chunk {
			b.Write(data[i:min(i+chunk, len(data))])
			r.Write(data[i:min(i+chunk, len(data))])
		}
		got := b.String()
		if len(data) <= limit && got != string(data) {
			t.Fatalf("short input changed: %q -> %q", data, got)
		}
		if len(data) > limit && !strings.Contains(got, "omitted") {
			t.Fatalf("long input not marked: %q", got)
		}
		tail, _, _ := r.Since(0)
		if !bytes.HasSuffix(data, tail) {
			t.Fatalf("stream kept %q, not a suffix of %q", tail, data)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
