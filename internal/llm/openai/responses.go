package openai

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// The APIs a Model can speak (Config.API).
const (
	APIChat      = "chat"
	APIResponses = "responses"
)

// usesResponses says requests go to the Responses API: when asked, or by
// default for OpenAI's own API, which carries reasoning between tool
// calls there and nowhere else. Every other server gets Chat Completions.
func (m *Model) usesResponses() bool {
	switch m.cfg.API {
	case APIResponses:
		return true
	case APIChat:
		return false
	}
	return m.cfg.Provider == "openai" && strings.TrimSuffix(m.cfg.BaseURL, "/") == DefaultBaseURL
}

// responsesBody is req as a streaming Responses request. Nothing is
// stored on OpenAI's side (store: false): the whole conversation goes
// each time, with the encrypted reasoning items the model made, asked for
// with include, so that it goes on from its own thinking across tool
// calls. prompt_cache_key (the session's ID) sends a session's requests
// to the same cache.
func (m *Model) responsesBody(req llm.Request) ([]byte, error) {
	model := req.Model
	if model == "" {
		model = m.cfg.Model
	}
	if model == "" {
		return nil, m.requestError(errNoModel.Error())
	}
	tools, err := m.responseTools(req.Tools)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, wire.BodySize(req, len(tools), bodyOverhead))
	b = append(b, `{"model":`...)
	b = wire.AppendString(b, model)
	if req.System != "" {
		b = append(b, `,"instructions":`...)
		b = wire.AppendString(b, req.System)
	}
	b = append(b, `,"input":[`...)
	b = appendInput(b, req.Messages)
	b = append(b, `],"store":false,"stream":true`...)
	if info, ok := llm.LookupModel(model); !ok || !info.NoReasoning {
		b = append(b, `,"include":["reasoning.encrypted_content"]`...)
		if effort := m.effort(req, model); effort != "" {
			b = append(b, `,"reasoning":{"effort":`...)
			b = wire.AppendString(b, effort)
			b = append(b, `,"summary":"auto"}`...)
		}
	}
	if req.CacheKey != "" {
		b = append(b, `,"prompt_cache_key":`...)
		b = wire.AppendString(b, req.CacheKey)
	}
	if req.MaxTokens > 0 {
		b = append(b, `,"max_output_tokens":`...)
		b = strconv.AppendInt(b, int64(req.MaxTokens), 10)
	}
	if len(tools) > 0 {
		b = append(b, `,"tools":`...)
		b = append(b, tools...)
	}
	return append(b, '}'), nil
}

// appendInput appends the conversation as input items, separated by
// commas: a prompt as a user message (input_text and input_image parts),
// an assistant turn as its reasoning items, its text and its
// function_call items, in that order, a result as a function_call_output;
// the images of a run of results follow it in a user message.
func appendInput(b []byte, msgs []llm.Message) []byte {
	var pending []*llm.ToolResult
	for i := range msgs {
		msg := &msgs[i]
		if msg.Role != llm.RoleTool && len(pending) > 0 {
			b = append(appendResultImageInput(b, pending), ',')
			pending = pending[:0]
		}
		switch msg.Role {
		case llm.RoleAssistant:
			b = appendAssistantItems(b, msg)
		case llm.RoleTool:
			if msg.Result == nil {
				continue
			}
			b = append(b, `{"type":"function_call_output","call_id":`...)
			b = wire.AppendString(b, msg.Result.CallID)
			b = append(b, `,"output":`...)
			b = wire.AppendString(b, msg.Result.Content)
			b = append(b, "},"...)
			if len(msg.Result.Images) > 0 {
				pending = append(pending, msg.Result)
			}
		default:
			b = appendUserInput(b, msg.Text, msg.Images)
			b = append(b, ',')
		}
	}
	if len(pending) > 0 {
		b = appendResultImageInput(b, pending)
	}
	return bytes.TrimSuffix(b, []byte{','})
}

// appendUserInput appends a user message of input_text and input_image
// parts.
func appendUserInput(b []byte, text string, images []llm.Image) []byte {
	b = append(b, `{"role":"user","content":[{"type":"input_text","text":`...)
	b = wire.AppendString(b, text)
	b = append(b, '}')
	for _, im := range images {
		b = append(b, `,{"type":"input_image","image_url":"data:`...)
		mt := wire.AppendString(nil, im.MediaType)
		b = append(b, mt[1:len(mt)-1]...)
		b = append(b, ";base64,"...)
		b = wire.AppendBase64(b, im.Data)
		b = append(b, `"}`...)
	}
	return append(b, "]}"...)
}

// appendResultImageInput appends the user message that shows the model
// the images its calls returned.
func appendResultImageInput(b []byte, results []*llm.ToolResult) []byte {
	ids := make([]string, len(results))
	var images []llm.Image
	for i, r := range results {
		ids[i] = r.CallID
		images = append(images, r.Images...)
	}
	return appendUserInput(b, "The images the tool calls above returned ("+strings.Join(ids, ", ")+"):", images)
}

// appendAssistantItems appends an assistant turn's items, each followed by
// a comma: its reasoning items exactly as they came (encrypted content and
// summary), its text as an assistant message, its calls.
func appendAssistantItems(b []byte, msg *llm.Message) []byte {
	for _, r := range msg.Reasoning {
		if r.Provider != llm.ReasoningResponses || r.Redacted == "" {
			continue // another provider's, or not encrypted: useless without store
		}
		b = append(b, `{"type":"reasoning","id":`...)
		b = wire.AppendString(b, r.ID)
		b = append(b, `,"summary":[`...)
		if r.Text != "" {
			b = append(b, `{"type":"summary_text","text":`...)
			b = wire.AppendString(b, r.Text)
			b = append(b, '}')
		}
		b = append(b, `],"encrypted_content":`...)
		b = wire.AppendString(b, r.Redacted)
		b = append(b, "},"...)
	}
	if msg.Text != "" {
		b = append(b, `{"role":"assistant","content":`...)
		b = wire.AppendString(b, msg.Text)
		b = append(b, "},"...)
	}
	for _, c := range msg.ToolCalls {
		b = append(b, `{"type":"function_call","call_id":`...)
		b = wire.AppendString(b, c.ID)
		b = append(b, `,"name":`...)
		b = wire.AppendString(b, c.Name)
		b = append(b, `,"arguments":`...)
		b = wire.AppendString(b, replayArguments(c.Arguments))
		b = append(b, "},"...)
	}
	return b
}

// responseTools is specs as Responses function tools, nil for none.
func (m *Model) responseTools(specs []llm.ToolSpec) ([]byte, error) {
	return m.rtools.Encode(specs, m.encodeResponseTools)
}

func (m *Model) encodeResponseTools(specs []llm.ToolSpec) ([]byte, error) {
	b := []byte{'['}
	for i, spec := range specs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"function","name":`...)
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
		b = append(b, `,"strict":false}`...)
	}
	return append(b, ']'), nil
}
