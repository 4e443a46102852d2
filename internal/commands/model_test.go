package commands

import (
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

// What a switch leaves out is said only of thinking the new provider
// cannot be sent, named by who made it.
func TestForeignThinking(t *testing.T) {
	claude := llm.Message{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningAnthropic, Text: "t", Signature: "s"}}}
	chat := llm.Message{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningChat, Text: "r", Field: "reasoning_content"}}}
	responses := llm.Message{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningResponses, Redacted: "enc"}}}
	plain := llm.Message{Role: llm.RoleUser, Text: "hi"}
	for _, tt := range []struct {
		name     string
		msgs     []llm.Message
		provider string
		want     string
	}{
		{"no thinking", []llm.Message{plain}, "openai", ""},
		{"Claude's to openai", []llm.Message{plain, claude}, "openai", "anthropic"},
		{"Claude's to ollama", []llm.Message{claude}, "ollama", "anthropic"},
		{"Claude's back to anthropic", []llm.Message{claude}, "anthropic", ""},
		{"a server's to anthropic", []llm.Message{chat}, "anthropic", "another provider"},
		{"Responses' to anthropic", []llm.Message{claude, responses}, "anthropic", "another provider"},
		{"a server's to openai", []llm.Message{chat, responses}, "openai", ""},
	} {
		if got := foreignThinking(tt.msgs, tt.provider); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// The list of known models gives each one's window and price.
func TestModelFacts(t *testing.T) {
	for _, tt := range []struct{ name, want string }{
		{"claude-sonnet-4-5", "200k window · $3 in, $15 out per million tokens"},
		{"gpt-5-nano", "400k window · $0.05 in, $0.4 out per million tokens"},
		{"gpt-4.1", "1M window · $2 in, $8 out per million tokens"},
		{"qwen3", ""},
	} {
		if got := modelFacts(tt.name); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
