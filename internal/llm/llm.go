// Package llm is forge's seam to language models. A Model streams one
// assistant turn for a Request; the providers (llm/openai, which also
// reaches Ollama and every OpenAI-compatible server, and llm/anthropic)
// translate to and from their wire formats. Nothing here prints or knows
// about the agent loop: the loop builds Requests and reads Responses.
package llm

import (
	"context"
	"encoding/json"
)

// Role says who wrote a message.
type Role string

// The roles of a conversation. The system prompt is not a message: it is
// Request.System, since providers place it differently.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool carries the result of one tool call (Message.Result).
	RoleTool Role = "tool"
)

// Message is one message of a conversation, in a form every provider can
// be given: a user's text, an assistant's text and tool calls, or one tool
// result.
type Message struct {
	Role Role `json:"role"`
	// Text is the message's text; an assistant message that only calls
	// tools may have none.
	Text string `json:"text,omitempty"`
	// Reasoning is the thinking an assistant message came with, in the
	// order the model gave it, ahead of its text and calls. Providers
	// that sign or encrypt it must get it back unchanged with the turn it
	// belongs to, so it is kept in the conversation and its log.
	Reasoning []Reasoning `json:"reasoning,omitempty"`
	// Images are pictures a user message shows the model.
	Images []Image `json:"images,omitempty"`
	// ToolCalls are the calls an assistant message makes, in its order.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Result is set on RoleTool messages.
	Result *ToolResult `json:"result,omitempty"`
}

// ToolCall is one call a model asked for.
type ToolCall struct {
	// ID matches the call to its result. Providers that give none (text
	// tool calls) get one made up by the caller.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments are exactly what the model sent. They may be invalid JSON
	// or not an object: the agent answers such a call with an error
	// result instead of running it, so the model can correct itself.
	Arguments json.RawMessage `json:"arguments"`
}

// ToolResult answers one ToolCall.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Name    string `json:"name"`
	Content string `json:"content"`
	// IsError marks a failed, denied, cancelled or invalid call, for the
	// providers that tell the model so (Anthropic's is_error).
	IsError bool `json:"is_error,omitempty"`
	// Images are pictures the call returned (a screenshot read, an MCP
	// tool's image), after Content.
	Images []Image `json:"images,omitempty"`
}

// ToolSpec is a tool as a model is told about it: its name, description
// and the JSON Schema of its arguments (an object schema).
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// Request is one model request: the whole conversation so far.
type Request struct {
	// Model is the provider's model name; empty means the Model's default.
	Model    string
	System   string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens bounds the answer; 0 means the provider's default.
	MaxTokens int
	// Effort asks a model that can reason before it answers to do so,
	// this hard; "" leaves the model's own default.
	Effort Effort
	// CacheKey groups requests that share a prefix (a session's ID), for
	// the providers that route by it to their prompt cache.
	CacheKey string
}

// StopReason says why a model ended its turn.
type StopReason string

// The stop reasons forge distinguishes; providers map theirs onto these.
const (
	StopEnd       StopReason = "end_turn"   // the model finished
	StopToolUse   StopReason = "tool_use"   // the model wants its tool calls run
	StopMaxTokens StopReason = "max_tokens" // the answer was cut at MaxTokens
	StopOther     StopReason = "other"      // anything else (content filter, ...)
)

// Usage is what one request cost in tokens, as the provider reported it.
type Usage struct {
	// InputTokens counts every input token, cached ones included.
	InputTokens int64 `json:"input_tokens"`
	// OutputTokens counts the answer's tokens.
	OutputTokens int64 `json:"output_tokens"`
	// CacheReadTokens is the part of InputTokens read from the provider's
	// prompt cache (priced lower).
	CacheReadTokens int64 `json:"cache_read_tokens,omitempty"`
	// CacheWriteTokens is the part of InputTokens written to the cache.
	CacheWriteTokens int64 `json:"cache_write_tokens,omitempty"`
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:      u.InputTokens + v.InputTokens,
		OutputTokens:     u.OutputTokens + v.OutputTokens,
		CacheReadTokens:  u.CacheReadTokens + v.CacheReadTokens,
		CacheWriteTokens: u.CacheWriteTokens + v.CacheWriteTokens,
	}
}

// Response is one assistant turn, assembled from the stream.
type Response struct {
	// Message is the assistant's message: its whole text and its tool
	// calls, in order, with their arguments complete.
	Message Message
	Stop    StopReason
	Usage   Usage
	// Model is the model that answered, as the provider named it.
	Model string
}

// Delta is a piece of a turn as it streams in, for showing progress.
type Delta struct {
	// Text is the next piece of the assistant's text.
	Text string
	// Thinking is the next piece of the model's thinking, shown apart
	// from its answer and never part of Text.
	Thinking string
	// ToolName is set once when the model starts a tool call, before its
	// arguments have arrived.
	ToolName string
}

// Model is a language model behind some provider.
type Model interface {
	// Stream sends req and calls onDelta (from the calling goroutine) for
	// each piece of the answer as it arrives, then returns the whole turn.
	// Errors are *Error when the provider answered with one; a cancelled
	// ctx gives an error that wraps ctx.Err().
	Stream(ctx context.Context, req Request, onDelta func(Delta)) (Response, error)
}
