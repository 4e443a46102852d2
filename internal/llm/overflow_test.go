package llm

import (
	"errors"
	"testing"
)

// A refusal of a request too long for the model's window is told from
// other refusals, and the window it names, in each provider's wording, is
// read from it.
func TestContextLimits(t *testing.T) {
	for _, tc := range []struct {
		err          error
		overflow     bool
		used, window int64
	}{
		{&Error{Provider: "openai", Status: 400, Type: "invalid_request_error",
			Message: "This model's maximum context length is 16000 tokens. However, your messages resulted in 17023 tokens."}, true, 17023, 16000},
		{&Error{Provider: "openai", Status: 400, Message: "This model's maximum context length is 4096 tokens. However, you requested " +
			"5000 tokens (4000 in the messages, 1000 in the completion)."}, true, 5000, 4096},
		{&Error{Provider: "openai", Status: 400, Message: "This endpoint's maximum context length is 128,000 tokens."}, true, 0, 128000},
		{&Error{Provider: "anthropic", Status: 400, Message: "prompt is too long: 210000 tokens > 200000 maximum"}, true, 210000, 200000},
		{&Error{Provider: "openai", Status: 400, Message: "Trying to keep the first 5000 tokens when context the overflows. " +
			"However, the model is loaded with context length of only 4096 tokens, which is not enough."}, true, 0, 4096},
		{&Error{Provider: "openai", Status: 400, Message: "the request exceeds the available context size, try increasing it",
			Type: "exceed_context_size_error"}, true, 0, 0},
		{&Error{Provider: "openai", Status: 400, Type: "context_length_exceeded", Message: "too long"}, true, 0, 0},
		{&Error{Provider: "openai", Status: 400, Message: "Invalid value for max_tokens: 16000"}, false, 0, 0},
		{&Error{Provider: "openai", Status: 500, Message: "maximum context length is 8000 tokens"}, false, 0, 0},
		{errors.New("maximum context length is 8000 tokens"), false, 0, 0},
	} {
		if got := IsContextOverflow(tc.err); got != tc.overflow {
			t.Errorf("IsContextOverflow(%v) = %v", tc.err, got)
		}
		if used, window := ContextLimits(tc.err); used != tc.used || window != tc.window {
			t.Errorf("ContextLimits(%v) = %d, %d, want %d, %d", tc.err, used, window, tc.used, tc.window)
		}
	}
}

func FuzzContextLimits(f *testing.F) {
	for _, seed := range []string{"maximum context length is 16000 tokens", "prompt is too long: 1 tokens > 2 maximum",
		"context length of only 99999999999999999999999 tokens", "context window 0", "context size ,,,"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if used, window := ContextLimits(&Error{Provider: "p", Status: 400, Message: msg}); used < 0 || window < 0 {
			t.Fatalf("%q: used %d, window %d", msg, used, window)
		}
	})
}
