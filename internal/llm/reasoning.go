package llm

import (
	"fmt"
	"strings"
)

// Effort is how hard a model that can reason should think before it
// answers. Each provider maps it onto its own control: Anthropic's
// extended thinking, OpenAI's reasoning effort.
type Effort string

// The efforts forge offers; "" is the model's default (Anthropic models
// then do not think at all).
const (
	EffortLow    Effort = "low"
	EffortMedium Effort = "medium"
	EffortHigh   Effort = "high"
)

// Efforts are the values ParseEffort takes, lowest first.
func Efforts() []string { return []string{"low", "medium", "high"} }

// ParseEffort reads an effort; "" and "off" (and "none") mean none.
func ParseEffort(s string) (Effort, error) {
	switch e := strings.ToLower(strings.TrimSpace(s)); e {
	case "", "off", "none":
		return "", nil
	case "low", "medium", "high":
		return Effort(e), nil
	}
	return "", fmt.Errorf("unknown effort %q: use low, medium, high or off", s)
}

// Reasoning is one piece of a model's thinking as its provider gave it:
// readable text, and the opaque data the provider needs back to continue
// from it.
type Reasoning struct {
	// Provider is the wire format it came from ("anthropic", "openai",
	// "openai-responses"): opaque data goes back only to the wire that
	// made it; another provider gets none of it.
	Provider string `json:"provider"`
	// Text is the thinking as it can be shown (OpenAI's Responses API
	// gives a summary); empty when the provider hid it.
	Text string `json:"text,omitempty"`
	// Signature is Anthropic's signature of a thinking block.
	Signature string `json:"signature,omitempty"`
	// Redacted is the encrypted data of Anthropic's redacted_thinking
	// block, or of OpenAI's reasoning item (encrypted_content).
	Redacted string `json:"redacted,omitempty"`
	// ID is a reasoning item's ID (OpenAI's Responses API).
	ID string `json:"id,omitempty"`
	// Field is the message field a Chat Completions server streamed it
	// in (reasoning_content, or reasoning), which it goes back in.
	Field string `json:"field,omitempty"`
}

// The Reasoning.Provider of each wire.
const (
	ReasoningAnthropic = "anthropic"
	// ReasoningChat is the reasoning_content (or reasoning) text of an
	// OpenAI-compatible Chat Completions server.
	ReasoningChat = "chat"
	// ReasoningResponses is a reasoning item of OpenAI's Responses API.
	ReasoningResponses = "openai-responses"
)

// ReasoningText is the readable thinking of rs, pieces on lines of their own.
func ReasoningText(rs []Reasoning) string {
	var b strings.Builder
	for _, r := range rs {
		if r.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(r.Text)
	}
	return b.String()
}
