package llmtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// Responses is OpenAI's Responses API: POST .../responses.
const Responses Wire = "responses"

// responsesBody is the part of a Responses request the server reads.
type responsesBody struct {
	Model        string            `json:"model"`
	Instructions string            `json:"instructions"`
	Input        []json.RawMessage `json:"input"`
	Tools        []struct {
		Type        string          `json:"type"`
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"tools"`
	Stream          bool     `json:"stream"`
	Store           *bool    `json:"store"`
	Include         []string `json:"include"`
	MaxOutputTokens int      `json:"max_output_tokens"`
	PromptCacheKey  string   `json:"prompt_cache_key"`
	Reasoning       *struct {
		Effort  string `json:"effort"`
		Summary string `json:"summary"`
	} `json:"reasoning"`
}

// responsesItem is one input item.
type responsesItem struct {
	Type    string          `json:"type"`
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	ID      string          `json:"id"`
	CallID  string          `json:"call_id"`
	Name    string          `json:"name"`
	// Arguments is the call's argument text; Output a result's.
	Arguments        *string `json:"arguments"`
	Output           json.RawMessage
	Summary          []struct{ Text string } `json:"summary"`
	EncryptedContent string                  `json:"encrypted_content"`
}

// Encrypted is the encrypted_content the server gives a reasoning item of
// this summary on the Responses wire, and checks when it comes back.
func Encrypted(summary string) string { return "enc:" + Signature(summary) }

// decodeResponses fills r from a Responses body and says why the real API
// would reject it.
func decodeResponses(r *Request, lenient bool) rejection {
	var body responsesBody
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return rejection("We could not parse the JSON body of your request: " + err.Error())
	}
	r.Model, r.Stream, r.System, r.MaxTokens = body.Model, body.Stream, body.Instructions, body.MaxOutputTokens
	r.CacheKey, r.Include = body.PromptCacheKey, body.Include
	r.Store = body.Store == nil || *body.Store
	if body.Reasoning != nil {
		r.Effort = body.Reasoning.Effort
	}
	r.ToolsField = hasField(r.Body, "tools")
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, llm.ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.Parameters})
	}
	for _, t := range body.Tools {
		r.cache = append(r.cache, jsonBlock(t, false))
	}
	r.cache = append(r.cache, cacheBlock{data: []byte(body.Instructions)})
	for _, it := range body.Input {
		r.cache = append(r.cache, cacheBlock{data: it})
	}
	why := responsesInput(r, body.Input)
	if lenient {
		return ""
	}
	switch {
	case body.Model == "":
		return "Missing required parameter: 'model'."
	case len(body.Input) == 0:
		return "Missing required parameter: 'input'."
	}
	for i, t := range body.Tools {
		if t.Type != "function" || !toolNameRE.MatchString(t.Name) {
			return rejection(fmt.Sprintf("Invalid 'tools[%d]': a function tool needs type \"function\" and a name matching %s", i, toolNameRE))
		}
	}
	return why
}

// responsesInput reads the input items into r.Messages, a reasoning item
// going with the assistant message after it, and says what the API
// refuses: an item it does not know, a call output that answers no call,
// a call left unanswered, a reasoning item that is not the server's own
// (or, with store off, that comes without its encrypted content).
func responsesInput(r *Request, items []json.RawMessage) rejection {
	var why rejection
	problem := func(format string, args ...any) {
		if why == "" {
			why = rejection(fmt.Sprintf(format, args...))
		}
	}
	var pending []string
	var reasoning []llm.Reasoning
	names := map[string]string{}
	assistant := func() *llm.Message {
		if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == llm.RoleAssistant {
			return &r.Messages[n-1]
		}
		r.Messages = append(r.Messages, llm.Message{Role: llm.RoleAssistant, Reasoning: reasoning})
		reasoning = nil
		return &r.Messages[len(r.Messages)-1]
	}
	for i, raw := range items {
		var it responsesItem
		if err := json.Unmarshal(raw, &it); err != nil {
			problem("Invalid 'input[%d]': %v", i, err)
			continue
		}
		if it.Type == "" && it.Role != "" {
			it.Type = "message"
		}
		if it.Type != "function_call_output" && len(pending) > 0 && it.Type != "function_call" {
			problem("No tool output found for function call %s.", pending[0])
		}
		switch it.Type {
		case "message":
			text, images := responsesContent(it.Content)
			if it.Role == "assistant" {
				a := assistant()
				a.Text += text
				continue
			}
			r.Messages = append(r.Messages, llm.Message{Role: llm.Role(it.Role), Text: text, Images: images})
		case "reasoning":
			summary := make([]string, len(it.Summary))
			for j, s := range it.Summary {
				summary[j] = s.Text
			}
			text := strings.Join(summary, "\n\n")
			switch {
			case it.EncryptedContent == "" && !r.Store:
				problem("Item with id '%s' not found. Items are not persisted when `store` is set to false. "+
					"Try again with `store` set to true, or remove this item from your input.", it.ID)
			case it.EncryptedContent != "" && it.EncryptedContent != Encrypted(text):
				problem("The encrypted content for item %s could not be verified.", it.ID)
			}
			reasoning = append(reasoning, llm.Reasoning{Provider: llm.ReasoningResponses, ID: it.ID, Text: text, Redacted: it.EncryptedContent})
		case "function_call":
			a := assistant()
			args := ""
			if it.Arguments != nil {
				args = *it.Arguments
			}
			a.ToolCalls = append(a.ToolCalls, llm.ToolCall{ID: it.CallID, Name: it.Name, Arguments: json.RawMessage(args)})
			names[it.CallID] = it.Name
			pending = append(pending, it.CallID)
		case "function_call_output":
			j := slices.Index(pending, it.CallID)
			if j < 0 {
				problem("No tool call found for function call output with call_id %s.", it.CallID)
			} else {
				pending = slices.Delete(pending, j, j+1)
			}
			var out string
			if json.Unmarshal(it.Output, &out) != nil {
				out, _ = responsesContent(it.Output)
			}
			r.Messages = append(r.Messages, llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: it.CallID, Name: names[it.CallID], Content: out}})
		default:
			problem("Invalid value: '%s'. Supported values are: 'message', 'reasoning', 'function_call' and 'function_call_output'.", it.Type)
		}
	}
	if len(pending) > 0 {
		problem("No tool output found for function call %s.", pending[0])
	}
	return why
}

// responsesContent is a message's content: a string, or input_text,
// output_text and input_image parts.
func responsesContent(raw json.RawMessage) (string, []llm.Image) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL string `json:"image_url"`
	}
	_ = json.Unmarshal(raw, &parts)
	var b strings.Builder
	var images []llm.Image
	for _, p := range parts {
		b.WriteString(p.Text)
		if p.Type == "input_image" {
			if im, ok := dataURL(p.ImageURL); ok {
				images = append(images, im)
			}
		}
	}
	return b.String(), images
}
