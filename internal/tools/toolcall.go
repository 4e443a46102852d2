package tools

import "encoding/json"

// ToolCall is one call a model asked for, as ExecuteCalls runs it.
// Arguments is a JSON object ({} when the model gave none). The providers
// parse their own formats (package llm and its SDKs), so nothing here
// parses model output.
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

// LocalServer is the only server_name a call may give: the tools are
// forge's own, there is no remote server to route to.
const LocalServer = "local"
