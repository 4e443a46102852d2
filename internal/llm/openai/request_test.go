package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/forgehq/forge/internal/llm"
)

// sdkImage is an image as the SDK's image part, a data URL.
func sdkImage(im llm.Image) openai.ChatCompletionContentPartUnionParam {
	return openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
		URL: "data:" + im.MediaType + ";base64," + base64.StdEncoding.EncodeToString(im.Data)})
}

// sdkParams is req as the SDK's own params, as forge built them before it
// wrote its bodies itself: the reference the hand-written body must mean
// the same as.
func sdkParams(t *testing.T, provider, model string, req llm.Request) openai.ChatCompletionNewParams {
	t.Helper()
	p := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(model),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if req.System != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	}
	if req.Effort != "" {
		if info, ok := llm.LookupModel(model); !ok || !info.NoReasoning {
			p.ReasoningEffort = shared.ReasoningEffort(req.Effort)
		}
	}
	turn := turnStart(req.Messages)
	var pending []string
	var images []llm.Image
	flush := func() {
		if len(pending) == 0 {
			return
		}
		parts := []openai.ChatCompletionContentPartUnionParam{
			openai.TextContentPart("The images the tool calls above returned (" + strings.Join(pending, ", ") + "):")}
		for _, im := range images {
			parts = append(parts, sdkImage(im))
		}
		p.Messages = append(p.Messages, openai.UserMessage(parts))
		pending, images = nil, nil
	}
	for i, msg := range req.Messages {
		if msg.Role != llm.RoleTool {
			flush()
		}
		switch msg.Role {
		case llm.RoleAssistant:
			a := openai.ChatCompletionAssistantMessageParam{}
			for _, r := range msg.Reasoning {
				if r.Provider == llm.ReasoningChat && i > turn {
					field := "reasoning_content"
					if r.Field == "reasoning" {
						field = "reasoning"
					}
					a.SetExtraFields(map[string]any{field: r.Text})
				}
			}
			if msg.Text != "" || len(msg.ToolCalls) == 0 {
				a.Content.OfString = openai.String(msg.Text)
			}
			for _, c := range msg.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
					OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: c.ID,
						Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: replayArguments(c.Arguments)}},
				})
			}
			p.Messages = append(p.Messages, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case llm.RoleTool:
			if msg.Result != nil {
				p.Messages = append(p.Messages, openai.ToolMessage(msg.Result.Content, msg.Result.CallID))
				if len(msg.Result.Images) > 0 {
					pending = append(pending, msg.Result.CallID)
					images = append(images, msg.Result.Images...)
				}
			}
		default:
			if len(msg.Images) == 0 {
				p.Messages = append(p.Messages, openai.UserMessage(msg.Text))
				continue
			}
			parts := []openai.ChatCompletionContentPartUnionParam{openai.TextContentPart(msg.Text)}
			for _, im := range msg.Images {
				parts = append(parts, sdkImage(im))
			}
			p.Messages = append(p.Messages, openai.UserMessage(parts))
		}
	}
	flush()
	if req.MaxTokens > 0 {
		if provider == "openai" {
			p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			p.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	for _, spec := range req.Tools {
		// The definition as forge wrote it for the SDK, the schema
		// passed through raw.
		schema := bytes.TrimSpace(spec.InputSchema)
		if len(schema) == 0 {
			schema = []byte(`{"type":"object","properties":{}}`)
		}
		def := map[string]json.RawMessage{"name": mustJSON(t, spec.Name), "parameters": schema}
		if spec.Description != "" {
			def["description"] = mustJSON(t, spec.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(
			param.Override[shared.FunctionDefinitionParam](json.RawMessage(mustJSON(t, def)))))
	}
	return p
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeJSON decodes a body with its numbers as written.
func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

// TestBodyMeansWhatTheSDKSent: the body forge writes decodes to the same
// JSON as the SDK's encoding of the same request (with the "stream": true
// the SDK's streaming call adds), for every kind of message and awkward
// text.
func TestBodyMeansWhatTheSDKSent(t *testing.T) {
	odd := "tab\t nl\n cr\r quote\" back\\ nul\x00 bell\x07 del\x7f <html>&amp; é 日本 \u2028\u2029 bad\xff\xfe utf8 😀"
	schema := json.RawMessage(" {\n  \"type\": \"object\",\n  \"properties\": {\"n\": {\"type\": \"integer\", \"maximum\": 10000000000000001, \"description\": \"<a> & b\"}},\n  \"required\": [\"n\"]\n}\n")
	reqs := []llm.Request{
		{System: "sys", Messages: []llm.Message{{Role: llm.RoleUser, Text: "hi"}}},
		{Messages: []llm.Message{{Role: llm.RoleUser, Text: odd}}},
		{Model: "other", System: odd, MaxTokens: 512, Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "go"},
			{Role: llm.RoleAssistant, Text: odd, ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "Read", Arguments: json.RawMessage(`{"file_path": "a\u00e9\n"}`)},
				{ID: "call_2", Name: "Bash", Arguments: json.RawMessage(`{"command": "ls`)},
				{ID: "call_3", Name: "X", Arguments: json.RawMessage(`[1]`)},
				{ID: "call_4", Name: "Y"},
			}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "call_1", Name: "Read", Content: odd}},
			{Role: llm.RoleTool},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "call_2", Content: "", IsError: true}},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c5", Name: "Glob", Arguments: json.RawMessage(`{"pattern":"*"}`)}}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c5", Content: "x"}},
			{Role: llm.RoleAssistant},
			{Role: "something", Text: "as a user"},
		}, Tools: []llm.ToolSpec{
			{Name: "Read", Description: odd, InputSchema: schema},
			{Name: "Empty"},
			{Name: "Blank", InputSchema: json.RawMessage(" \n")},
		}},
		{Messages: []llm.Message{{Role: llm.RoleTool}}},
		{},
		// Thinking goes back within the turn under way only, in its own
		// field; an effort; images as parts, a tool result's in a user
		// message after the run of tool messages.
		{Effort: llm.EffortHigh, Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "look", Images: []llm.Image{{MediaType: "image/png", Data: []byte("\x89PNG")}}},
			{Role: llm.RoleAssistant, Text: "old", Reasoning: []llm.Reasoning{{Provider: llm.ReasoningChat, Text: "a past turn's", Field: "reasoning_content"}}},
			{Role: llm.RoleUser, Text: "now"},
			{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningChat, Text: odd, Field: "reasoning"}},
				ToolCalls: []llm.ToolCall{{ID: "c1", Name: "Read", Arguments: json.RawMessage(`{}`)}, {ID: "c2", Name: "Read", Arguments: json.RawMessage(`{}`)}}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: "a shot", Images: []llm.Image{{MediaType: "image/jpeg", Data: []byte{0xff, 0xd8}}}}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c2", Content: "another", Images: []llm.Image{{MediaType: "image/webp", Data: []byte("RIFF")}}}},
			{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningAnthropic, Text: "Claude's", Signature: "s"}},
				ToolCalls: []llm.ToolCall{{ID: "c3", Name: "Read", Arguments: json.RawMessage(`{}`)}}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c3", Content: "last", Images: []llm.Image{{MediaType: "image/gif", Data: []byte("GIF8")}}}},
		}},
		{Model: "gpt-4o", Effort: llm.EffortLow, Messages: []llm.Message{{Role: llm.RoleUser, Text: "q"}}},
	}
	for _, provider := range []string{"openai", "ollama"} {
		m := &Model{cfg: Config{Provider: provider, Model: "gpt-test"}}
		for i, req := range reqs {
			body, err := m.body(req)
			if err != nil {
				t.Fatal(err)
			}
			model := req.Model
			if model == "" {
				model = "gpt-test"
			}
			sdk, err := sdkParams(t, provider, model, req).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			want := decodeJSON(t, sdk).(map[string]any)
			want["stream"] = true
			if _, ok := want["messages"]; !ok {
				// The SDK leaves out an empty list; the body says
				// "messages":[] (never sent: a run starts with a prompt).
				want["messages"] = []any{}
			}
			if got := decodeJSON(t, body); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, request %d:\n got %s\nwant %s", provider, i, body, sdk)
			}
		}
	}
}

// TestToolsEncodedOnce: the tools' JSON is reused while they stay the
// same, and made anew when they change, even in place.
func TestToolsEncodedOnce(t *testing.T) {
	m := &Model{cfg: Config{Provider: "openai", Model: "m"}}
	specs := []llm.ToolSpec{{Name: "A", Description: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	first, err := m.toolsJSON(specs)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := m.toolsJSON([]llm.ToolSpec{{Name: "A", Description: "a", InputSchema: json.RawMessage(`{"type":"object"}`)}})
	if &again[0] != &first[0] {
		t.Error("the same tools were encoded again")
	}
	specs[0].InputSchema[2] = 'T' // {"Type":"object"}
	changed, _ := m.toolsJSON(specs)
	if !bytes.Contains(changed, []byte(`"Type"`)) {
		t.Errorf("a schema changed in place was not encoded again: %s", changed)
	}
	if none, err := m.toolsJSON(nil); none != nil || err != nil {
		t.Errorf("no tools: %s %v", none, err)
	}
}
