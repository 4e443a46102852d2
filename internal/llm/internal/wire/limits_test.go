package wire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

func TestLimitsDefaults(t *testing.T) {
	l := Limits{}.WithDefaults()
	if l.MaxAnswerBytes != 4<<20 || l.IdleTimeout != 5*time.Minute || l.AfterFunc == nil {
		t.Errorf("defaults %+v", l)
	}
	l = Limits{MaxAnswerBytes: 1000, IdleTimeout: time.Second}.WithDefaults()
	if l.MaxAnswerBytes != 1000 || l.IdleTimeout != time.Second {
		t.Errorf("given limits changed: %+v", l)
	}
}

func TestLimitErrors(t *testing.T) {
	tests := []struct {
		err       *llm.Error
		want      string
		retryable bool
	}{
		{Limits{MaxAnswerBytes: 4 << 20}.TooLarge("openai"),
			"openai: the answer is too long: it passed 4 MiB of text, thinking and tool arguments; stopped", false},
		{Limits{MaxAnswerBytes: 512 << 10}.TooLarge("anthropic"),
			"anthropic: the answer is too long: it passed 512 KiB of text, thinking and tool arguments; stopped", false},
		{Limits{MaxAnswerBytes: 1000}.TooLarge("ollama"),
			"ollama: the answer is too long: it passed 1000 bytes of text, thinking and tool arguments; stopped", false},
		{Limits{IdleTimeout: 5 * time.Minute}.Stalled("openai", "http://x"),
			"openai: the answer stalled: nothing new for 5m0s (keep-alives do not count); stopped", true},
		{StreamFailure("openai", "http://x", &NoAnswerError{Timeout: 90 * time.Second}, nil, ""),
			"openai: the answer stalled: no response in 1m30s; stopped", true},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
		if tt.err.Retryable() != tt.retryable {
			t.Errorf("%q: Retryable() = %v", tt.want, !tt.retryable)
		}
		if tt.err.Hint() == "" {
			t.Errorf("%q has no hint", tt.want)
		}
	}
}

func TestWatch(t *testing.T) {
	var timers llmtest.Timers
	l := Limits{MaxAnswerBytes: 100, IdleTimeout: time.Minute, AfterFunc: timers.AfterFunc}
	ctx, cancel := context.WithCancelCause(context.Background())
	w := l.Watch(cancel)
	timer := timers.Wait(1, time.Second)[0]
	if timer.Duration() != time.Minute || !timer.Armed() {
		t.Fatalf("timer %v armed %v", timer.Duration(), timer.Armed())
	}
	for _, size := range []int{0, 0, 10, 10, 50} {
		if err := w.Saw(size); err != nil {
			t.Fatalf("Saw(%d) = %v", size, err)
		}
	}
	if got := timer.Resets(); got != 2 {
		t.Errorf("%d resets, want 2: only growth is progress", got)
	}
	if err := w.Saw(101); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Saw past the cap = %v", err)
	}
	if w.Stalled() {
		t.Fatal("stalled before the timer fired")
	}
	timer.Fire()
	<-ctx.Done()
	if !w.Stalled() || !errors.Is(context.Cause(ctx), errStalled) {
		t.Errorf("after the timer: stalled %v, cause %v", w.Stalled(), context.Cause(ctx))
	}
	w.Stop()
	if timer.Armed() {
		t.Error("Stop left the timer armed")
	}
}

// blockingBody is a response body that waits for its request's context.
type blockingBody struct{ ctx context.Context }

func (b blockingBody) Read([]byte) (int, error) { <-b.ctx.Done(); return 0, context.Cause(b.ctx) }
func (b blockingBody) Close() error             { return nil }

func TestAnswerWithin(t *testing.T) {
	var timers llmtest.Timers
	l := Limits{IdleTimeout: time.Minute, AfterFunc: timers.AfterFunc}.WithDefaults()
	mw := l.AnswerWithin()
	req, _ := http.NewRequest("POST", "http://example.invalid/v1", nil)

	// No response in time: the attempt ends with a *NoAnswerError, which
	// the SDKs retry as a failed connection.
	done := make(chan error, 1)
	go func() {
		_, err := mw(req, func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return nil, r.Context().Err()
		})
		done <- err
	}()
	timers.Wait(1, time.Second)[0].Fire()
	var na *NoAnswerError
	if err := <-done; !errors.As(err, &na) || na.Timeout != time.Minute {
		t.Fatalf("err %v, want a *NoAnswerError", err)
	}

	// A response in time: the timer stops, and the body stays readable
	// until it is closed.
	res, err := mw(req, func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("data: x\n\n"))}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if timers.Wait(2, time.Second)[1].Armed() {
		t.Error("the timer is armed after the response came")
	}
	if b, err := io.ReadAll(res.Body); err != nil || string(b) != "data: x\n\n" {
		t.Errorf("body %q, %v", b, err)
	}
	_ = res.Body.Close()

	// The caller's own cancellation is not a stall.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = mw(req.WithContext(ctx), func(r *http.Request) (*http.Response, error) {
		return nil, r.Context().Err()
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled request: %v", err)
	}

	// A response that came as the timer fired has a dead body: retried.
	go func() {
		_, err := mw(req, func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return &http.Response{StatusCode: 200, Body: blockingBody{r.Context()}}, nil
		})
		done <- err
	}()
	timers.Wait(4, time.Second)[3].Fire()
	if err := <-done; !errors.As(err, &na) {
		t.Errorf("late response: %v, want a *NoAnswerError", err)
	}
}

// An answer that keeps growing never stalls, but its whole time is
// bounded: the second timer is not reset by growth, and firing it ends
// the stream with the overtime error, not the stalled one.
func TestWatchOvertime(t *testing.T) {
	var timers llmtest.Timers
	l := Limits{MaxAnswerBytes: 1 << 20, IdleTimeout: time.Minute, MaxAnswerTime: time.Hour, AfterFunc: timers.AfterFunc}
	ctx, cancel := context.WithCancelCause(context.Background())
	w := l.Watch(cancel)
	ts := timers.Wait(2, time.Second)
	idle, whole := ts[0], ts[1]
	for size := 1; size < 100; size++ {
		if err := w.Saw(size); err != nil {
			t.Fatal(err)
		}
	}
	if whole.Duration() != time.Hour || whole.Resets() != 0 || idle.Resets() != 99 {
		t.Errorf("whole %s reset %d times, idle reset %d times", whole.Duration(), whole.Resets(), idle.Resets())
	}
	if w.Ended("openai", "http://x") != nil {
		t.Fatal("ended before a timer fired")
	}
	whole.Fire()
	<-ctx.Done()
	e := w.Ended("openai", "http://x")
	if e == nil || e.Kind != llm.KindTooLarge || !strings.Contains(e.Error(), "the answer is too long: it went on for 1h0m0s; stopped") ||
		!errors.Is(context.Cause(ctx), errOvertime) {
		t.Errorf("after the whole-time timer: %v, cause %v", e, context.Cause(ctx))
	}
	w.Stop()
	if idle.Armed() || whole.Armed() {
		t.Error("Stop left a timer armed")
	}
}
