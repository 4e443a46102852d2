package llmtest

import (
	"encoding/json"
	"net/http"
	"regexp"

	"github.com/forgehq/forge/internal/llm"
)

// Wire is a provider's wire format.
type Wire string

// The wires a Server speaks; it tells them by the request's path.
const (
	// OpenAI is Chat Completions: POST .../chat/completions.
	OpenAI Wire = "openai"
	// Anthropic is Messages: POST .../v1/messages.
	Anthropic Wire = "anthropic"
)

// Request is one request a Server received, decoded into a
// provider-neutral view for assertions, with its raw body.
type Request struct {
	// N counts the server's requests from 1, in the order they came.
	N      int
	Wire   Wire
	Method string
	Path   string
	Header http.Header
	// Body is the raw request body.
	Body []byte

	Model string
	// System is the system prompt: OpenAI's system (and developer)
	// messages, Anthropic's system blocks, joined by blank lines.
	System string
	// Messages is the conversation in forge's terms: a tool result is a
	// RoleTool message with its call's ID, its tool's name when the
	// conversation names it and its error flag (Anthropic's is_error;
	// OpenAI has none).
	Messages []llm.Message
	// Tools are the tools offered, in order.
	Tools []llm.ToolSpec
	// ToolsField reports whether the body has a "tools" field at all.
	ToolsField bool
	// MaxTokens is max_tokens (or max_completion_tokens); 0 when absent.
	MaxTokens int
	Stream    bool
	// IncludeUsage is OpenAI's stream_options.include_usage.
	IncludeUsage bool
	// Thinking is an Anthropic request's thinking config; nil when it
	// has none.
	Thinking *ThinkingConfig
	// Effort is the reasoning effort asked: Anthropic's
	// output_config.effort, OpenAI's reasoning_effort (reasoning.effort on
	// the Responses API).
	Effort string
	// CacheKey is a Responses request's prompt_cache_key; Include its
	// include list; Store its store (true unless false is sent).
	CacheKey string
	Include  []string
	Store    bool

	// Turn is the index in Script.Turns of the turn that answered; -1
	// when none did (rejected, unscripted, a model list).
	Turn int
	// Rejected says why the request was answered with 400, as the real
	// API would have: "" when it was not.
	Rejected string

	// cache is the prompt as a provider's cache sees it.
	cache []cacheBlock
}

// ToolNames are the names of the tools offered.
func (r *Request) ToolNames() []string {
	names := make([]string, len(r.Tools))
	for i, t := range r.Tools {
		names[i] = t.Name
	}
	return names
}

// Results are the tool results of the conversation, in order.
func (r *Request) Results() []llm.ToolResult {
	var out []llm.ToolResult
	for _, m := range r.Messages {
		if m.Result != nil {
			out = append(out, *m.Result)
		}
	}
	return out
}

// messageText is what a message says: its text or its result's content.
func messageText(m llm.Message) string {
	if m.Result != nil {
		return m.Result.Content
	}
	return m.Text
}

// rejection is why the real API would answer a request with 400.
type rejection string

// hasField reports whether a JSON object has the top-level field name.
func hasField(body []byte, name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	_, ok := m[name]
	return ok
}

// toolNameRE is what both APIs accept as a tool's name.
var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
