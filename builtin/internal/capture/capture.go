// Package capture holds bounded buffers for command output, which can be far
// larger than what a model can read or than memory should hold: a command that
// prints gigabytes must cost a fixed amount of memory.
package capture

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// HeadShare is the part of a HeadTail's limit spent on the head; the rest
// keeps the tail, where errors and summaries usually are.
const HeadShare = 0.4

// HeadTail keeps the first and the last bytes written to it, up to a limit,
// and counts what fell in between. It is safe for concurrent use.
type HeadTail struct {
	mu    sync.Mutex
	head  []byte
	hcap  int
	tail  ring
	total int64
}

// NewHeadTail returns a buffer that keeps at most limit bytes: 40% of them
// from the start of the output and 60% from its end.
func NewHeadTail(limit int) *HeadTail {
	if limit < 2 {
		limit = 2
	}
	h := int(float64(limit) * HeadShare)
	if h < 1 {
		h = 1
	}
	return &HeadTail{hcap: h, head: make([]byte, 0, min(h, 64<<10)), tail: newRing(limit - h)}
}

// Write implements io.Writer; it never fails.
func (b *HeadTail) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	if room := b.hcap - len(b.head); room > 0 {
		k := min(room, len(p))
		b.head = append(b.head, p[:k]...)
		p = p[k:]
	}
	if len(p) > 0 {
		b.tail.write(p)
	}
	return n, nil
}

// Total is the number of bytes written so far.
func (b *HeadTail) Total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// kept returns the bytes kept, head then tail, without a marker: all of
// the output while nothing was left out.
func (b *HeadTail) kept() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append(append([]byte(nil), b.head...), b.tail.bytes()...)
}

// Truncated reports whether bytes were left out.
func (b *HeadTail) Truncated() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total > int64(len(b.head)+b.tail.len())
}

// String returns the head, a line saying how many bytes were left out (when
// any were), and the tail. Cuts fall on UTF-8 character boundaries.
func (b *HeadTail) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	tail := b.tail.bytes()
	kept := int64(len(b.head) + len(tail))
	if kept == b.total {
		return string(b.head) + string(tail)
	}
	head := trimRuneEnd(b.head)
	tail = trimRuneStart(tail)
	omitted := b.total - int64(len(head)+len(tail))
	return string(head) + OmittedLine(omitted) + string(tail)
}

// OmittedLine is the marker put where output was left out.
func OmittedLine(n int64) string {
	return fmt.Sprintf("\n[... %d bytes of output omitted ...]\n", n)
}

// Cap shortens s to at most limit bytes (plus the marker line), keeping its
// head and tail as a HeadTail would.
func Cap(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	b := NewHeadTail(limit)
	b.Write([]byte(s))
	return b.String()
}

// trimRuneEnd drops an incomplete UTF-8 sequence at the end of p.
func trimRuneEnd(p []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(p); i++ {
		c := p[len(p)-i]
		if c < utf8.RuneSelf {
			return p
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(p[len(p)-i:]) {
				return p[:len(p)-i]
			}
			return p
		}
	}
	return p
}

// trimRuneStart drops UTF-8 continuation bytes at the start of p.
func trimRuneStart(p []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(p); i++ {
		if utf8.RuneStart(p[i]) {
			return p[i:]
		}
	}
	if len(p) < utf8.UTFMax {
		return nil // only the end of a character
	}
	return p
}

// ring keeps the last cap bytes written to it.
type ring struct {
	buf  []byte
	size int // capacity
	w    int // next write position
	full bool
}

func newRing(size int) ring {
	if size < 1 {
		size = 1
	}
	// Allocate lazily up to size: most commands print little.
	return ring{size: size}
}

func (r *ring) len() int {
	if r.full {
		return r.size
	}
	return r.w
}

func (r *ring) write(p []byte) {
	if len(p) >= r.size {
		if len(r.buf) < r.size {
			r.buf = make([]byte, r.size)
		}
		copy(r.buf, p[len(p)-r.size:])
		r.w, r.full = 0, true
		return
	}
	if !r.full && r.w+len(p) > len(r.buf) {
		// Grow the backing array geometrically until it reaches size.
		n := max(2*len(r.buf), r.w+len(p), 4096)
		n = min(n, r.size)
		nb := make([]byte, n)
		copy(nb, r.buf[:r.w])
		r.buf = nb
	}
	k := copy(r.buf[r.w:], p)
	if k < len(p) {
		copy(r.buf, p[k:])
		r.w = len(p) - k
		r.full = true
		return
	}
	r.w += k
	if r.w == r.size {
		r.w, r.full = 0, true
	}
}

// bytes returns the kept bytes in order (a copy).
func (r *ring) bytes() []byte {
	if !r.full {
		return append([]byte(nil), r.buf[:r.w]...)
	}
	out := make([]byte, 0, r.size)
	out = append(out, r.buf[r.w:]...)
	return append(out, r.buf[:r.w]...)
}
