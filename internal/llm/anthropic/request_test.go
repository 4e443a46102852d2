package anthropic

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/forgehq/forge/internal/llm"
)

// sdkParams is req as the SDK's own params, as forge built them before it
// wrote its bodies itself: the reference the hand-written body must mean
// the same as. As before: Prompt-cache breakpoints go on the
// last tool, the system prompt and the conversation's last block: the
// API caches the prefix up to each, so every turn of a conversation reads
// tools, system prompt and history from the cache instead of paying for
// them again.
func (m *Model) sdkParams(req llm.Request) (anthropic.MessageNewParams, error) {
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
		Messages:  sdkMessages(req.Messages),
	}
	switch think := thinkingFor(req, model); {
	case think.adaptive:
		p.Thinking = anthropic.ThinkingConfigParamUnion{OfAdaptive: &anthropic.ThinkingConfigAdaptiveParam{Display: "summarized"}}
		p.OutputConfig = anthropic.OutputConfigParam{Effort: anthropic.OutputConfigEffort(think.effort)}
		p.MaxTokens += thinkingBudgets[think.effort]
	case think.budget > 0:
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(think.budget)
		p.MaxTokens += think.budget
	}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System, CacheControl: anthropic.NewCacheControlEphemeralParam()}}
	}
	for i, spec := range req.Tools {
		schema, err := sdkInputSchema(spec.InputSchema)
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

// inputSchema is a tool's JSON Schema, sent exactly as forge wrote it.
func sdkInputSchema(schema json.RawMessage) (anthropic.ToolInputSchemaParam, error) {
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
func sdkMessages(msgs []llm.Message) []anthropic.MessageParam {
	type turn struct {
		assistant bool
		blocks    []anthropic.ContentBlockParamUnion
	}
	var turns []turn
	for _, msg := range msgs {
		blocks := sdkContentBlocks(msg)
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
		sdkCacheLastBlock(out[n-1])
	}
	return out
}

// contentBlocks is one message's blocks: an assistant's text and
// tool_use blocks, a tool result's tool_result block, a user's text.
func sdkContentBlocks(msg llm.Message) []anthropic.ContentBlockParamUnion {
	var blocks []anthropic.ContentBlockParamUnion
	switch msg.Role {
	case llm.RoleAssistant:
		for _, r := range msg.Reasoning {
			switch {
			case r.Provider != llm.ReasoningAnthropic:
			case r.Redacted != "":
				blocks = append(blocks, anthropic.NewRedactedThinkingBlock(r.Redacted))
			case r.Signature != "":
				blocks = append(blocks, anthropic.NewThinkingBlock(r.Signature, r.Text))
			}
		}
		if msg.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(msg.Text))
		}
		for _, c := range msg.ToolCalls {
			blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, sdkReplayInput(c.Arguments), c.Name))
		}
	case llm.RoleTool:
		if msg.Result != nil {
			blocks = append(blocks, sdkToolResult(*msg.Result))
		}
	default:
		for _, im := range msg.Images {
			blocks = append(blocks, anthropic.NewImageBlockBase64(im.MediaType, base64.StdEncoding.EncodeToString(im.Data)))
		}
		if msg.Text != "" {
			blocks = append(blocks, anthropic.NewTextBlock(msg.Text))
		}
	}
	return blocks
}

// toolResult is a result as a tool_result block; an empty content is
// left out, since the API rejects an empty text block.
func sdkToolResult(r llm.ToolResult) anthropic.ContentBlockParamUnion {
	b := &anthropic.ToolResultBlockParam{ToolUseID: r.CallID}
	if r.IsError {
		b.IsError = anthropic.Bool(true)
	}
	if r.Content != "" {
		b.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: r.Content}}}
	}
	for _, im := range r.Images {
		img := anthropic.NewImageBlockBase64(im.MediaType, base64.StdEncoding.EncodeToString(im.Data)).OfImage
		b.Content = append(b.Content, anthropic.ToolResultBlockParamContentUnion{OfImage: img})
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: b}
}

// replayInput is a past call's input. Arguments that are not a JSON
// object go back as {}: the call's result already told the model they
// were invalid, and the API rejects an input that is not an object.
func sdkReplayInput(args json.RawMessage) any {
	t := bytes.TrimSpace(args)
	if len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		return map[string]any{}
	}
	return json.RawMessage(t)
}

// cacheLastBlock puts a cache breakpoint on the message's last block.
func sdkCacheLastBlock(msg anthropic.MessageParam) {
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

// decodeJSON decodes a body with its numbers as written.
func decodeJSON(t *testing.T, b []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v map[string]any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

// TestBodyMeansWhatTheSDKSent: the body forge writes decodes to the same
// JSON as the SDK's encoding of the same request (with the "stream": true
// the SDK's streaming call adds), for every kind of message, merged turns,
// dropped empty texts, cache breakpoints and awkward text.
func TestBodyMeansWhatTheSDKSent(t *testing.T) {
	odd := "tab\t nl\n cr\r quote\" back\\ nul\x00 bell\x07 del\x7f <html>&amp; é 日本 \u2028\u2029 bad\xff\xfe utf8 😀"
	schema := json.RawMessage(" {\n  \"type\": \"object\",\n  \"properties\": {\"n\": {\"type\": \"integer\", \"maximum\": 10000000000000001}},\n  \"required\": [\"n\"]\n}\n")
	tools := []llm.ToolSpec{{Name: "Read", Description: odd, InputSchema: schema}, {Name: "Empty"}, {Name: "Blank", InputSchema: json.RawMessage(" \n")}}
	reqs := []llm.Request{
		{System: "sys", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}},
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: odd}}, Tools: tools[:1]},
		{Model: "other", System: odd, MaxTokens: 512, Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "go"},
			{Role: llm.RoleAssistant, Text: odd, ToolCalls: []llm.ToolCall{
				{ID: "t1", Name: "Read", Arguments: json.RawMessage(` {"file_path": "a\u00e9\n", "n": 10000000000000001} `)},
				{ID: "t2", Name: "Bash", Arguments: json.RawMessage(`{"command": "ls`)},
				{ID: "t3", Name: "X", Arguments: json.RawMessage(`[1]`)},
				{ID: "t4", Name: "Y"},
			}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t1", Name: "Read", Content: odd}},
			{Role: llm.RoleTool},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t2", IsError: true}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t3", Content: "bad", IsError: true}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t4", Content: "x"}},
			{Role: llm.RoleUser, Text: "and then"},
			{Role: llm.RoleAssistant},
			{Role: llm.RoleUser, Text: ""},
			{Role: llm.RoleAssistant, Text: "a"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "t5", Name: "Glob", Arguments: json.RawMessage(`{}`)}}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t5", Content: ""}},
		}, Tools: tools},
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}, {Role: llm.RoleAssistant, Text: "last"}}},
		{Messages: []llm.Message{{Role: llm.RoleTool}}},
		// Thinking: its blocks first and unchanged, another provider's
		// and unsigned ones left out; images before a prompt's text and
		// after a result's; the thinking config by model and effort.
		{Effort: llm.EffortHigh, Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "look", Images: []llm.Image{{MediaType: "image/png", Data: []byte("\x89PNG\r\n")}}},
			{Role: llm.RoleAssistant, Text: "I see.", Reasoning: []llm.Reasoning{
				{Provider: llm.ReasoningAnthropic, Text: odd, Signature: "c2ln"},
				{Provider: llm.ReasoningAnthropic, Redacted: "ZW5j"},
				{Provider: llm.ReasoningChat, Text: "not Claude's"},
				{Provider: llm.ReasoningAnthropic, Text: "unsigned"},
			}, ToolCalls: []llm.ToolCall{{ID: "t1", Name: "Read", Arguments: json.RawMessage(`{}`)}}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t1", Content: "a shot", Images: []llm.Image{{MediaType: "image/jpeg", Data: []byte{0xff, 0xd8, 0}}}}},
		}},
		{Model: "claude-opus-4-6", Effort: llm.EffortLow, MaxTokens: 1000, Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}}},
		{Model: "claude-3-5-haiku-latest", Effort: llm.EffortLow, Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}}},
		{Effort: llm.EffortMedium, Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "q"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "t1", Name: "Read", Arguments: json.RawMessage(`{}`)}}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t1", Content: "x"}},
		}},
		{},
	}
	m := &Model{cfg: Config{Provider: "anthropic", Model: "claude-test"}}
	for i, req := range reqs {
		body, err := m.body(req)
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.sdkParams(req)
		if err != nil {
			t.Fatal(err)
		}
		sdk, err := p.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		want := decodeJSON(t, sdk)
		want["stream"] = true
		if _, ok := want["messages"]; !ok {
			// The SDK leaves out an empty list; the body says
			// "messages":[] (never sent: a run starts with a prompt).
			want["messages"] = []any{}
		}
		if got := decodeJSON(t, body); !reflect.DeepEqual(got, want) {
			t.Errorf("request %d:\n got %s\nwant %s", i, body, sdk)
		}
	}
	if _, err := m.body(llm.Request{Tools: []llm.ToolSpec{{Name: "X", InputSchema: json.RawMessage(`null`)}}}); err == nil {
		t.Error("a schema that is not an object was sent")
	}
}
