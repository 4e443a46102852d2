package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/shared"

	"github.com/forgehq/forge/internal/llm"
)

// params is req as a Chat Completions request: the system prompt as the
// first message, the conversation, the tools (none sent when there are
// none: some servers reject an empty list), streaming with usage, and a
// token limit only when one is set.
func (m *Model) params(req llm.Request) (openai.ChatCompletionNewParams, error) {
	model := req.Model
	if model == "" {
		model = m.cfg.Model
	}
	if model == "" {
		return openai.ChatCompletionNewParams{}, m.requestError(errNoModel.Error())
	}
	p := openai.ChatCompletionNewParams{
		Model:         shared.ChatModel(model),
		Messages:      messages(req),
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if req.MaxTokens > 0 {
		// OpenAI's own models want max_completion_tokens (its reasoning
		// models reject max_tokens); the compatible servers know
		// max_tokens.
		if m.cfg.Provider == "openai" {
			p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			p.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	for _, spec := range req.Tools {
		def, err := functionDefinition(spec)
		if err != nil {
			return openai.ChatCompletionNewParams{}, m.requestError(fmt.Sprintf("tool %q: input schema: %v", spec.Name, err))
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(def))
	}
	return p, nil
}

// functionDefinition is a tool as the SDK sends it, written as JSON once:
// the schema goes out byte for byte as forge wrote it, and a request does
// not decode and re-encode every tool's schema (most of its size).
func functionDefinition(spec llm.ToolSpec) (shared.FunctionDefinitionParam, error) {
	schema := bytes.TrimSpace(spec.InputSchema)
	if len(schema) == 0 {
		schema = []byte(`{"type":"object","properties":{}}`)
	} else if schema[0] != '{' || !json.Valid(schema) {
		return shared.FunctionDefinitionParam{}, errors.New("not a JSON object")
	}
	name, err := json.Marshal(spec.Name)
	if err != nil {
		return shared.FunctionDefinitionParam{}, err
	}
	var b bytes.Buffer
	b.WriteString(`{"name":`)
	b.Write(name)
	if spec.Description != "" {
		desc, err := json.Marshal(spec.Description)
		if err != nil {
			return shared.FunctionDefinitionParam{}, err
		}
		b.WriteString(`,"description":`)
		b.Write(desc)
	}
	b.WriteString(`,"parameters":`)
	b.Write(schema)
	b.WriteByte('}')
	return param.Override[shared.FunctionDefinitionParam](json.RawMessage(b.Bytes())), nil
}

func (m *Model) requestError(msg string) *llm.Error {
	return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindRequest, Message: msg}
}

// messages is the conversation in Chat Completions messages.
func messages(req llm.Request) []openai.ChatCompletionMessageParamUnion {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Messages)+1)
	if req.System != "" {
		out = append(out, openai.SystemMessage(req.System))
	}
	for _, msg := range req.Messages {
		switch msg.Role {
		case llm.RoleAssistant:
			out = append(out, assistantMessage(msg))
		case llm.RoleTool:
			if msg.Result != nil {
				out = append(out, openai.ToolMessage(msg.Result.Content, msg.Result.CallID))
			}
		default:
			out = append(out, openai.UserMessage(msg.Text))
		}
	}
	return out
}

// assistantMessage is an assistant turn: its text and its calls with
// their IDs and argument text.
func assistantMessage(msg llm.Message) openai.ChatCompletionMessageParamUnion {
	a := openai.ChatCompletionAssistantMessageParam{}
	if msg.Text != "" || len(msg.ToolCalls) == 0 {
		a.Content.OfString = openai.String(msg.Text)
	}
	for _, c := range msg.ToolCalls {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: c.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name:      c.Name,
					Arguments: replayArguments(c.Arguments),
				},
			},
		})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
}

// replayArguments is a past call's argument text as it is sent back. A
// call whose arguments were not a JSON object goes back as {}: its
// result already told the model they were invalid, and servers that
// parse the arguments (Ollama) reject the whole request otherwise.
func replayArguments(args json.RawMessage) string {
	t := bytes.TrimSpace(args)
	if len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		return "{}"
	}
	return string(args)
}
