package llm

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// ErrorKind says what sort of failure an Error is.
type ErrorKind int

// The kinds of Error.
const (
	// KindStatus: the provider answered with an HTTP error status, or
	// with an error event in the middle of its stream.
	KindStatus ErrorKind = iota
	// KindUnreachable: no connection could be made (refused, unknown
	// host, TLS failure, dial timeout).
	KindUnreachable
	// KindConnection: a connection was made but failed before the
	// answer began (reset, closed without a response).
	KindConnection
	// KindInterrupted: the answer's stream stopped before its end.
	KindInterrupted
	// KindMalformed: the answer could not be read: not an event stream,
	// or events that are not the provider's JSON.
	KindMalformed
	// KindCanceled: the caller's context was cancelled.
	KindCanceled
	// KindTimeout: the caller's deadline passed.
	KindTimeout
	// KindRequest: the request could not be built from forge's side (a
	// tool schema that is not JSON, ...); nothing was sent.
	KindRequest
	// KindTooLarge: the answer passed the cap on one answer's size: a
	// model (or server) streaming without end.
	KindTooLarge
	// KindStalled: the provider sent nothing new (keep-alives do not
	// count) for longer than the idle timeout, before or during the
	// answer.
	KindStalled
)

// Error is a provider's failure, as a person should read it: every
// answer the provider gives with an error status, every transport failure
// and every unreadable answer becomes one. Error() is one line that names
// the provider, the status and the server's own message; Hint says what to
// do. Message never holds an API key: providers pass theirs to Redact.
type Error struct {
	// Provider is the name of the provider ("openai", "anthropic",
	// "ollama"...).
	Provider string
	Kind     ErrorKind
	// Status is the HTTP status, or the status an error event stands for;
	// 0 when there was no answer.
	Status int
	// Message is the server's own message for a status, or the reason of
	// any other failure, on one line.
	Message string
	// Type is the provider's error type when it gave one
	// ("rate_limit_error", "invalid_request_error"...).
	Type string
	// URL is the base URL the provider was asked at, for the failures
	// where it helps (cannot reach, not the provider's API).
	URL string
	// KeyVar is the environment variable the API key comes from, for the
	// hint of 401 and 403 ("OPENAI_API_KEY").
	KeyVar string
	// RetryAfter is the wait the server asked for, when it said.
	RetryAfter time.Duration
	// Err is the underlying cause when it matters to callers:
	// context.Canceled or context.DeadlineExceeded for those kinds.
	Err error
}

// Error returns the failure on one line, e.g.
// "openai: 401 Unauthorized: Incorrect API key provided".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(": ")
	switch e.Kind {
	case KindStatus:
		b.WriteString(StatusLine(e.Status))
		if e.Message != "" {
			b.WriteString(": ")
			b.WriteString(e.Message)
		}
		return b.String()
	case KindUnreachable:
		fmt.Fprintf(&b, "cannot reach %s", orUnknown(e.URL))
	case KindConnection:
		fmt.Fprintf(&b, "connection to %s failed", orUnknown(e.URL))
	case KindInterrupted:
		b.WriteString("the answer stopped before its end")
	case KindMalformed:
		b.WriteString("unreadable answer")
		if e.URL != "" {
			fmt.Fprintf(&b, " from %s", e.URL)
		}
	case KindCanceled:
		b.WriteString("request cancelled")
	case KindTimeout:
		b.WriteString("no answer in time")
	case KindRequest:
		b.WriteString("cannot build the request")
	case KindTooLarge:
		b.WriteString("the answer is too long")
	case KindStalled:
		b.WriteString("the answer stalled")
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

func orUnknown(url string) string {
	if url == "" {
		return "the server"
	}
	return url
}

// Unwrap returns the cause, so that errors.Is(err, context.Canceled)
// holds for a cancelled request.
func (e *Error) Unwrap() error { return e.Err }

// Hint says, in one line, what the user can do about the failure; "" when
// there is nothing to add to the message.
func (e *Error) Hint() string {
	switch e.Kind {
	case KindStatus:
		return e.statusHint()
	case KindUnreachable:
		if strings.Contains(e.Message, "no such host") || strings.Contains(e.Message, "certificate") {
			return "check --base-url"
		}
		if e.Provider == "ollama" {
			return "start Ollama (ollama serve, or the Ollama app), or give --base-url where it runs"
		}
		return fmt.Sprintf("is the server running at %s?", orUnknown(e.URL))
	case KindConnection:
		return "the connection failed before the answer began: retry"
	case KindInterrupted:
		return "the connection closed mid-answer: retry"
	case KindMalformed:
		return fmt.Sprintf("the server at %s does not answer like the %s API: check --base-url", orUnknown(e.URL), e.Provider)
	case KindTimeout:
		return "the provider did not answer in time: retry later, or allow more time"
	case KindTooLarge:
		return "the model did not end its answer: retry, or ask for less (max_answer_size and max_answer_time set the caps)"
	case KindStalled:
		return "the provider stopped answering: retry later (stream_idle_timeout sets how long forge waits)"
	}
	return ""
}

func (e *Error) statusHint() string {
	switch s := e.Status; {
	case s == http.StatusUnauthorized || s == http.StatusForbidden:
		if e.KeyVar != "" {
			return "check the API key in " + e.KeyVar
		}
		return "check the API key"
	case s == http.StatusNotFound:
		return "check --model and --base-url"
	case s == http.StatusTooManyRequests:
		if e.RetryAfter > 0 {
			return fmt.Sprintf("rate limited: wait %s or lower your usage", e.RetryAfter.Round(time.Second))
		}
		return "rate limited: wait a moment or lower your usage"
	case s == http.StatusRequestEntityTooLarge:
		return "the request is too large: shorten the conversation"
	case s >= 500:
		return "the provider's trouble: retry later"
	}
	return ""
}

// Retryable reports whether sending the same request again may succeed:
// rate limits, the provider's own failures, timeouts, stalls and
// connections that failed or broke. A cancelled request, a rejected one
// (400, 401, 403, 404), an unreadable answer or one without end is not.
func (e *Error) Retryable() bool {
	switch e.Kind {
	case KindStatus:
		s := e.Status
		return s == http.StatusRequestTimeout || s == http.StatusConflict ||
			s == http.StatusTooManyRequests || s >= 500
	case KindUnreachable, KindConnection, KindInterrupted, KindTimeout, KindStalled:
		return true
	}
	return false
}

// StatusLine is an HTTP status with its text, e.g. "401 Unauthorized",
// "529 Overloaded" (Anthropic's own status).
func StatusLine(status int) string {
	text := http.StatusText(status)
	if status == 529 {
		text = "Overloaded"
	}
	if text == "" {
		return fmt.Sprint(status)
	}
	return fmt.Sprintf("%d %s", status, text)
}

// ContextError is the Error for a request whose ctx ended: KindCanceled
// or KindTimeout, wrapping ctx's error.
func ContextError(provider string, ctx context.Context) *Error {
	err := context.Cause(ctx)
	if err == nil {
		err = ctx.Err()
	}
	kind := KindCanceled
	if ctx.Err() == context.DeadlineExceeded {
		kind = KindTimeout
	}
	return &Error{Provider: provider, Kind: kind, Err: err}
}

// maxMessage bounds a server's message in Error(): an HTML error page or
// a long JSON body must not flood the user's terminal.
const maxMessage = 300

// Redact turns a server's message into one clean line: every secret
// replaced by "[REDACTED]", whitespace runs (newlines included) folded into
// one space, control characters dropped, and the whole cut at a few
// hundred characters. Secrets are replaced both before and after the
// cleaning (a control character inside a key must not hide it) and before
// the cut (which must not leave a key's first half).
func Redact(msg string, secrets ...string) string {
	msg = replaceSecrets(msg, secrets)
	var b strings.Builder
	space := false
	for _, r := range msg {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if unicode.IsControl(r) {
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	out := replaceSecrets(b.String(), secrets)
	if utf8.RuneCountInString(out) > maxMessage {
		runes := []rune(out)
		out = string(runes[:maxMessage]) + "…"
	}
	return out
}

func replaceSecrets(s string, secrets []string) string {
	for _, secret := range secrets {
		if len(secret) >= 4 {
			s = strings.ReplaceAll(s, secret, "[REDACTED]")
		}
	}
	return s
}

// overflowPhrases are how providers say a request did not fit the model's
// window: OpenAI's code and message, Anthropic's, and the wordings of
// OpenAI-compatible servers (vLLM, llama.cpp, LM Studio, OpenRouter).
var overflowPhrases = []string{
	"context_length_exceeded", "maximum context length", "context length", "context window",
	"prompt is too long", "too many tokens", "exceeds the context", "input is too long",
	"exceeds the available context size", "exceed_context_size",
}

// IsContextOverflow reports whether err is a provider's refusal of a
// request too long for the model's window, which compaction can cure.
func IsContextOverflow(err error) bool {
	var e *Error
	if !errors.As(err, &e) || (e.Status != 400 && e.Status != 413) {
		return false
	}
	text := strings.ToLower(e.Message + " " + e.Type)
	for _, p := range overflowPhrases {
		if strings.Contains(text, p) {
			return true
		}
	}
	return false
}

// windowPhrases find the window a provider names when it refuses a
// request as too long: "maximum context length is 16000 tokens" (OpenAI,
// vLLM, OpenRouter), "prompt is too long: 210000 tokens > 200000 maximum"
// (Anthropic), "context length of only 4096 tokens" (LM Studio).
var windowPhrases = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)(?:maximum context length|context length|context window|context size)(?: is| of)?(?: only)? (\d[\d,]*)`),
		regexp.MustCompile(`(?i)> ?(\d[\d,]*) (?:tokens )?maximum`),
	}
})

// usedPhrases find what the refused request needed, as the provider
// counted it: "your messages resulted in 17023 tokens" (OpenAI), "you
// requested 5000 tokens" (vLLM), "210000 tokens > 200000" (Anthropic).
var usedPhrases = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)(?:resulted in|requested) (\d[\d,]*) tokens`),
		regexp.MustCompile(`(?i)(\d[\d,]*) tokens ?>`),
	}
})

// ContextLimits reads a provider's refusal of a request too long for the
// model's window: the tokens the request needed and the window, as the
// provider named them; 0 for what it did not name.
func ContextLimits(err error) (used, window int64) {
	var e *Error
	if !IsContextOverflow(err) || !errors.As(err, &e) {
		return 0, 0
	}
	return firstNumber(usedPhrases(), e.Message), firstNumber(windowPhrases(), e.Message)
}

// firstNumber is the number the first phrase that matches text captures;
// 0 when none does.
func firstNumber(phrases []*regexp.Regexp, text string) int64 {
	for _, re := range phrases {
		m := re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		n, err := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
		if err == nil && n > 0 {
			return n
		}
	}
	return 0
}
