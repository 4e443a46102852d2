package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// Limits bound one streamed answer: its size, and how long the provider
// may send nothing new, before the answer begins or during it.
type Limits struct {
	// MaxAnswerBytes caps the answer's text, thinking and tool-call
	// arguments together; 0 is llm.DefaultMaxAnswerBytes.
	MaxAnswerBytes int
	// IdleTimeout is how long the stream may bring nothing new (comments,
	// ping events and empty chunks bring nothing); 0 is
	// llm.DefaultStreamIdleTimeout.
	IdleTimeout time.Duration
	// MaxAnswerTime is how long one answer may stream in all; 0 is
	// llm.DefaultMaxAnswerTime.
	MaxAnswerTime time.Duration
	// AfterFunc starts the idle timers; nil is llm.SystemAfterFunc.
	AfterFunc llm.AfterFunc
}

// WithDefaults fills in the zero fields.
func (l Limits) WithDefaults() Limits {
	if l.MaxAnswerBytes <= 0 {
		l.MaxAnswerBytes = llm.DefaultMaxAnswerBytes
	}
	if l.IdleTimeout <= 0 {
		l.IdleTimeout = llm.DefaultStreamIdleTimeout
	}
	if l.MaxAnswerTime <= 0 {
		l.MaxAnswerTime = llm.DefaultMaxAnswerTime
	}
	if l.AfterFunc == nil {
		l.AfterFunc = llm.SystemAfterFunc
	}
	return l
}

// MaxEvent is the longest event a stream of these limits may carry: one
// that brings a whole answer, with room for its JSON around it. A longer
// one could only carry an answer past the cap.
func (l Limits) MaxEvent() int { return l.MaxAnswerBytes + 64<<10 }

// TooLarge is the Error of an answer that passed MaxAnswerBytes.
func (l Limits) TooLarge(provider string) *llm.Error {
	return &llm.Error{Provider: provider, Kind: llm.KindTooLarge,
		Message: fmt.Sprintf("it passed %s of text, thinking and tool arguments; stopped", byteSize(l.MaxAnswerBytes))}
}

// Stalled is the Error of a stream that brought nothing new for
// IdleTimeout after it began.
func (l Limits) Stalled(provider, url string) *llm.Error {
	return &llm.Error{Provider: provider, Kind: llm.KindStalled, URL: url,
		Message: fmt.Sprintf("nothing new for %s (keep-alives do not count); stopped", l.IdleTimeout)}
}

// Overtime is the Error of an answer still streaming MaxAnswerTime after
// it began.
func (l Limits) Overtime(provider string) *llm.Error {
	return &llm.Error{Provider: provider, Kind: llm.KindTooLarge,
		Message: fmt.Sprintf("it went on for %s; stopped", l.MaxAnswerTime)}
}

// byteSize writes n as a person would: "4 MiB", "512 KiB", "1000 bytes".
func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// NoAnswerError is an attempt that got no response within the idle
// timeout. Client retries it, with its backoff, as it retries a
// connection that failed before the answer.
type NoAnswerError struct{ Timeout time.Duration }

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("no response in %s; stopped", e.Timeout)
}

// errNoAnswer is the cause an attempt's context is cancelled with when its
// response does not come in time.
var errNoAnswer = errors.New("no response in time")

// AnswerWithin is a middleware that gives up an attempt whose response
// (its status line and headers) has not come within l.IdleTimeout, with a
// *NoAnswerError, which Client's retry loop retries. Once the response has
// come, the stream is Watch's to guard.
func (l Limits) AnswerWithin() func(*http.Request, Next) (*http.Response, error) {
	return func(req *http.Request, next Next) (*http.Response, error) {
		ctx, cancel := context.WithCancelCause(req.Context())
		timer := l.AfterFunc(l.IdleTimeout, func() { cancel(errNoAnswer) })
		res, err := next(req.WithContext(ctx))
		inTime := timer.Stop()
		if !inTime && req.Context().Err() == nil {
			// The attempt's own context, not the caller's, ended it: a body
			// that came just then is unreadable, so it too is retried.
			if err == nil {
				_ = res.Body.Close()
			}
			cancel(nil)
			return nil, &NoAnswerError{Timeout: l.IdleTimeout}
		}
		if err != nil {
			cancel(nil)
			return res, err
		}
		res.Body = &cancelOnClose{ReadCloser: res.Body, cancel: cancel}
		return res, nil
	}
}

// cancelOnClose releases an attempt's context when its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelCauseFunc
}

func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel(nil)
	return err
}

// Watch guards one answer while it streams: Saw after each event fails an
// answer past MaxAnswerBytes, a timer cancels the stream's context when
// IdleTimeout passes without the answer growing, and another when the
// answer is still streaming MaxAnswerTime after it began.
type Watch struct {
	limits   Limits
	timer    llm.Timer
	whole    llm.Timer
	stalled  atomic.Bool
	overtime atomic.Bool
	size     int
}

// Watch starts guarding a stream whose request runs under a context that
// cancel ends.
func (l Limits) Watch(cancel context.CancelCauseFunc) *Watch {
	w := &Watch{limits: l}
	w.timer = l.AfterFunc(l.IdleTimeout, func() {
		w.stalled.Store(true)
		cancel(errStalled)
	})
	w.whole = l.AfterFunc(l.MaxAnswerTime, func() {
		w.overtime.Store(true)
		cancel(errOvertime)
	})
	return w
}

var (
	errStalled  = errors.New("the stream stalled")
	errOvertime = errors.New("the answer went on too long")
)

// Saw takes the answer's size after an event (the bytes of text, thinking,
// arguments and call names so far): growth restarts the idle timer, and
// passing the cap is ErrTooLarge.
func (w *Watch) Saw(size int) error {
	if size == w.size {
		return nil
	}
	w.size = size
	if size > w.limits.MaxAnswerBytes {
		return ErrTooLarge
	}
	w.timer.Reset(w.limits.IdleTimeout)
	return nil
}

// Stalled reports whether the idle timer ended the stream.
func (w *Watch) Stalled() bool { return w.stalled.Load() }

// Ended is the Error of a stream the watch's timers ended, idle or
// overtime; nil when neither did.
func (w *Watch) Ended(provider, url string) *llm.Error {
	switch {
	case w.stalled.Load():
		return w.limits.Stalled(provider, url)
	case w.overtime.Load():
		return w.limits.Overtime(provider)
	}
	return nil
}

// Stop stops the timers.
func (w *Watch) Stop() {
	w.timer.Stop()
	w.whole.Stop()
}
