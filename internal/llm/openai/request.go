package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// body is req as a Chat Completions request body: the system prompt as the
// first message, the conversation, the tools (none sent when there are
// none: some servers reject an empty list), streaming with usage, and a
// token limit only when one is set.
//
// It is written by hand rather than through the SDK's params: the SDK's
// reflection encoder, run on the whole conversation and every tool schema
// for each request, cost more than the rest of a tool step. The SDK still
// sends the body, with its retries; the tools are encoded once while they
// stay the same.
func (m *Model) body(req llm.Request) ([]byte, error) {
	model := req.Model
	if model == "" {
		model = m.cfg.Model
	}
	if model == "" {
		return nil, m.requestError(errNoModel.Error())
	}
	tools, err := m.toolsJSON(req.Tools)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, wire.BodySize(req, len(tools), bodyOverhead))
	b = append(b, `{"model":`...)
	b = wire.AppendString(b, model)
	b = append(b, `,"messages":[`...)
	b = appendMessages(b, req)
	b = append(b, ']')
	if req.MaxTokens > 0 {
		// OpenAI's own models want max_completion_tokens (its reasoning
		// models reject max_tokens); the compatible servers know
		// max_tokens.
		if m.cfg.Provider == "openai" {
			b = append(b, `,"max_completion_tokens":`...)
		} else {
			b = append(b, `,"max_tokens":`...)
		}
		b = strconv.AppendInt(b, int64(req.MaxTokens), 10)
	}
	if len(tools) > 0 {
		b = append(b, `,"tools":`...)
		b = append(b, tools...)
	}
	b = append(b, `,"stream":true,"stream_options":{"include_usage":true}}`...)
	return b, nil
}

// bodyOverhead is what this format's JSON adds around a request's texts.
var bodyOverhead = wire.Overhead{Request: 128, Message: 48, Call: 80, Result: 0}

// appendMessages appends the conversation as Chat Completions messages,
// separated by commas.
func appendMessages(b []byte, req llm.Request) []byte {
	if req.System != "" {
		b = append(b, `{"role":"system","content":`...)
		b = wire.AppendString(b, req.System)
		b = append(b, `},`...)
	}
	for i := range req.Messages {
		msg := &req.Messages[i]
		switch msg.Role {
		case llm.RoleAssistant:
			b = appendAssistant(b, msg)
		case llm.RoleTool:
			if msg.Result == nil {
				continue
			}
			b = append(b, `{"role":"tool","tool_call_id":`...)
			b = wire.AppendString(b, msg.Result.CallID)
			b = append(b, `,"content":`...)
			b = wire.AppendString(b, msg.Result.Content)
			b = append(b, '}')
		default:
			b = append(b, `{"role":"user","content":`...)
			b = wire.AppendString(b, msg.Text)
			b = append(b, '}')
		}
		b = append(b, ',')
	}
	return bytes.TrimSuffix(b, []byte{','})
}

// appendAssistant appends an assistant turn: its text and its calls with
// their IDs and argument text.
func appendAssistant(b []byte, msg *llm.Message) []byte {
	b = append(b, `{"role":"assistant"`...)
	if msg.Text != "" || len(msg.ToolCalls) == 0 {
		b = append(b, `,"content":`...)
		b = wire.AppendString(b, msg.Text)
	}
	if len(msg.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, c := range msg.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"id":`...)
			b = wire.AppendString(b, c.ID)
			b = append(b, `,"type":"function","function":{"name":`...)
			b = wire.AppendString(b, c.Name)
			b = append(b, `,"arguments":`...)
			b = wire.AppendString(b, replayArguments(c.Arguments))
			b = append(b, `}}`...)
		}
		b = append(b, ']')
	}
	return append(b, '}')
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

// toolsJSON is specs as a Chat Completions tools array, nil for none: the
// schemas go out as forge wrote them (compacted), never through a decode
// and re-encode, and only once while requests offer the same tools.
func (m *Model) toolsJSON(specs []llm.ToolSpec) ([]byte, error) {
	return m.tools.Encode(specs, func(specs []llm.ToolSpec) ([]byte, error) {
		b := []byte{'['}
		for i, spec := range specs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"type":"function","function":{"name":`...)
			b = wire.AppendString(b, spec.Name)
			if spec.Description != "" {
				b = append(b, `,"description":`...)
				b = wire.AppendString(b, spec.Description)
			}
			b = append(b, `,"parameters":`...)
			var err error
			if b, err = wire.AppendSchema(b, spec.InputSchema); err != nil {
				return nil, m.requestError(fmt.Sprintf("tool %q: input schema: %v", spec.Name, err))
			}
			b = append(b, `}}`...)
		}
		return append(b, ']'), nil
	})
}

func (m *Model) requestError(msg string) *llm.Error {
	return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindRequest, Message: msg}
}
