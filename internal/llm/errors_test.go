package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestErrorLine(t *testing.T) {
	cases := []struct {
		err       *Error
		line      string
		hint      string
		retryable bool
	}{
		{&Error{Provider: "openai", Status: 401, Message: "Incorrect API key provided", KeyVar: "OPENAI_API_KEY"},
			"openai: 401 Unauthorized: Incorrect API key provided", "check the API key in OPENAI_API_KEY", false},
		{&Error{Provider: "anthropic", Status: 403, Message: "forbidden", KeyVar: "ANTHROPIC_API_KEY"},
			"anthropic: 403 Forbidden: forbidden", "check the API key in ANTHROPIC_API_KEY", false},
		{&Error{Provider: "anthropic", Status: 529, Message: "Overloaded"},
			"anthropic: 529 Overloaded: Overloaded", "the provider's trouble: retry later", true},
		{&Error{Provider: "ollama", Status: 404, Message: `model "x" not found`},
			`ollama: 404 Not Found: model "x" not found`, "check --model and --base-url", false},
		{&Error{Provider: "openai", Status: 429, Message: "Rate limit reached", RetryAfter: 20 * time.Second},
			"openai: 429 Too Many Requests: Rate limit reached", "rate limited: wait 20s or lower your usage", true},
		{&Error{Provider: "openai", Status: 429},
			"openai: 429 Too Many Requests", "rate limited: wait a moment or lower your usage", true},
		{&Error{Provider: "openai", Status: 400, Message: "bad"}, "openai: 400 Bad Request: bad", "", false},
		{&Error{Provider: "openai", Status: 500}, "openai: 500 Internal Server Error", "the provider's trouble: retry later", true},
		{&Error{Provider: "openai", Status: 599, Message: "odd"}, "openai: 599: odd", "the provider's trouble: retry later", true},
		{&Error{Provider: "ollama", Kind: KindUnreachable, URL: "http://localhost:11434/v1", Message: "connection refused"},
			"ollama: cannot reach http://localhost:11434/v1: connection refused", "start Ollama (ollama serve, or the Ollama app), or give --base-url where it runs", true},
		{&Error{Provider: "openai", Kind: KindUnreachable, URL: "http://localhost:8000/v1", Message: "connection refused"},
			"openai: cannot reach http://localhost:8000/v1: connection refused", "is the server running at http://localhost:8000/v1?", true},
		{&Error{Provider: "openai", Kind: KindUnreachable, URL: "https://x.invalid/v1", Message: "no such host x.invalid"},
			"openai: cannot reach https://x.invalid/v1: no such host x.invalid", "check --base-url", true},
		{&Error{Provider: "openai", Kind: KindConnection, URL: "http://h/v1", Message: "connection reset by the server"},
			"openai: connection to http://h/v1 failed: connection reset by the server", "the connection failed before the answer began: retry", true},
		{&Error{Provider: "anthropic", Kind: KindInterrupted, Message: "unexpected EOF"},
			"anthropic: the answer stopped before its end: unexpected EOF", "the connection closed mid-answer: retry", true},
		{&Error{Provider: "openai", Kind: KindMalformed, URL: "http://h/v1", Message: "not an event stream (text/html)"},
			"openai: unreadable answer from http://h/v1: not an event stream (text/html)", "the server at http://h/v1 does not answer like the openai API: check --base-url", false},
		{&Error{Provider: "openai", Kind: KindCanceled, Err: context.Canceled}, "openai: request cancelled", "", false},
		{&Error{Provider: "openai", Kind: KindTimeout, Err: context.DeadlineExceeded}, "openai: no answer in time",
			"the provider did not answer in time: retry later, or allow more time", true},
		{&Error{Provider: "openai", Kind: KindRequest, Message: `tool "X": input schema is not JSON`},
			`openai: cannot build the request: tool "X": input schema is not JSON`, "", false},
		{&Error{Provider: "openai", Kind: KindTooLarge, Message: "it passed 4 MiB of text, thinking and tool arguments; stopped"},
			"openai: the answer is too long: it passed 4 MiB of text, thinking and tool arguments; stopped",
			"the model did not end its answer: retry, or ask for less (max_answer_size and max_answer_time set the caps)", false},
		{&Error{Provider: "anthropic", Kind: KindStalled, Message: "nothing new for 5m0s (keep-alives do not count); stopped"},
			"anthropic: the answer stalled: nothing new for 5m0s (keep-alives do not count); stopped",
			"the provider stopped answering: retry later (stream_idle_timeout sets how long forge waits)", true},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.line {
			t.Errorf("Error() = %q, want %q", got, c.line)
		}
		if got := c.err.Hint(); got != c.hint {
			t.Errorf("%s: Hint() = %q, want %q", c.line, got, c.hint)
		}
		if got := c.err.Retryable(); got != c.retryable {
			t.Errorf("%s: Retryable() = %v", c.line, got)
		}
		if strings.ContainsAny(c.err.Error(), "\n\r") {
			t.Errorf("%q is more than one line", c.err.Error())
		}
	}
}

func TestContextError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := error(ContextError("openai", ctx))
	if !errors.Is(err, context.Canceled) || err.Error() != "openai: request cancelled" {
		t.Errorf("cancelled: %v", err)
	}
	var e *Error
	if !errors.As(fmt.Errorf("turn 3: %w", err), &e) || e.Kind != KindCanceled || e.Retryable() {
		t.Errorf("as: %+v", e)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	err = ContextError("anthropic", ctx)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &e) || e.Kind != KindTimeout {
		t.Errorf("deadline: %v", err)
	}
}

func TestRedact(t *testing.T) {
	cases := []struct {
		in      string
		secrets []string
		want    string
	}{
		{"Invalid header: Bearer sk-test-1234567890", []string{"sk-test-1234567890"}, "Invalid header: Bearer [REDACTED]"},
		{"line one\n\n  line\ttwo\r\n", nil, "line one line two"},
		{"bell\x07 and nul\x00", nil, "bell and nul"},
		{"short key k stays", []string{"k", ""}, "short key k stays"},
		{strings.Repeat("é", 400), nil, strings.Repeat("é", 300) + "…"},
	}
	for _, c := range cases {
		if got := Redact(c.in, c.secrets...); got != c.want {
			t.Errorf("Redact(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRedactNeverLeavesPartOfAKey(t *testing.T) {
	key := "sk-proj-abcdefghijklmnop"
	cases := []string{
		strings.Repeat("x", 290) + " " + key, // the cut would fall inside the key
		"key: sk-proj-\x00abcdefghijklmnop",  // a control character inside the key
		"key: sk-proj-abcdefghijklmnop\nand again " + key,
	}
	for _, c := range cases {
		got := Redact(c, key)
		if strings.Contains(got, "sk-proj-abc") || strings.Contains(got, key[:12]) {
			t.Errorf("Redact(%q) = %q", c, got)
		}
	}
}
