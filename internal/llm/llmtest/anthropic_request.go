package llmtest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// anthropicBody is the part of a Messages request the server reads.
type anthropicBody struct {
	Model     string          `json:"model"`
	MaxTokens *int            `json:"max_tokens"`
	System    json.RawMessage `json:"system"`
	Messages  []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"input_schema"`
		CacheControl json.RawMessage `json:"cache_control,omitempty"`
	} `json:"tools"`
	Stream   bool            `json:"stream"`
	Thinking json.RawMessage `json:"thinking"`
	// OutputConfig carries adaptive thinking's effort.
	OutputConfig *struct {
		Effort string `json:"effort"`
	} `json:"output_config"`
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
	Thinking  *string         `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	Source    *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
	} `json:"source"`
	CacheControl json.RawMessage `json:"cache_control,omitempty"`
}

// anthropicCache is the request as the prompt cache sees it: tools, the
// system prompt's blocks, the messages' blocks, each a breakpoint when it
// carries cache_control.
func anthropicCache(body *anthropicBody) []cacheBlock {
	var out []cacheBlock
	for _, t := range body.Tools {
		bp := len(t.CacheControl) > 0
		t.CacheControl = nil
		out = append(out, jsonBlock(t, bp))
	}
	add := func(raw json.RawMessage) {
		blocks, _ := anthropicBlocks(raw)
		for _, b := range blocks {
			bp := len(b.CacheControl) > 0
			b.CacheControl = nil
			out = append(out, jsonBlock(b, bp))
		}
	}
	if len(body.System) > 0 {
		add(body.System)
	}
	for _, m := range body.Messages {
		add(m.Content)
	}
	return out
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

// anthropicDecoder reads a conversation into forge's terms and notes
// what the real API would reject, the first problem first.
type anthropicDecoder struct {
	r        *Request
	names    map[string]string // tool_use ID → tool name
	lastUses []string          // tool_use IDs of the previous assistant message
	problems []string
}

func (d *anthropicDecoder) problem(format string, args ...any) {
	d.problems = append(d.problems, fmt.Sprintf(format, args...))
}

// decodeAnthropic fills r from a Messages body and says why the real API
// would reject it, "" when it would not (or when lenient).
func decodeAnthropic(r *Request, lenient bool) rejection {
	var body anthropicBody
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
	r.cache = anthropicCache(&body)
	d := &anthropicDecoder{r: r, names: map[string]string{}}
	thinking, err := rawThinking(body.Thinking)
	if err != nil {
		d.problem("%v", err)
	}
	r.Thinking = thinking
	if body.OutputConfig != nil {
		r.Effort = body.OutputConfig.Effort
	}
	d.checkThinking(thinking, body.MaxTokens)
	d.system(body.System)
	for i, m := range body.Messages {
		blocks, err := anthropicBlocks(m.Content)
		switch {
		case err != nil:
			d.problem("messages.%d.content: Input should be a valid string or list of blocks", i)
			continue
		case i > 0 && m.Role == body.Messages[i-1].Role:
			d.problem("messages: roles must alternate between \"user\" and \"assistant\", but found multiple %q roles in a row", m.Role)
		case len(blocks) == 0:
			d.problem("messages.%d: all messages must have non-empty content", i)
		}
		switch m.Role {
		case "assistant":
			d.assistant(i, blocks)
		case "user":
			d.user(i, blocks)
		default:
			d.problem("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
	}
	if lenient {
		return ""
	}
	if why := checkAnthropicTop(&body, r.ToolsField); why != "" {
		return why
	}
	d.unanswered(len(body.Messages)-1, d.lastUses)
	d.checkThinkingTurn(thinking, &body)
	d.tools(&body)
	if len(d.problems) > 0 {
		return rejection(d.problems[0])
	}
	return ""
}

// system reads the system prompt: a string or text blocks.
func (d *anthropicDecoder) system(raw json.RawMessage) {
	if len(raw) == 0 {
		return
	}
	blocks, err := anthropicBlocks(raw)
	if err != nil {
		d.problem("system: Input should be a valid string or list of text blocks")
	}
	var texts []string
	for _, b := range blocks {
		if b.Text != nil {
			texts = append(texts, *b.Text)
		}
		if b.Type != "text" || b.Text == nil || *b.Text == "" {
			d.problem("system: text content blocks must be non-empty")
		}
	}
	d.r.System = strings.Join(texts, "\n\n")
}

// assistant reads message i: text and tool_use blocks.
func (d *anthropicDecoder) assistant(i int, blocks []anthropicBlock) {
	msg := llm.Message{Role: llm.RoleAssistant, Text: blocksText(blocks)}
	var uses []string
	for j, b := range blocks {
		switch b.Type {
		case "text":
			if b.Text == nil || *b.Text == "" {
				d.problem("messages.%d.content.%d: text content blocks must be non-empty", i, j)
			}
		case "thinking", "redacted_thinking":
			if slices.ContainsFunc(blocks[:j], func(b anthropicBlock) bool { return b.Type == "text" || b.Type == "tool_use" }) {
				d.problem("messages.%d.content.%d: thinking blocks must come before text and tool_use blocks", i, j)
			}
			msg.Reasoning = append(msg.Reasoning, d.thinkingBlock(i, j, b))
		case "tool_use":
			if t := bytes.TrimSpace(b.Input); len(t) == 0 || t[0] != '{' {
				d.problem("messages.%d.content.%d.tool_use.input: Input should be a valid dictionary", i, j)
			}
			msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: b.ID, Name: b.Name, Arguments: b.Input})
			d.names[b.ID] = b.Name
			uses = append(uses, b.ID)
		}
	}
	d.r.Messages = append(d.r.Messages, msg)
	d.unanswered(i-1, d.lastUses)
	d.lastUses = uses
}

// user reads message i: tool_result blocks first, then text.
func (d *anthropicDecoder) user(i int, blocks []anthropicBlock) {
	answered := map[string]bool{}
	seenText := false
	for j, b := range blocks {
		switch b.Type {
		case "tool_result":
			if seenText {
				d.problem("messages.%d.content.%d: tool_result blocks must come first in a user message, before any text", i, j)
			}
			if !slices.Contains(d.lastUses, b.ToolUseID) {
				d.problem("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. "+
					"Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
			}
			answered[b.ToolUseID] = true
			content, err := anthropicBlocks(b.Content)
			if err != nil && len(b.Content) > 0 {
				d.problem("messages.%d.content.%d.content: Input should be a valid string or list of blocks", i, j)
			}
			d.r.Messages = append(d.r.Messages, llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{
				CallID: b.ToolUseID, Name: d.names[b.ToolUseID], Content: blocksText(content), IsError: b.IsError,
				Images: d.images(i, j, content)}})
		case "text":
			seenText = true
			if b.Text == nil || *b.Text == "" {
				d.problem("messages.%d.content.%d: text content blocks must be non-empty", i, j)
				continue
			}
			d.r.Messages = append(d.r.Messages, llm.Message{Role: llm.RoleUser, Text: *b.Text})
		case "image":
			seenText = true
			d.r.Messages = append(d.r.Messages, llm.Message{Role: llm.RoleUser, Images: d.images(i, j, blocks[j:j+1])})
		default:
			seenText = true
		}
	}
	var missing []string
	for _, id := range d.lastUses {
		if !answered[id] {
			missing = append(missing, id)
		}
	}
	d.unanswered(i-1, missing)
	d.lastUses = nil
}

// unanswered notes tool_use IDs of message i that no tool_result answers.
func (d *anthropicDecoder) unanswered(i int, ids []string) {
	if len(ids) > 0 {
		d.problem("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. "+
			"Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, strings.Join(ids, ", "))
	}
}

// tools notes tools the API would reject.
func (d *anthropicDecoder) tools(body *anthropicBody) {
	for i, t := range body.Tools {
		if !toolNameRE.MatchString(t.Name) {
			d.problem("tools.%d.custom.name: String should match pattern '%s'", i, toolNameRE)
		}
		var schema struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(t.InputSchema, &schema) != nil || schema.Type != "object" {
			d.problem("tools.%d.custom.input_schema.type: Input should be 'object'", i)
		}
	}
}

// checkAnthropicTop checks the model, max_tokens, the first message and
// the tools list as the API does.
func checkAnthropicTop(body *anthropicBody, toolsField bool) rejection {
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
	case toolsField && len(body.Tools) == 0:
		return "tools: List should have at least 1 item"
	}
	return ""
}

// images reads the image blocks among blocks (of message i's block j),
// noting what the API refuses: a source that is not base64 data of a
// PNG, JPEG, GIF or WebP image.
func (d *anthropicDecoder) images(i, j int, blocks []anthropicBlock) []llm.Image {
	var out []llm.Image
	for _, b := range blocks {
		if b.Type != "image" {
			continue
		}
		if b.Source == nil || b.Source.Type != "base64" || !imageType(b.Source.MediaType) {
			d.problem("messages.%d.content.%d: image source must be base64 data of image/jpeg, image/png, image/gif or image/webp", i, j)
			continue
		}
		data, err := base64.StdEncoding.DecodeString(b.Source.Data)
		if err != nil {
			d.problem("messages.%d.content.%d: image source data is not valid base64", i, j)
			continue
		}
		out = append(out, llm.Image{MediaType: b.Source.MediaType, Data: data})
	}
	return out
}
