package llmtest

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/forgehq/forge/internal/llm"
)

// Signature is the signature the server gives a thinking block of this
// text on the Anthropic wire, and checks when the block comes back: a
// client that changes the thinking, or its signature, is refused as the
// real API refuses it.
func Signature(thinking string) string {
	sum := sha256.Sum256([]byte("llmtest thinking\x00" + thinking))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// ThinkingConfig is a Messages request's thinking field.
type ThinkingConfig struct {
	// Type is "enabled", "adaptive" or "disabled".
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"`
	Display      string `json:"display,omitempty"`
}

// checkThinking notes what the API refuses of a request's thinking
// config: a budget under 1024 or not under max_tokens.
func (d *anthropicDecoder) checkThinking(t *ThinkingConfig, maxTokens *int) {
	if t == nil || t.Type != "enabled" {
		return
	}
	switch {
	case t.BudgetTokens < 1024:
		d.problem("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024")
	case maxTokens != nil && t.BudgetTokens >= *maxTokens:
		d.problem("`max_tokens` must be greater than `thinking.budget_tokens`")
	}
}

// thinkingBlock reads a thinking or redacted_thinking block of an
// assistant message, checking its signature.
func (d *anthropicDecoder) thinkingBlock(i, j int, b anthropicBlock) llm.Reasoning {
	if b.Type == "redacted_thinking" {
		if b.Data == "" {
			d.problem("messages.%d.content.%d.redacted_thinking.data: Field required", i, j)
		}
		return llm.Reasoning{Provider: llm.ReasoningAnthropic, Redacted: b.Data}
	}
	switch {
	case b.Thinking == nil:
		d.problem("messages.%d.content.%d.thinking.thinking: Field required", i, j)
	case b.Signature == "":
		d.problem("messages.%d.content.%d.thinking.signature: Field required", i, j)
	case b.Signature != Signature(*b.Thinking):
		d.problem("messages.%d.content.%d: Invalid `signature` in `thinking` block", i, j)
	}
	r := llm.Reasoning{Provider: llm.ReasoningAnthropic, Signature: b.Signature}
	if b.Thinking != nil {
		r.Text = *b.Thinking
	}
	return r
}

// checkThinkingTurn notes the API's refusal of a request with thinking on
// whose last assistant message, answered by tool results only, does not
// begin with thinking: a turn with thinking must carry it through its
// tool rounds.
func (d *anthropicDecoder) checkThinkingTurn(t *ThinkingConfig, body *anthropicBody) {
	if t == nil || t.Type == "disabled" || len(body.Messages) < 2 {
		return
	}
	last := len(body.Messages) - 1
	if body.Messages[last].Role != "user" || body.Messages[last-1].Role != "assistant" {
		return
	}
	blocks, err := anthropicBlocks(body.Messages[last-1].Content)
	if err != nil || len(blocks) == 0 {
		return
	}
	hasUse := false
	for _, b := range blocks {
		hasUse = hasUse || b.Type == "tool_use"
	}
	if hasUse && blocks[0].Type != "thinking" && blocks[0].Type != "redacted_thinking" {
		d.problem("messages.%d.content.0.type: Expected `thinking` or `redacted_thinking`, but found `%s`. "+
			"When `thinking` is enabled, a final `assistant` message must start with a thinking block "+
			"(preceeding the lastmost set of `tool_use` and `tool_result` blocks).", last-1, blocks[0].Type)
	}
}

// anthropicThinking streams the turn's thinking blocks from index: each
// a thinking block (thinking_delta pieces, then its signature_delta), then
// each redacted_thinking block whole. It returns the next index.
func anthropicThinking(b *sse, t Turn, index int) int {
	for _, text := range t.Thinking {
		b.event("content_block_start", obj{"type": "content_block_start", "index": index,
			"content_block": obj{"type": "thinking", "thinking": "", "signature": ""}})
		for _, p := range splitWords(text) {
			b.event("content_block_delta", obj{"type": "content_block_delta", "index": index,
				"delta": obj{"type": "thinking_delta", "thinking": p}})
		}
		b.event("content_block_delta", obj{"type": "content_block_delta", "index": index,
			"delta": obj{"type": "signature_delta", "signature": Signature(text)}})
		b.event("content_block_stop", obj{"type": "content_block_stop", "index": index})
		index++
	}
	for _, data := range t.RedactedThinking {
		b.event("content_block_start", obj{"type": "content_block_start", "index": index,
			"content_block": obj{"type": "redacted_thinking", "data": data}})
		b.event("content_block_stop", obj{"type": "content_block_stop", "index": index})
		index++
	}
	return index
}

// rawThinking is a request's thinking field, decoded when present.
func rawThinking(raw json.RawMessage) (*ThinkingConfig, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var t ThinkingConfig
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, fmt.Errorf("thinking: %w", err)
	}
	return &t, nil
}
