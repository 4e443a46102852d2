package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/forgehq/forge/internal/llm"
)

// params is req as a Messages request. Prompt-cache breakpoints go on the
// last tool, the system prompt and the conversation's last block: the
// API caches the prefix up to each, so every turn of a conversation reads
// tools, system prompt and history from the cache instead of paying for
// them again.
func (m *Model) params(req llm.Request) (anthropic.MessageNewParams, error) {
	model := req.Model
	if model == "" {
		model = m.cfg.Model
	}
	if model == "" {
		return anthropic.MessageNewParams{}, m.requestError("no model: give one with --model")
	}
	maxTokens := int64(req.MaxTokens)
	if maxTokens <= 0 {
		maxTokens = DefaultMaxTokens
	}
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(model),
		MaxTokens: maxTokens,
		Messages:  messages(req.Messages),
	}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	for i, spec := range req.Tools {
		schema, err := inputSchema(spec.InputSchema)
		if err != nil {
			return anthropic.MessageNewParams{}, m.requestError(fmt.Sprintf("tool %q: input schema: %v", spec.Name, err))
		}
		tool := &anthropic.ToolParam{Name: spec.Name, InputSchema: schema}
		if spec.Description != "" {
			tool.Description = anthropic.String(spec.Description)
		}
		if i == len(req.Tools)-1 {
			tool.CacheControl = anthropic.NewCacheControlEphemeralParam()
		}
		p.Tools = append(p.Tools, anthropic.ToolUnionParam{OfTool: tool})
	}
	return p, nil
}

func (m *Model) requestError(msg string) *llm.Error {
	return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindRequest, Message: msg}
}

// inputSchema is a tool's JSON Schema, sent exactly as forge wrote it.
func inputSchema(schema json.RawMessage) (anthropic.ToolInputSchemaParam, error) {
	t := bytes.TrimSpace(schema)
	if len(t) == 0 {
		t = []byte(`{"type":"object","properties":{}}`)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(t, &obj); err != nil || obj == nil {
		return anthropic.ToolInputSchemaParam{}, fmt.Errorf("not a JSON object")
	}
	return param.Override[anthropic.ToolInputSchemaParam](json.RawMessage(t)), nil
}

// messages is the conversation in alternating user and assistant turns:
// consecutive tool results become one user message of tool_result blocks,
// followed by the user's text if it comes next; an assistant message is
// its text and tool_use blocks. Empty texts are left out (the API rejects
// empty text blocks), and a message left with no block is dropped, its
// neighbours merged.
func messages(msgs []llm.Message) []anthropic.MessageParam {
	type turn struct {
		assistant bool
		blocks    []anthropic.ContentBlockParamUnion
	}
	var turns []turn
	for _, msg := range msgs {
		blocks := contentBlocks(msg)
		if len(blocks) == 0 {
			continue
		}
		assistant := msg.Role == llm.RoleAssistant
		if n := len(turns); n > 0 && turns[n-1].assistant == assistant {
			turns[n-1].blocks = append(turns[n-1].blocks, blocks...)
			continue
		}
		turns = append(turns, turn{assistant, blocks})
	}
	out := make([]anthropic.MessageParam, len(turns))
	for i, t := range turns {
		if t.assistant {
			out[i] = anthropic.NewAssistantMessage(t.blocks...)
		} else {
			out[i] = anthropic.NewUserMessage(t.blocks...)
		}
	}
	if n := len(out); n > 0 {
		cacheLastBlock(out[n-1])
	}
	return out
}

// contentBlocks is one message's blocks: an assistant's text and
// tool_use blocks, a tool result's tool_result block, a user's text.
func contentBlocks(msg llm.Message) []anthropic.ContentBlockParamUnion {
	var blocks []anthropic.ContentBlockParamUnion
	switch msg.Role {
	case llm.RoleAssistant:
		if msg.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(msg.Text))
		}
		for _, c := range msg.ToolCalls {
			blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, replayInput(c.Arguments), c.Name))
		}
	case llm.RoleTool:
		if msg.Result != nil {
			blocks = append(blocks, toolResult(*msg.Result))
		}
	default:
		if msg.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(msg.Text))
		}
	}
	return blocks
}

// toolResult is a result as a tool_result block; an empty content is
// left out, since the API rejects an empty text block.
func toolResult(r llm.ToolResult) anthropic.ContentBlockParamUnion {
	b := &anthropic.ToolResultBlockParam{ToolUseID: r.CallID}
	if r.IsError {
		b.IsError = anthropic.Bool(true)
	}
	if r.Content != "" {
		b.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: r.Content}}}
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: b}
}

// replayInput is a past call's input. Arguments that are not a JSON
// object go back as {}: the call's result already told the model they
// were invalid, and the API rejects an input that is not an object.
func replayInput(args json.RawMessage) any {
	t := bytes.TrimSpace(args)
	if len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		return map[string]any{}
	}
	return json.RawMessage(t)
}

// cacheLastBlock puts a cache breakpoint on the message's last block.
func cacheLastBlock(msg anthropic.MessageParam) {
	var blocks []anthropic.ContentBlockParamUnion
	switch {
	case msg.OfUser != nil:
		blocks = msg.OfUser.Content
	case msg.OfAssistant != nil:
		blocks = msg.OfAssistant.Content
	}
	if len(blocks) == 0 {
		return
	}
	if cc := blocks[len(blocks)-1].GetCacheControl(); cc != nil {
		*cc = anthropic.NewCacheControlEphemeralParam()
	}
}
