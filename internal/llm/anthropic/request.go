package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// cacheControl marks a prompt-cache breakpoint.
const cacheControl = `"cache_control":{"type":"ephemeral"}`

// body is req as a streaming Messages request body. Prompt-cache
// breakpoints go on the last tool, the system prompt and the conversation's
// last block: the API caches the prefix up to each, so every turn of a
// conversation reads tools, system prompt and history from the cache
// instead of paying for them again.
//
// It is written by hand rather than through the SDK's params: the SDK's
// reflection encoder, run on the whole conversation and every tool schema
// for each request, cost more than the rest of a tool step. The SDK still
// sends the body, with its retries; the tools are encoded once while they
// stay the same.
func (m *Model) body(req llm.Request) ([]byte, error) {
	b, _, err := m.request(req)
	return b, err
}

// request is req's body and the thinking it asks for.
func (m *Model) request(req llm.Request) ([]byte, thinking, error) {
	model := req.Model
	if model == "" {
		model = m.cfg.Model
	}
	if model == "" {
		return nil, thinking{}, m.requestError("no model: give one with --model")
	}
	think := thinkingFor(req, model)
	tools, err := m.toolsJSON(req.Tools)
	if err != nil {
		return nil, thinking{}, err
	}
	b := make([]byte, 0, wire.BodySize(req, len(tools), bodyOverhead))
	b = append(b, `{"model":`...)
	b = wire.AppendString(b, model)
	b = append(b, `,"max_tokens":`...)
	b = strconv.AppendInt(b, maxTokens(req, think), 10)
	b = append(b, `,"stream":true`...)
	b = appendThinking(b, think)
	if req.System != "" {
		b = append(b, `,"system":[{"type":"text","text":`...)
		b = wire.AppendString(b, req.System)
		b = append(b, ","+cacheControl+"}]"...)
	}
	b = append(b, `,"messages":`...)
	b = appendMessages(b, req.Messages)
	if len(tools) > 0 {
		b = append(b, `,"tools":`...)
		b = append(b, tools...)
	}
	return append(b, '}'), think, nil
}

// bodyOverhead is what this format's JSON adds around a request's texts.
var bodyOverhead = wire.Overhead{Request: 160, Message: 64, Call: 64, Result: 96}

func (m *Model) requestError(msg string) *llm.Error {
	return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindRequest, Message: msg}
}

// toolsJSON is specs as a Messages tools array, nil for none, with a cache
// breakpoint on the last tool: the schemas go out as forge wrote them
// (compacted), never through a decode and re-encode, and only once while
// requests offer the same tools.
func (m *Model) toolsJSON(specs []llm.ToolSpec) ([]byte, error) {
	return m.tools.Encode(specs, func(specs []llm.ToolSpec) ([]byte, error) {
		b := []byte{'['}
		for i, spec := range specs {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"name":`...)
			b = wire.AppendString(b, spec.Name)
			if spec.Description != "" {
				b = append(b, `,"description":`...)
				b = wire.AppendString(b, spec.Description)
			}
			b = append(b, `,"input_schema":`...)
			var err error
			if b, err = wire.AppendSchema(b, spec.InputSchema); err != nil {
				return nil, m.requestError(fmt.Sprintf("tool %q: input schema: %v", spec.Name, err))
			}
			if i == len(specs)-1 {
				b = append(b, ","+cacheControl...)
			}
			b = append(b, '}')
		}
		return append(b, ']'), nil
	})
}

// appendMessages appends the conversation in alternating user and
// assistant turns: consecutive tool results become one user message of
// tool_result blocks, followed by the user's text if it comes next; an
// assistant message is its text and tool_use blocks. Empty texts are left
// out (the API rejects empty text blocks), and a message left with no block
// is dropped, its neighbours merged. The last block gets a cache
// breakpoint.
func appendMessages(b []byte, msgs []llm.Message) []byte {
	b = append(b, '[')
	var (
		open      bool // a turn's content array is open
		assistant bool // whose turn it is
		last      = -1 // where the last block's closing brace is
	)
	// block starts a block of a message by the assistant or not: a new
	// turn when the speaker changes, else the next block of this one.
	block := func(byAssistant bool) {
		switch {
		case !open:
		case byAssistant == assistant:
			b = append(b, ',')
			return
		default:
			b = append(b, "]},"...)
		}
		open, assistant = true, byAssistant
		if byAssistant {
			b = append(b, `{"role":"assistant","content":[`...)
		} else {
			b = append(b, `{"role":"user","content":[`...)
		}
	}
	for i := range msgs {
		msg := &msgs[i]
		switch msg.Role {
		case llm.RoleAssistant:
			// Thinking comes first, as the model gave it; it takes no
			// cache breakpoint (the API refuses one on a thinking block).
			for j := range msg.Reasoning {
				if r := &msg.Reasoning[j]; sendable(r) {
					block(true)
					b = appendReasoning(b, r)
				}
			}
			if msg.Text != "" {
				block(true)
				b = appendText(b, msg.Text)
				last = len(b) - 1
			}
			for _, c := range msg.ToolCalls {
				block(true)
				b = append(b, `{"type":"tool_use","id":`...)
				b = wire.AppendString(b, c.ID)
				b = append(b, `,"name":`...)
				b = wire.AppendString(b, c.Name)
				b = append(b, `,"input":`...)
				b = append(b, replayInput(c.Arguments)...)
				b = append(b, '}')
				last = len(b) - 1
			}
		case llm.RoleTool:
			if r := msg.Result; r != nil {
				block(false)
				b = append(b, `{"type":"tool_result","tool_use_id":`...)
				b = wire.AppendString(b, r.CallID)
				if r.IsError {
					b = append(b, `,"is_error":true`...)
				}
				// An empty content is left out: the API rejects an
				// empty text block.
				if r.Content != "" || len(r.Images) > 0 {
					b = append(b, `,"content":[`...)
					if r.Content != "" {
						b = appendText(b, r.Content)
						if len(r.Images) > 0 {
							b = append(b, ',')
						}
					}
					b = appendImages(b, r.Images)
					b = append(b, ']')
				}
				b = append(b, '}')
				last = len(b) - 1
			}
		default:
			// Images go before the text that speaks of them, as the
			// API's guide advises.
			for _, im := range msg.Images {
				block(false)
				b = appendImage(b, im)
				last = len(b) - 1
			}
			if msg.Text != "" {
				block(false)
				b = appendText(b, msg.Text)
				last = len(b) - 1
			}
		}
	}
	if !open {
		return append(b, ']')
	}
	b = append(b, "]}]"...)
	return slices.Insert(b, last, []byte(","+cacheControl)...)
}

// appendText appends a text block.
func appendText(b []byte, text string) []byte {
	b = append(b, `{"type":"text","text":`...)
	b = wire.AppendString(b, text)
	return append(b, '}')
}

// appendImages appends image blocks, separated by commas.
func appendImages(b []byte, images []llm.Image) []byte {
	for i, im := range images {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendImage(b, im)
	}
	return b
}

// appendImage appends an image block with its data inline, base64.
func appendImage(b []byte, im llm.Image) []byte {
	b = append(b, `{"type":"image","source":{"type":"base64","media_type":`...)
	b = wire.AppendString(b, im.MediaType)
	b = append(b, `,"data":"`...)
	b = wire.AppendBase64(b, im.Data)
	return append(b, `"}}`...)
}

// replayInput is a past call's input. Arguments that are not a JSON
// object go back as {}: the call's result already told the model they
// were invalid, and the API rejects an input that is not an object.
func replayInput(args json.RawMessage) []byte {
	t := bytes.TrimSpace(args)
	if len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		return []byte("{}")
	}
	return t
}
