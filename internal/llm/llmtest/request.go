package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"

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

	// Turn is the index in Script.Turns of the turn that answered; -1
	// when none did (rejected, unscripted, a model list).
	Turn int
	// Rejected says why the request was answered with 400, as the real
	// API would have: "" when it was not.
	Rejected string
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

// rejection is a request the real API would answer with 400.
type rejection string

// decodeOpenAI fills r from a Chat Completions body; the string is why
// the real API would reject it, "" when it would not.
func decodeOpenAI(r *Request, lenient bool) rejection {
	var body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string          `json:"name"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Tools []struct {
			Type     string `json:"type"`
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		ToolChoice    json.RawMessage `json:"tool_choice"`
		Stream        bool            `json:"stream"`
		StreamOptions *struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
		MaxTokens           int `json:"max_tokens"`
		MaxCompletionTokens int `json:"max_completion_tokens"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return rejection("We could not parse the JSON body of your request: " + err.Error())
	}
	r.Model, r.Stream = body.Model, body.Stream
	r.MaxTokens = max(body.MaxTokens, body.MaxCompletionTokens)
	r.IncludeUsage = body.StreamOptions != nil && body.StreamOptions.IncludeUsage
	r.ToolsField = hasField(r.Body, "tools")
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, llm.ToolSpec{Name: t.Function.Name, Description: t.Function.Description, InputSchema: t.Function.Parameters})
	}
	names := map[string]string{} // call ID → tool name
	var systems []string
	for _, m := range body.Messages {
		text := openAIText(m.Content)
		switch m.Role {
		case "system", "developer":
			systems = append(systems, text)
		case "tool":
			r.Messages = append(r.Messages, llm.Message{Role: llm.RoleTool,
				Result: &llm.ToolResult{CallID: m.ToolCallID, Name: names[m.ToolCallID], Content: text}})
		default:
			msg := llm.Message{Role: llm.Role(m.Role), Text: text}
			for _, c := range m.ToolCalls {
				args := c.Function.Arguments
				var s string
				if json.Unmarshal(args, &s) == nil {
					args = json.RawMessage(s)
				}
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
				names[c.ID] = c.Function.Name
			}
			r.Messages = append(r.Messages, msg)
		}
	}
	r.System = strings.Join(systems, "\n\n")
	if lenient {
		return ""
	}

	switch {
	case body.Model == "":
		return "you must provide a model parameter"
	case len(body.Messages) == 0:
		return "[] is too short - 'messages'"
	case r.ToolsField && len(body.Tools) == 0:
		return "[] is too short - 'tools'"
	case len(body.ToolChoice) > 0 && len(body.Tools) == 0:
		return "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified."
	}
	for i, t := range body.Tools {
		if t.Type != "function" || !toolNameRE.MatchString(t.Function.Name) {
			return rejection(fmt.Sprintf("Invalid 'tools[%d]': a function tool needs type \"function\" and a name matching %s", i, toolNameRE))
		}
		if p := bytes.TrimSpace(t.Function.Parameters); len(p) > 0 && p[0] != '{' {
			return rejection(fmt.Sprintf("Invalid 'tools[%d].function.parameters': expected an object.", i))
		}
	}
	// Every assistant tool call is answered by a tool message before the
	// next other message; every tool message answers such a call.
	var pending []string
	for i, m := range body.Messages {
		if m.Role == "tool" {
			j := slices.Index(pending, m.ToolCallID)
			if j < 0 {
				return rejection(fmt.Sprintf("Invalid parameter: messages.[%d]: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", i))
			}
			pending = append(pending[:j], pending[j+1:]...)
			continue
		}
		if len(pending) > 0 {
			return rejection("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: " + strings.Join(pending, ", "))
		}
		for j, c := range m.ToolCalls {
			var s string
			if json.Unmarshal(c.Function.Arguments, &s) != nil {
				return rejection(fmt.Sprintf("Invalid type for 'messages[%d].tool_calls[%d].function.arguments': expected a string.", i, j))
			}
			pending = append(pending, c.ID)
		}
	}
	if len(pending) > 0 {
		return rejection("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: " + strings.Join(pending, ", "))
	}
	return ""
}

var toolNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// openAIText is a message's content: a string, or text parts joined.
func openAIText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// hasField reports whether a JSON object has the top-level field name.
func hasField(body []byte, name string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return false
	}
	_, ok := m[name]
	return ok
}

type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// anthropicBlocks is a content that is a string or a list of blocks.
func anthropicBlocks(raw json.RawMessage) ([]anthropicBlock, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []anthropicBlock{{Type: "text", Text: &s}}, nil
	}
	var blocks []anthropicBlock
	err := json.Unmarshal(raw, &blocks)
	return blocks, err
}

// blocksText joins the text of text blocks.
func blocksText(blocks []anthropicBlock) string {
	var b strings.Builder
	for _, bl := range blocks {
		if bl.Type == "text" && bl.Text != nil {
			b.WriteString(*bl.Text)
		}
	}
	return b.String()
}

// decodeAnthropic fills r from a Messages body; the string is why the
// real API would reject it, "" when it would not.
func decodeAnthropic(r *Request, lenient bool) rejection {
	var body struct {
		Model     string          `json:"model"`
		MaxTokens *int            `json:"max_tokens"`
		System    json.RawMessage `json:"system"`
		Messages  []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		} `json:"tools"`
		Stream bool `json:"stream"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return rejection("invalid JSON body: " + err.Error())
	}
	r.Model, r.Stream = body.Model, body.Stream
	if body.MaxTokens != nil {
		r.MaxTokens = *body.MaxTokens
	}
	r.ToolsField = hasField(r.Body, "tools")
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, llm.ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	var problems []string
	problem := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if len(body.System) > 0 {
		blocks, err := anthropicBlocks(body.System)
		if err != nil {
			problem("system: Input should be a valid string or list of text blocks")
		}
		var texts []string
		for _, b := range blocks {
			if b.Text != nil {
				texts = append(texts, *b.Text)
			}
			if b.Type != "text" || b.Text == nil || *b.Text == "" {
				problem("system: text content blocks must be non-empty")
			}
		}
		r.System = strings.Join(texts, "\n\n")
	}
	names := map[string]string{}
	var lastUses []string // tool_use IDs of the previous assistant message
	for i, m := range body.Messages {
		blocks, err := anthropicBlocks(m.Content)
		if err != nil {
			problem("messages.%d.content: Input should be a valid string or list of blocks", i)
			continue
		}
		if i > 0 && m.Role == body.Messages[i-1].Role {
			problem("messages: roles must alternate between \"user\" and \"assistant\", but found multiple %q roles in a row", m.Role)
		}
		if len(blocks) == 0 {
			problem("messages.%d: all messages must have non-empty content", i)
		}
		switch m.Role {
		case "assistant":
			msg := llm.Message{Role: llm.RoleAssistant, Text: blocksText(blocks)}
			var uses []string
			for j, b := range blocks {
				switch b.Type {
				case "text":
					if b.Text == nil || *b.Text == "" {
						problem("messages.%d.content.%d: text content blocks must be non-empty", i, j)
					}
				case "tool_use":
					if t := bytes.TrimSpace(b.Input); len(t) == 0 || t[0] != '{' {
						problem("messages.%d.content.%d.tool_use.input: Input should be a valid dictionary", i, j)
					}
					msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
					names[b.ID] = b.Name
					uses = append(uses, b.ID)
				}
			}
			r.Messages = append(r.Messages, msg)
			if len(lastUses) > 0 {
				problem("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, strings.Join(lastUses, ", "))
			}
			lastUses = uses
		case "user":
			answered := map[string]bool{}
			seenText := false
			for j, b := range blocks {
				switch b.Type {
				case "tool_result":
					if seenText {
						problem("messages.%d.content.%d: tool_result blocks must come first in a user message, before any text", i, j)
					}
					if slices.Index(lastUses, b.ToolUseID) < 0 {
						problem("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
					}
					answered[b.ToolUseID] = true
					content, err := anthropicBlocks(b.Content)
					if err != nil && len(b.Content) > 0 {
						problem("messages.%d.content.%d.content: Input should be a valid string or list of blocks", i, j)
					}
					r.Messages = append(r.Messages, llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{
						CallID: b.ToolUseID, Name: names[b.ToolUseID], Content: blocksText(content), IsError: b.IsError}})
				case "text":
					seenText = true
					if b.Text == nil || *b.Text == "" {
						problem("messages.%d.content.%d: text content blocks must be non-empty", i, j)
					}
					r.Messages = append(r.Messages, llm.Message{Role: llm.RoleUser, Text: *b.Text})
				default:
					seenText = true
				}
			}
			var missing []string
			for _, id := range lastUses {
				if !answered[id] {
					missing = append(missing, id)
				}
			}
			if len(missing) > 0 {
				problem("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i-1, strings.Join(missing, ", "))
			}
			lastUses = nil
		default:
			problem("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
	}
	if lenient {
		return ""
	}
	switch {
	case body.Model == "":
		return "model: Field required"
	case body.MaxTokens == nil:
		return "max_tokens: Field required"
	case *body.MaxTokens < 1:
		return "max_tokens: Input should be greater than or equal to 1"
	case len(body.Messages) == 0:
		return "messages: at least one message is required"
	case body.Messages[0].Role != "user":
		return "messages: the first message must use the \"user\" role"
	case r.ToolsField && len(body.Tools) == 0:
		return "tools: List should have at least 1 item"
	}
	if len(lastUses) > 0 {
		problem("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", len(body.Messages)-1, strings.Join(lastUses, ", "))
	}
	for i, t := range body.Tools {
		if !toolNameRE.MatchString(t.Name) {
			problem("tools.%d.custom.name: String should match pattern '%s'", i, toolNameRE)
		}
		var schema struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(t.InputSchema, &schema) != nil || schema.Type != "object" {
			problem("tools.%d.custom.input_schema.type: Input should be 'object'", i)
		}
	}
	if len(problems) > 0 {
		return rejection(problems[0])
	}
	return ""
}
