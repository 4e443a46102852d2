package llmtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode/utf8"
)

// Script is what a Server answers: its turns, and what to do past them.
type Script struct {
	// Turns answer the requests. Request N gets the first turn not yet
	// used whose condition (When, Match) accepts it: in order, when no
	// turn has a condition.
	Turns []Turn `json:"turns"`
	// RepeatLast answers a request that finds no unused turn with the
	// last turn that accepts it, again. Without it such a request is a
	// failure: the test is reported (NewServer) and the client gets a 500
	// that says so.
	RepeatLast bool `json:"repeat_last,omitempty"`
	// Models are the model names GET /v1/models lists; default
	// ["llmtest-model"].
	Models []string `json:"models,omitempty"`
	// Lenient turns off the checks of the conversation's structure that
	// the real APIs make (tool calls answered, roles alternating, no
	// empty text blocks...). By default a request that the real API would
	// reject with 400 gets that 400 here too.
	Lenient bool `json:"lenient,omitempty"`
	// RequireReasoning refuses, on the OpenAI wire, a request whose
	// assistant messages in the turn under way (after the last user
	// message) came without the reasoning_content (or reasoning) they
	// were streamed with, as DeepSeek's thinking mode does.
	RequireReasoning bool `json:"require_reasoning,omitempty"`
	// PromptCache reports each answer's input usage as the providers'
	// prompt caches would count it, instead of the turn's: the prefix
	// read from the cache and, on Anthropic's wire, written to it at the
	// request's breakpoints (see promptCache). Output stays the turn's.
	PromptCache bool `json:"prompt_cache,omitempty"`
}

// Turn is one answer: a streamed assistant turn (Text, Chunks, ToolCalls,
// Usage, Stop), or a failure (Error, Raw, HangUp, Stall, StreamError,
// Endless, KeepAlive).
type Turn struct {
	// When, if set, restricts the turn to the requests it accepts.
	When *When `json:"when,omitempty"`
	// Match, if set, restricts the turn to the requests it accepts; for
	// Go tests (a script file uses When).
	Match func(*Request) bool `json:"-"`

	// Text is the assistant's text, streamed a word at a time.
	Text string `json:"text,omitempty"`
	// Chunks, if set, are the text's pieces exactly as they stream, in
	// place of Text.
	Chunks []string `json:"chunks,omitempty"`
	// Thinking is the model's thinking before its text, a piece each:
	// on the Anthropic wire a thinking block each, signed (Signature); on
	// the OpenAI wire reasoning_content; on the Responses API a reasoning
	// item each. A script file may give one piece as a string.
	Thinking Thoughts `json:"thinking,omitempty"`
	// RedactedThinking are redacted_thinking blocks' data, after the
	// thinking blocks (Anthropic wire only).
	RedactedThinking []string `json:"redacted_thinking,omitempty"`
	// ToolCalls are the calls the turn makes, after its text.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Usage is the usage reported; default 10 input and 5 output tokens.
	Usage *Usage `json:"usage,omitempty"`
	// Stop is the stop reason written on the wire, as it is ("length",
	// "content_filter", "max_tokens", "refusal"...). Default: the
	// wire's own for a turn with calls (tool_calls, tool_use) or without
	// (stop, end_turn).
	Stop string `json:"stop,omitempty"`
	// Model is the model named in the answer; default the request's.
	Model string `json:"model,omitempty"`
	// Quirks make the OpenAI stream look like other servers'.
	Quirks Quirks `json:"quirks,omitzero"`

	// Error answers with an HTTP error instead of a stream.
	Error *ErrorReply `json:"error,omitempty"`
	// Raw answers with this body, as it is: an HTML page, garbage.
	Raw *RawReply `json:"raw,omitempty"`
	// HangUp closes the connection after part of the stream.
	HangUp *HangUp `json:"hang_up,omitempty"`
	// Stall streams the turn's text and calls, if any, without their end,
	// and then holds the connection open until the client goes away (or
	// the server closes). A stall without text or calls sends nothing,
	// not even the status line.
	Stall bool `json:"stall,omitempty"`
	// Endless streams the turn's text and calls, if any, and then one
	// thing without end until the client goes away: "text" (text pieces),
	// "arguments" (a call's argument fragments) or "thinking"
	// (reasoning_content on the OpenAI wire, thinking deltas on
	// Anthropic's), each event carrying 1 KiB.
	Endless string `json:"endless,omitempty"`
	// KeepAlive streams the turn's text and calls, if any, and then
	// nothing but keep-alives every few milliseconds until the client
	// goes away: comments (": ping") and chunks without content on the
	// OpenAI wire, ping events and comments on Anthropic's. The status
	// line and headers are sent at once, even without text.
	KeepAlive bool `json:"keep_alive,omitempty"`
	// StreamError ends the stream, after the text and calls, with an
	// error event (OpenAI: a data line with "error"; Anthropic: an
	// "error" event) in place of the stream's end.
	StreamError *ErrorReply `json:"stream_error,omitempty"`
}

// Thoughts are a turn's pieces of thinking.
type Thoughts []string

// UnmarshalJSON takes a list of strings, or one string for one piece.
func (t *Thoughts) UnmarshalJSON(data []byte) error {
	var one string
	if json.Unmarshal(data, &one) == nil {
		*t = Thoughts{one}
		return nil
	}
	return json.Unmarshal(data, (*[]string)(t))
}

// When is a condition on a request, for scripts that serve concurrent
// conversations (a subagent beside its parent). Every field set must
// hold; text conditions are substrings.
type When struct {
	// System: the system prompt contains it.
	System string `json:"system,omitempty"`
	// Last: the last message's text, or its tool result's content,
	// contains it.
	Last string `json:"last,omitempty"`
	// Any: some message's text or tool result contains it.
	Any string `json:"any,omitempty"`
	// Model: the request's model is this one.
	Model string `json:"model,omitempty"`
	// Tool: the request offers a tool of this name.
	Tool string `json:"tool,omitempty"`
	// Wire: the request came in on this wire.
	Wire Wire `json:"wire,omitempty"`
}

// ToolCall is a call a turn makes.
type ToolCall struct {
	// ID is the call's ID; default call_N (OpenAI) or toolu_N
	// (Anthropic), N counting the server's calls from 1.
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Arguments is a JSON object; default {}.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// RawArguments, if set, is the argument text sent as it is, in place
	// of Arguments: it may be broken JSON.
	RawArguments string `json:"raw_arguments,omitempty"`
}

// Usage is what a turn reports it cost. Input counts the input tokens
// outside the cache: on the OpenAI wire prompt_tokens is
// Input+CacheRead+CacheWrite and cached_tokens is CacheRead; on the
// Anthropic wire they are input_tokens, cache_read_input_tokens and
// cache_creation_input_tokens.
type Usage struct {
	Input      int `json:"input,omitempty"`
	Output     int `json:"output,omitempty"`
	CacheRead  int `json:"cache_read,omitempty"`
	CacheWrite int `json:"cache_write,omitempty"`
}

// Quirks are the ways OpenAI-compatible servers (Ollama, llama.cpp, vLLM)
// stream differently from OpenAI. They apply to the OpenAI wire only.
type Quirks struct {
	// IndexZero sends every tool call with index 0 (their IDs differ).
	IndexZero bool `json:"index_zero,omitempty"`
	// WholeCalls sends each tool call in one chunk: ID, name and all its
	// arguments.
	WholeCalls bool `json:"whole_calls,omitempty"`
	// NoUsage sends no usage, even when the request asks for it.
	NoUsage bool `json:"no_usage,omitempty"`
	// ReasoningField streams the turn's thinking in "reasoning" (Ollama,
	// OpenRouter) instead of "reasoning_content" (DeepSeek, vLLM).
	ReasoningField string `json:"reasoning_field,omitempty"`
}

// ErrorReply is an error answer.
type ErrorReply struct {
	// Status is the HTTP status (for a StreamError, the status the error
	// stands for: it picks the default Type).
	Status int `json:"status"`
	// Message is the error's message in the wire's error JSON.
	Message string `json:"message,omitempty"`
	// Type is the error's type; default from Status
	// ("rate_limit_error", "overloaded_error"...).
	Type string `json:"type,omitempty"`
	// Body, if set, is sent as it is in place of the wire's error JSON.
	Body string `json:"body,omitempty"`
	// Headers are added to the answer (Retry-After, retry-after-ms...).
	Headers map[string]string `json:"headers,omitempty"`
}

// RawReply is a body sent as it is.
type RawReply struct {
	// Status defaults to 200.
	Status int `json:"status,omitempty"`
	// ContentType defaults to text/html.
	ContentType string `json:"content_type,omitempty"`
	Body        string `json:"body"`
}

// HangUp closes the connection after AfterBytes bytes of the turn's
// stream (0: before any byte, even the status line).
type HangUp struct {
	AfterBytes int `json:"after_bytes"`
}

// LoadScript reads a script from a JSON file (the package doc shows the
// format).
func LoadScript(path string) (Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Script{}, err
	}
	s, err := ParseScript(data)
	if err != nil {
		return Script{}, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// ParseScript reads a script from JSON. Unknown fields are errors, so
// that a misspelt field fails loudly instead of being ignored.
func ParseScript(data []byte) (Script, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Script
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("invalid script: %w", err)
	}
	if err := s.Validate(); err != nil {
		return Script{}, err
	}
	return s, nil
}

// Validate checks that every turn says one coherent thing.
func (s Script) Validate() error {
	var errs []error
	for i, t := range s.Turns {
		if err := t.validate(); err != nil {
			errs = append(errs, fmt.Errorf("turn %d: %w", i+1, err))
		}
	}
	return errors.Join(errs...)
}

func (t Turn) validate() error {
	n := 0
	for _, set := range []bool{t.Error != nil, t.Raw != nil, t.HangUp != nil, t.Stall, t.StreamError != nil, t.Endless != "", t.KeepAlive} {
		if set {
			n++
		}
	}
	if n > 1 {
		return errors.New("give at most one of error, raw, hang_up, stall, stream_error, endless, keep_alive")
	}
	if t.Endless != "" && !slices.Contains(endlessKinds, t.Endless) {
		return fmt.Errorf("endless %q: give text, arguments or thinking", t.Endless)
	}
	if (t.Error != nil || t.Raw != nil) && (t.Text != "" || len(t.Chunks) > 0 || len(t.ToolCalls) > 0) {
		return errors.New("an error or raw turn has no text or tool calls")
	}
	if t.Text != "" && len(t.Chunks) > 0 {
		return errors.New("give text or chunks, not both")
	}
	if t.Error != nil && t.Error.Status < 400 {
		return fmt.Errorf("error status %d is not an error", t.Error.Status)
	}
	if t.HangUp != nil && t.HangUp.AfterBytes < 0 {
		return errors.New("hang_up.after_bytes is negative")
	}
	for j, c := range t.ToolCalls {
		if c.Name == "" {
			return fmt.Errorf("tool call %d has no name", j+1)
		}
		if len(c.Arguments) > 0 && c.RawArguments != "" {
			return fmt.Errorf("tool call %d: give arguments or raw_arguments, not both", j+1)
		}
		if a := bytes.TrimSpace(c.Arguments); len(a) > 0 && (a[0] != '{' || !json.Valid(a)) {
			return fmt.Errorf("tool call %d: arguments must be a JSON object (raw_arguments may be anything)", j+1)
		}
	}
	return nil
}

// pieces is the turn's text as it streams: Chunks, or Text cut after the
// whitespace that follows each word.
func (t Turn) pieces() []string {
	if len(t.Chunks) > 0 {
		return t.Chunks
	}
	return splitWords(t.Text)
}

func splitWords(s string) []string {
	var out []string
	start, inSpace := 0, false
	for i, r := range s {
		space := r == ' ' || r == '\n' || r == '\t'
		if inSpace && !space {
			out = append(out, s[start:i])
			start = i
		}
		inSpace = space
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// argFragment is how many characters of a call's arguments one fragment
// carries: small, so that every call arrives in several.
const argFragment = 8

// splitArgs cuts argument text into fragments at character boundaries.
func splitArgs(s string) []string {
	var out []string
	for len(s) > 0 {
		n, i := 0, 0
		for i < len(s) && n < argFragment {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			n++
		}
		out = append(out, s[:i])
		s = s[i:]
	}
	return out
}

// arguments is the call's argument text.
func (c ToolCall) arguments() string {
	if c.RawArguments != "" {
		return c.RawArguments
	}
	if a := bytes.TrimSpace(c.Arguments); len(a) > 0 {
		return string(a)
	}
	return "{}"
}

func (u *Usage) orDefault() Usage {
	if u == nil {
		return Usage{Input: 10, Output: 5}
	}
	return *u
}

// accepts reports whether w holds for r.
func (w *When) accepts(r *Request) bool {
	if w == nil {
		return true
	}
	if w.System != "" && !strings.Contains(r.System, w.System) {
		return false
	}
	if w.Model != "" && r.Model != w.Model {
		return false
	}
	if w.Wire != "" && r.Wire != w.Wire {
		return false
	}
	if w.Tool != "" && !slices.Contains(r.ToolNames(), w.Tool) {
		return false
	}
	if w.Last != "" && (len(r.Messages) == 0 || !strings.Contains(messageText(r.Messages[len(r.Messages)-1]), w.Last)) {
		return false
	}
	if w.Any != "" {
		found := false
		for _, m := range r.Messages {
			if strings.Contains(messageText(m), w.Any) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
