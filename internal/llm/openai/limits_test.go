package openai

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

// streamErr streams req from m and returns its *llm.Error and how long it
// took; the test fails unless the stream failed with one.
func streamErr(t *testing.T, m *Model, rec *recorder) (*llm.Error, time.Duration) {
	t.Helper()
	start := time.Now()
	resp, err := m.Stream(context.Background(), user("go"), rec.add)
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("Stream = %+v, %v; want an *llm.Error", resp, err)
	}
	return e, time.Since(start)
}

// A model that streams without end, whatever it streams, is stopped at the
// cap on one answer, at once, and not sent the request again.
func TestAnswerWithoutEnd(t *testing.T) {
	tests := []struct {
		name, endless string
		max           int
		want          string
	}{
		{"text", "text", 256 << 10, "openai: the answer is too long: it passed 256 KiB of text, thinking and tool arguments; stopped"},
		{"arguments", "arguments", 256 << 10, "openai: the answer is too long: it passed 256 KiB of text, thinking and tool arguments; stopped"},
		{"thinking", "thinking", 256 << 10, "openai: the answer is too long: it passed 256 KiB of text, thinking and tool arguments; stopped"},
		{"the default cap", "text", 0, "openai: the answer is too long: it passed 4 MiB of text, thinking and tool arguments; stopped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "Let me write it.", Endless: tt.endless}}})
			m := newModel(t, srv, func(c *Config) { c.MaxAnswerBytes = tt.max })
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var rec recorder
			e, took := streamErr(t, m, &rec)
			runtime.ReadMemStats(&after)
			if e.Kind != llm.KindTooLarge || e.Error() != tt.want {
				t.Errorf("error %q (kind %d), want %q", e.Error(), e.Kind, tt.want)
			}
			if e.Retryable() {
				t.Error("an answer without end is retryable: the same request would stream it again")
			}
			if took > 20*time.Second {
				t.Errorf("took %s", took)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			if !strings.HasPrefix(rec.text(), "Let me write it.") {
				t.Errorf("the text before was not streamed: %.40q", rec.text())
			}
			// Everything allocated while reading a capped answer, not only
			// what is held at once: a few times the cap, never more.
			limit := tt.max
			if limit == 0 {
				limit = llm.DefaultMaxAnswerBytes
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(16*limit) {
				t.Errorf("allocated %d MiB for a cap of %d KiB", alloc>>20, limit>>10)
			}
		})
	}
}

// A stream of keep-alives alone (comments, chunks without content) fails
// when the idle timeout passes, as a retryable error, after the text that
// came before it was shown.
func TestKeepAlivesAlone(t *testing.T) {
	for _, text := range []string{"", "Thinking about it."} {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: text, KeepAlive: true}}})
		m := newModel(t, srv, func(c *Config) { c.StreamIdleTimeout = 500 * time.Millisecond })
		var rec recorder
		e, took := streamErr(t, m, &rec)
		want := "openai: the answer stalled: nothing new for 500ms (keep-alives do not count); stopped"
		if e.Kind != llm.KindStalled || e.Error() != want || !e.Retryable() {
			t.Errorf("error %q (kind %d, retryable %v), want %q, retryable", e.Error(), e.Kind, e.Retryable(), want)
		}
		if took < 500*time.Millisecond || took > 10*time.Second {
			t.Errorf("took %s for an idle timeout of 500ms", took)
		}
		if rec.text() != text {
			t.Errorf("text %q, want %q", rec.text(), text)
		}
	}
}

// The idle timeout's clock is injected: the default of five minutes is
// armed, keep-alives do not reset it, and firing it ends the stream.
func TestIdleTimeoutDefaultWithFakeClock(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{KeepAlive: true}}})
	var timers llmtest.Timers
	m := newModel(t, srv, func(c *Config) { c.AfterFunc = timers.AfterFunc })
	errc := make(chan error, 1)
	go func() {
		_, err := m.Stream(context.Background(), user("go"), nil)
		errc <- err
	}()
	ts := timers.Wait(3, 10*time.Second)
	if len(ts) != 3 {
		t.Fatalf("%d timers started, want 3 (the response, then the stream's idle time and its whole time)", len(ts))
	}
	response, stream := ts[0], ts[1]
	if whole := ts[2]; whole.Duration() != 30*time.Minute || !whole.Armed() || whole.Resets() != 0 {
		t.Errorf("the answer's whole-time timer: %s, armed %v, reset %d times; want 30m, armed, never reset", whole.Duration(), whole.Armed(), whole.Resets())
	}
	if response.Duration() != 5*time.Minute || response.Armed() {
		t.Errorf("the response timer: %s, armed %v; want 5m, stopped when the response came", response.Duration(), response.Armed())
	}
	time.Sleep(100 * time.Millisecond) // some twenty keep-alives
	if stream.Duration() != 5*time.Minute || stream.Resets() != 0 {
		t.Errorf("the stream timer: %s, reset %d times; want 5m, never reset by keep-alives", stream.Duration(), stream.Resets())
	}
	stream.Fire()
	select {
	case err := <-errc:
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindStalled || !strings.Contains(e.Error(), "nothing new for 5m0s") {
			t.Errorf("err %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("firing the idle timer did not end the stream")
	}
}

// An answer still streaming at max_answer_time ends with its own error,
// keep-alives or not.
func TestAnswerTimeWithFakeClock(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{KeepAlive: true}}})
	var timers llmtest.Timers
	m := newModel(t, srv, func(c *Config) { c.AfterFunc, c.MaxAnswerTime = timers.AfterFunc, 45*time.Minute })
	errc := make(chan error, 1)
	go func() {
		_, err := m.Stream(context.Background(), user("go"), nil)
		errc <- err
	}()
	ts := timers.Wait(3, 10*time.Second)
	if len(ts) != 3 || ts[2].Duration() != 45*time.Minute {
		t.Fatalf("timers %v", ts)
	}
	ts[2].Fire()
	select {
	case err := <-errc:
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindTooLarge || !strings.Contains(e.Error(), "it went on for 45m0s") ||
			!strings.Contains(e.Hint(), "max_answer_time") {
			t.Errorf("err %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("firing the whole-time timer did not end the stream")
	}
}

// waitRequests waits until srv has received n requests: a timer fired
// before its attempt reached the server would stop a request the test
// meant to stall.
func waitRequests(t *testing.T, srv *llmtest.Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(srv.Requests()) < n; {
		if time.Now().After(deadline) {
			t.Fatalf("%d requests, want %d", len(srv.Requests()), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// A server that sends nothing at all, not even its status line, fails the
// attempt at the idle timeout; the SDK retries it with its backoff. The
// timers are fired by hand, so that a slow machine cannot time out an
// attempt that was meant to succeed.
func TestNoResponseIsRetried(t *testing.T) {
	stream := func(m *Model) chan error {
		errc := make(chan error, 1)
		go func() {
			resp, err := m.Stream(context.Background(), user("go"), nil)
			if err == nil && resp.Message.Text != "Here now." {
				err = errors.New("answer " + resp.Message.Text)
			}
			errc <- err
		}()
		return errc
	}

	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Stall: true}, {Text: "Here now."}}})
	var timers llmtest.Timers
	m := newModel(t, srv, func(c *Config) { c.AfterFunc = timers.AfterFunc; c.MaxRetries = 1 })
	errc := stream(m)
	waitRequests(t, srv, 1)
	timers.Wait(1, 10*time.Second)[0].Fire() // the first attempt's response
	if err := <-errc; err != nil {
		t.Fatalf("Stream: %v; want the retry's answer", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}

	srv = llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{{Stall: true}}})
	timers = llmtest.Timers{}
	m = newModel(t, srv, func(c *Config) {
		c.AfterFunc, c.StreamIdleTimeout, c.MaxRetries = timers.AfterFunc, 90*time.Second, 1
	})
	errc = stream(m)
	waitRequests(t, srv, 1)
	timers.Wait(1, 10*time.Second)[0].Fire()
	waitRequests(t, srv, 2)
	timers.Wait(2, 10*time.Second)[1].Fire() // the retry's
	var e *llm.Error
	err := <-errc
	want := "openai: the answer stalled: no response in 1m30s; stopped"
	if !errors.As(err, &e) || e.Kind != llm.KindStalled || e.Error() != want || !e.Retryable() {
		t.Errorf("error %v, want %q, retryable", err, want)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2 (one retry)", n)
	}
}
