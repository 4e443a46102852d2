package llm

import "time"

// The bounds of one streamed answer that providers apply unless told
// otherwise.
const (
	// DefaultMaxAnswerBytes caps one answer's text, thinking and tool-call
	// arguments together. The longest answers models give today (128k
	// output tokens, a few bytes each) are well under 1 MiB, so only a
	// stream without end meets it. A prompt's token budget (max_tokens)
	// cannot stop such a stream: usage is counted when an answer ends.
	DefaultMaxAnswerBytes = 4 << 20
	// DefaultStreamIdleTimeout is how long a provider may send nothing new
	// (keep-alives do not count) before the request fails: long enough for
	// a large model to load or think, short enough that a hung server does
	// not hold the person for hours.
	DefaultStreamIdleTimeout = 5 * time.Minute
	// DefaultMaxAnswerTime bounds how long one answer may stream: a model
	// that never ends but keeps sending a little (a loop at a slow
	// server's pace) would take days to reach the size cap. Half an hour
	// is several times the longest answer a hosted model streams, and
	// room for a long one from a slow local model.
	DefaultMaxAnswerTime = 30 * time.Minute
)

// AfterFunc waits for d in its own goroutine and then calls f, as
// time.AfterFunc does. Providers take one for their idle timeout, so that
// a test can fire the timer instead of waiting for minutes.
type AfterFunc func(d time.Duration, f func()) Timer

// Timer is a timer an AfterFunc started; *time.Timer is one.
type Timer interface {
	// Stop prevents the call, reporting whether it did.
	Stop() bool
	// Reset makes the call happen d from now instead.
	Reset(d time.Duration) bool
}

// SystemAfterFunc is AfterFunc on the system clock.
func SystemAfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
