package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// event is one streamed event: the fields forge reads of the Messages
// stream's events, and nothing else.
type event struct {
	Type    string `json:"type"`
	Index   int64  `json:"index"`
	Message struct {
		Model string `json:"model"`
		Usage usage  `json:"usage"`
	} `json:"message"`
	ContentBlock struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
		Text string `json:"text"`
		// Input is a tool_use block's input as the start gives it (the
		// API sends {} and then input_json_delta fragments).
		Input json.RawMessage `json:"input"`
		// Thinking, Signature and Data are a thinking or
		// redacted_thinking block's.
		Thinking  string `json:"thinking"`
		Signature string `json:"signature"`
		Data      string `json:"data"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
		// Thinking and Signature are a thinking block's deltas
		// (thinking_delta, signature_delta).
		Thinking  string `json:"thinking"`
		Signature string `json:"signature"`
	} `json:"delta"`
	Usage usage `json:"usage"`
}

// usage is the token counts of message_start and message_delta.
type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
}

// decode decodes one event's data into e. A field of an unexpected type is
// left empty rather than failing the turn, as the SDK's decoder did; data
// that is not JSON, or not an object, is an error.
func (e *event) decode(data []byte) error {
	err := json.Unmarshal(data, e)
	if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) && te.Field != "" {
		return nil
	}
	return err
}

// assembler builds one turn from its events: message_start (model,
// input usage), content_block_start (text or tool_use with its ID and
// name), content_block_delta (text_delta, input_json_delta fragments),
// message_delta (stop reason, output usage) and message_stop. Thinking
// and redacted_thinking blocks are kept whole, signature and data
// included, since they must go back exactly as they came; blocks of other
// types (server tools) are left out.
type assembler struct {
	blocks   map[int64]*block
	stop     string
	usage    usage
	model    string
	finished bool
	events   int
	// size is the bytes of text, thinking, call IDs, names and arguments
	// received, in every block, for the cap on an answer's size and the
	// idle watch.
	size int
}

type block struct {
	index int64
	kind  string // "text", "tool_use", "thinking" or "redacted_thinking"
	// text is a text block's text or a thinking block's thinking.
	text strings.Builder
	// signature is a thinking block's; data a redacted_thinking block's.
	signature strings.Builder
	data      string
	id        string
	name      string
	// input is the tool_use block's input as content_block_start gave it,
	// used when no input_json_delta follows.
	input json.RawMessage
	args  strings.Builder
}

// add takes one event, calling onDelta for text and for each call that
// starts.
func (a *assembler) add(ev *event, onDelta func(llm.Delta)) {
	a.events++
	cb, d := &ev.ContentBlock, &ev.Delta
	a.size += len(cb.ID) + len(cb.Name) + len(cb.Text) + len(cb.Input) + len(cb.Thinking) + len(cb.Signature) + len(cb.Data) +
		len(d.Text) + len(d.PartialJSON) + len(d.Thinking) + len(d.Signature)
	switch ev.Type {
	case "message_start":
		a.model = ev.Message.Model
		u := ev.Message.Usage
		a.usage.InputTokens = u.InputTokens
		a.usage.CacheReadInputTokens = u.CacheReadInputTokens
		a.usage.CacheCreationInputTokens = u.CacheCreationInputTokens
		a.usage.OutputTokens = u.OutputTokens
	case "content_block_start":
		a.start(ev, onDelta)
	case "content_block_delta":
		b := a.blocks[ev.Index]
		if b == nil {
			return
		}
		switch ev.Delta.Type {
		case "text_delta":
			b.text.WriteString(ev.Delta.Text)
			if ev.Delta.Text != "" {
				onDelta(llm.Delta{Text: ev.Delta.Text})
			}
		case "input_json_delta":
			b.args.WriteString(ev.Delta.PartialJSON)
		case "thinking_delta":
			b.text.WriteString(ev.Delta.Thinking)
			if ev.Delta.Thinking != "" {
				onDelta(llm.Delta{Thinking: ev.Delta.Thinking})
			}
		case "signature_delta":
			b.signature.WriteString(ev.Delta.Signature)
		}
	case "message_delta":
		if ev.Delta.StopReason != "" {
			a.stop = ev.Delta.StopReason
		}
		// message_delta's usage is cumulative; the input counts are
		// only there on some API versions.
		u := ev.Usage
		a.usage.OutputTokens = u.OutputTokens
		if u.InputTokens > 0 {
			a.usage.InputTokens = u.InputTokens
		}
		if u.CacheReadInputTokens > 0 {
			a.usage.CacheReadInputTokens = u.CacheReadInputTokens
		}
		if u.CacheCreationInputTokens > 0 {
			a.usage.CacheCreationInputTokens = u.CacheCreationInputTokens
		}
	case "message_stop":
		a.finished = true
	}
}

// start begins a block of a kind forge keeps.
func (a *assembler) start(ev *event, onDelta func(llm.Delta)) {
	cb := &ev.ContentBlock
	switch cb.Type {
	case "text", "tool_use", "thinking", "redacted_thinking":
	default:
		return
	}
	if a.blocks == nil {
		a.blocks = map[int64]*block{}
	}
	b := &block{index: ev.Index, kind: cb.Type, id: cb.ID, name: cb.Name, data: cb.Data}
	a.blocks[ev.Index] = b
	switch cb.Type {
	case "text":
		if cb.Text != "" {
			b.text.WriteString(cb.Text)
			onDelta(llm.Delta{Text: cb.Text})
		}
	case "tool_use":
		b.input = cb.Input
		onDelta(llm.Delta{ToolName: cb.Name})
	case "thinking":
		b.signature.WriteString(cb.Signature)
		if cb.Thinking != "" {
			b.text.WriteString(cb.Thinking)
			onDelta(llm.Delta{Thinking: cb.Thinking})
		}
	}
}

// response is the assembled turn: the text blocks' text joined, the
// tool_use blocks as calls, in the blocks' order.
func (a *assembler) response() llm.Response {
	blocks := make([]*block, 0, len(a.blocks))
	for _, b := range a.blocks {
		blocks = append(blocks, b)
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].index < blocks[j].index })
	msg := llm.Message{Role: llm.RoleAssistant}
	var text strings.Builder
	for _, b := range blocks {
		switch b.kind {
		case "text":
			text.WriteString(b.text.String())
			continue
		case "thinking":
			msg.Reasoning = append(msg.Reasoning, llm.Reasoning{Provider: llm.ReasoningAnthropic,
				Text: b.text.String(), Signature: b.signature.String()})
			continue
		case "redacted_thinking":
			msg.Reasoning = append(msg.Reasoning, llm.Reasoning{Provider: llm.ReasoningAnthropic, Redacted: b.data})
			continue
		}
		args := b.args.String()
		if strings.TrimSpace(args) == "" {
			args = strings.TrimSpace(string(b.input))
		}
		if args == "" || args == "null" {
			args = "{}"
		}
		id := b.id
		if id == "" {
			// A server that gives no ID still gets each call one, so
			// that results find their calls.
			id = fmt.Sprintf("toolu_%d", len(msg.ToolCalls)+1)
		}
		msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: id, Name: b.name, Arguments: json.RawMessage(args)})
	}
	llm.UniqueCallIDs(msg.ToolCalls)
	msg.Text = text.String()
	stop := stopReason(a.stop)
	if len(msg.ToolCalls) > 0 {
		stop = llm.StopToolUse
	}
	u := a.usage
	return llm.Response{
		Message: msg,
		Stop:    stop,
		Model:   a.model,
		Usage: llm.Usage{
			InputTokens:      u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens,
			OutputTokens:     u.OutputTokens,
			CacheReadTokens:  u.CacheReadInputTokens,
			CacheWriteTokens: u.CacheCreationInputTokens,
		},
	}
}

// stopReason maps a stop_reason.
func stopReason(s string) llm.StopReason {
	switch s {
	case "end_turn", "stop_sequence":
		return llm.StopEnd
	case "tool_use":
		return llm.StopToolUse
	case "max_tokens":
		return llm.StopMaxTokens
	}
	return llm.StopOther
}
