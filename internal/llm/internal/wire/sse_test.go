package wire

import (
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

type event2 struct{ typ, data string }

func readAll(body string, max int) ([]event2, error) {
	e := NewEvents(io.NopCloser(strings.NewReader(body)), max)
	var out []event2
	for e.Next() {
		ev := e.Event()
		out = append(out, event2{ev.Type, string(ev.Data)})
	}
	return out, e.Err()
}

func TestEvents(t *testing.T) {
	long := strings.Repeat("x", 100<<10) // longer than the reader's buffer
	tests := []struct {
		name string
		body string
		max  int
		want []event2
		err  error
	}{
		{"data only", "data: {\"a\":1}\n\ndata: [DONE]\n\n", 100, []event2{{"", "{\"a\":1}\n"}, {"", "[DONE]\n"}}, nil},
		{"named", "event: ping\ndata: {}\n\n", 100, []event2{{"ping", "{}\n"}}, nil},
		{"type without data", "event: ping\n\n", 100, []event2{{"ping", ""}}, nil},
		{"comments skipped", ": ping\n\n: keep-alive\ndata: x\n\n", 100, []event2{{"", "x\n"}}, nil},
		{"lines joined", "data: a\ndata: b\n\n", 100, []event2{{"", "a\nb\n"}}, nil},
		{"no space", "data:x\n\n", 100, []event2{{"", "x\n"}}, nil},
		{"CRLF", "event: e\r\ndata: x\r\n\r\n", 100, []event2{{"e", "x\n"}}, nil},
		{"unknown fields", "id: 7\nretry: 10\ndata: x\n\n", 100, []event2{{"", "x\n"}}, nil},
		{"blank lines alone", "\n\n\n", 100, nil, nil},
		{"last event without its blank line", "data: a\n\ndata: b\n", 100, []event2{{"", "a\n"}}, nil},
		{"last line without newline", "data: a\n\ndata: b", 100, []event2{{"", "a\n"}}, nil},
		{"long line within max", "data: " + long + "\n\n", 200 << 10, []event2{{"", long + "\n"}}, nil},
		{"line past max", "data: " + long + "\n\n", 1 << 10, nil, ErrTooLarge},
		{"comment past max", ": " + long + "\n\n", 1 << 10, nil, ErrTooLarge},
		{"event past max", strings.Repeat("data: 0123456789\n", 20) + "\n", 100, nil, ErrTooLarge},
		{"earlier events kept", "data: a\n\n" + strings.Repeat("data: 0123456789\n", 20), 100, []event2{{"", "a\n"}}, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := readAll(tt.body, tt.max)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err %v, want %v", err, tt.err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("events %q, want %q", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("event %d = %q, want %q", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// endless is a body that never ends, until it is closed: its pattern,
// over and over.
type endless struct {
	pattern string
	off     int
	closed  atomic.Bool
}

func (r *endless) Close() error {
	r.closed.Store(true)
	return nil
}

func (r *endless) Read(p []byte) (int, error) {
	if r.closed.Load() {
		return 0, errors.New("read on a closed body")
	}
	for i := range p {
		p[i] = r.pattern[r.off%len(r.pattern)]
		r.off++
	}
	return len(p), nil
}

// A server that never ends a line, or never ends an event, costs a bounded
// read, not the memory.
func TestEventsWithoutEnd(t *testing.T) {
	for name, pattern := range map[string]string{
		"one line":            "x",
		"data without blank":  "data: 0123456789abcdef\n",
		"comments":            ": ping\n",
		"an event type, ever": "event: x\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := &endless{pattern: pattern}
			e := NewEvents(r, 1<<20)
			defer e.Close()
			stalls := pattern == ": ping\n" || pattern == "event: x\n"
			wait := 30 * time.Second // reading 1 MiB under the race detector on a loaded machine
			if stalls {
				wait = 300 * time.Millisecond
			}
			done := make(chan bool, 1)
			go func() { done <- e.Next() }()
			select {
			case got := <-done:
				if stalls {
					// Comments and types hold no data: the stream only
					// stalls, which the idle watch ends.
					t.Fatalf("Next returned %v", got)
				}
				if got || !errors.Is(e.Err(), ErrTooLarge) {
					t.Errorf("Next = %v, Err = %v, want ErrTooLarge", got, e.Err())
				}
				if r.off > 2<<20 { // read by Next's goroutine, which has returned
					t.Errorf("read %d bytes for a 1 MiB limit", r.off)
				}
			case <-time.After(wait):
				if !stalls {
					t.Fatal("Next did not stop")
				}
				_ = e.Close()
				if <-done {
					t.Error("Next returned an event after Close")
				}
			}
		})
	}
}

func FuzzEvents(f *testing.F) {
	for _, s := range []string{
		"data: {\"a\":1}\n\n", "event: ping\n\n", ": c\n\ndata: x\r\n\r\n", "data: a\ndata: b\n\n",
		"data:" + strings.Repeat("y", 300) + "\n\n", "\n\n\ndata", "event:\ndata:\n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		const max = 256
		events, err := readAll(body, max)
		if err != nil && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("error %v", err)
		}
		total := 0
		for _, ev := range events {
			if len(ev.data) > max {
				t.Fatalf("an event of %d bytes passed the limit of %d", len(ev.data), max)
			}
			if ev.typ == "" && ev.data == "" {
				t.Fatal("an empty event was dispatched")
			}
			if ev.data != "" && !strings.HasSuffix(ev.data, "\n") {
				t.Fatalf("data %q does not end its lines", ev.data)
			}
			total += len(ev.data)
		}
		if total > len(body)+len(events) {
			t.Fatalf("%d bytes of data from a %d-byte body", total, len(body))
		}
	})
}
