package tools

import "encoding/json"

// ToolCall is one call a model asked for, whatever syntax it used: seed 004's
// <tool>{...}</tool> block, an OpenAI tool_calls entry, an Anthropic tool_use.
type ToolCall struct {
	ID        string          `json:"id,omitempty"`
	Server    string          `json:"server_name,omitempty"`
	Name      string          `json:"tool_name"`
	Arguments json.RawMessage `json:"arguments"`
}

// CallResult is the outcome of one ToolCall in a batch.
type CallResult struct {
	Call         ToolCall `json:"call"`
	Result       Result   `json:"result"`
	LoopBreaking bool     `json:"loop_breaking"`
}
