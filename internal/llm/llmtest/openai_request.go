package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// openAIBody is the part of a Chat Completions request the server reads.
type openAIBody struct {
	Model    string          `json:"model"`
	Messages []openAIMessage `json:"messages"`
	Tools    []struct {
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
	MaxTokens           int    `json:"max_tokens"`
	MaxCompletionTokens int    `json:"max_completion_tokens"`
	ReasoningEffort     string `json:"reasoning_effort"`
}

type openAIMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	// The thinking a compatible server's assistant message carries back.
	ReasoningContent *string `json:"reasoning_content"`
	Reasoning        *string `json:"reasoning"`
	ToolCalls        []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// decodeOpenAI fills r from a Chat Completions body and says why the real
// API would reject it, "" when it would not (or when lenient).
func decodeOpenAI(r *Request, lenient bool) rejection {
	var body openAIBody
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return rejection("We could not parse the JSON body of your request: " + err.Error())
	}
	r.Model, r.Stream = body.Model, body.Stream
	r.MaxTokens = max(body.MaxTokens, body.MaxCompletionTokens)
	r.IncludeUsage = body.StreamOptions != nil && body.StreamOptions.IncludeUsage
	r.Effort = body.ReasoningEffort
	r.ToolsField = hasField(r.Body, "tools")
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, llm.ToolSpec{Name: t.Function.Name, Description: t.Function.Description, InputSchema: t.Function.Parameters})
	}
	r.System, r.Messages = openAIConversation(body.Messages)
	for _, t := range body.Tools {
		r.cache = append(r.cache, jsonBlock(t, false))
	}
	for _, m := range body.Messages {
		r.cache = append(r.cache, jsonBlock(m, false))
	}
	if lenient {
		return ""
	}
	if why := checkOpenAITop(&body, r.ToolsField); why != "" {
		return why
	}
	if why := checkOpenAIContent(body.Messages); why != "" {
		return why
	}
	return checkOpenAICalls(body.Messages)
}

// openAIConversation is the system prompt and the messages in forge's
// terms.
func openAIConversation(msgs []openAIMessage) (string, []llm.Message) {
	var (
		out     []llm.Message
		systems []string
		names   = map[string]string{} // call ID → tool name
	)
	for _, m := range msgs {
		text := openAIText(m.Content)
		switch m.Role {
		case "system", "developer":
			systems = append(systems, text)
		case "tool":
			out = append(out, llm.Message{Role: llm.RoleTool,
				Result: &llm.ToolResult{CallID: m.ToolCallID, Name: names[m.ToolCallID], Content: text}})
		default:
			msg := llm.Message{Role: llm.Role(m.Role), Text: text, Images: openAIImages(m.Content)}
			switch {
			case m.ReasoningContent != nil:
				msg.Reasoning = []llm.Reasoning{{Provider: llm.ReasoningChat, Text: *m.ReasoningContent, Field: "reasoning_content"}}
			case m.Reasoning != nil:
				msg.Reasoning = []llm.Reasoning{{Provider: llm.ReasoningChat, Text: *m.Reasoning, Field: "reasoning"}}
			}
			for _, c := range m.ToolCalls {
				args := c.Function.Arguments
				var s string
				if json.Unmarshal(args, &s) == nil {
					args = json.RawMessage(s)
				}
				msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
				names[c.ID] = c.Function.Name
			}
			out = append(out, msg)
		}
	}
	return strings.Join(systems, "\n\n"), out
}

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

// checkOpenAITop checks the model, the messages and the tools as OpenAI
// does.
func checkOpenAITop(body *openAIBody, toolsField bool) rejection {
	switch {
	case body.Model == "":
		return "you must provide a model parameter"
	case len(body.Messages) == 0:
		return "[] is too short - 'messages'"
	case toolsField && len(body.Tools) == 0:
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
	return ""
}

// checkOpenAICalls checks that every assistant tool call is answered by a
// tool message before the next other message, and that every tool
// message answers such a call.
func checkOpenAICalls(msgs []openAIMessage) rejection {
	var pending []string
	unanswered := func() rejection {
		return rejection("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
			"The following tool_call_ids did not have response messages: " + strings.Join(pending, ", "))
	}
	for i, m := range msgs {
		if m.Role == "tool" {
			j := slices.Index(pending, m.ToolCallID)
			if j < 0 {
				return rejection(fmt.Sprintf("Invalid parameter: messages.[%d]: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", i))
			}
			pending = slices.Delete(pending, j, j+1)
			continue
		}
		if len(pending) > 0 {
			return unanswered()
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
		return unanswered()
	}
	return ""
}
