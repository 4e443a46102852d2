package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

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
	b = appendMessages(b, req, m.sendsReasoning())
	b = append(b, ']')
	if effort := m.effort(req, model); effort != "" {
		b = append(b, `,"reasoning_effort":`...)
		b = wire.AppendString(b, effort)
	}
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
// separated by commas. With reasoning, the thinking of the assistant
// messages of the turn under way (after the last prompt) goes back in
// the field it came in: servers of models that think between tool calls
// (DeepSeek, vLLM's, Ollama's) want it there, and no server wants the
// thinking of turns gone by.
func appendMessages(b []byte, req llm.Request, reasoning bool) []byte {
	turn := len(req.Messages)
	if reasoning {
		turn = turnStart(req.Messages)
	}
	if req.System != "" {
		b = append(b, `{"role":"system","content":`...)
		b = wire.AppendString(b, req.System)
		b = append(b, `},`...)
	}
	// A tool message takes text only: the images of a run of tool results
	// follow it in one user message, which must not come between them.
	var pending []*llm.ToolResult
	for i := range req.Messages {
		msg := &req.Messages[i]
		if msg.Role != llm.RoleTool && len(pending) > 0 {
			b = append(appendResultImages(b, pending), ',')
			pending = pending[:0]
		}
		switch msg.Role {
		case llm.RoleAssistant:
			b = appendAssistant(b, msg, i > turn)
		case llm.RoleTool:
			if msg.Result == nil {
				continue
			}
			b = append(b, `{"role":"tool","tool_call_id":`...)
			b = wire.AppendString(b, msg.Result.CallID)
			b = append(b, `,"content":`...)
			b = wire.AppendString(b, msg.Result.Content)
			b = append(b, '}')
			if len(msg.Result.Images) > 0 {
				pending = append(pending, msg.Result)
			}
		default:
			b = append(b, `{"role":"user","content":`...)
			b = appendUserContent(b, msg.Text, msg.Images)
			b = append(b, '}')
		}
		b = append(b, ',')
	}
	if len(pending) > 0 {
		b = appendResultImages(b, pending)
	}
	return bytes.TrimSuffix(b, []byte{','})
}

// turnStart is where the turn under way begins: the last prompt.
func turnStart(msgs []llm.Message) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			return i
		}
	}
	return 0
}

// appendUserContent appends a user message's content: its text, or with
// images an array of a text part and image parts.
func appendUserContent(b []byte, text string, images []llm.Image) []byte {
	if len(images) == 0 {
		return wire.AppendString(b, text)
	}
	b = append(b, `[{"type":"text","text":`...)
	b = wire.AppendString(b, text)
	b = append(b, '}')
	for _, im := range images {
		b = append(b, ',')
		b = appendImagePart(b, im)
	}
	return append(b, ']')
}

// appendResultImages appends the user message that shows the model the
// images its tool calls returned.
func appendResultImages(b []byte, results []*llm.ToolResult) []byte {
	ids := make([]string, len(results))
	var images []llm.Image
	for i, r := range results {
		ids[i] = r.CallID
		images = append(images, r.Images...)
	}
	b = append(b, `{"role":"user","content":`...)
	b = appendUserContent(b, "The images the tool calls above returned ("+strings.Join(ids, ", ")+"):", images)
	return append(b, '}')
}

// appendImagePart appends an image_url part with the image inline as a
// data URL.
func appendImagePart(b []byte, im llm.Image) []byte {
	b = append(b, `{"type":"image_url","image_url":{"url":"data:`...)
	mt := wire.AppendString(nil, im.MediaType)
	b = append(b, mt[1:len(mt)-1]...)
	b = append(b, ";base64,"...)
	b = wire.AppendBase64(b, im.Data)
	return append(b, `"}}`...)
}

// appendAssistant appends an assistant turn: its text and its calls with
// their IDs and argument text, and with reasoning its own thinking.
func appendAssistant(b []byte, msg *llm.Message, reasoning bool) []byte {
	b = append(b, `{"role":"assistant"`...)
	if reasoning {
		b = appendReasoning(b, msg.Reasoning)
	}
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

// appendReasoning appends a message's Chat Completions thinking as the
// field it came in; another provider's is not sent.
func appendReasoning(b []byte, rs []llm.Reasoning) []byte {
	for _, r := range rs {
		if r.Provider != llm.ReasoningChat || r.Text == "" {
			continue
		}
		field := "reasoning_content"
		if r.Field == "reasoning" {
			field = r.Field
		}
		b = append(b, `,"`+field+`":`...)
		return wire.AppendString(b, r.Text)
	}
	return b
}

// sendsReasoning says thinking goes back to this server: any compatible
// server, not OpenAI's own API, whose Chat Completions streams no
// thinking and takes none.
func (m *Model) sendsReasoning() bool {
	return !strings.HasPrefix(m.cfg.BaseURL, "https://api.openai.com/")
}

// effort is the reasoning_effort of req, "" for none: none asked, or a
// model known not to reason (which would refuse it).
func (m *Model) effort(req llm.Request, model string) string {
	if req.Effort == "" {
		return ""
	}
	if info, ok := llm.LookupModel(model); ok && info.NoReasoning {
		return ""
	}
	return string(req.Effort)
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
