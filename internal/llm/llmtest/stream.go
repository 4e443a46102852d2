package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// sse collects a stream's events.
type sse struct{ bytes.Buffer }

// data writes a data-only event (OpenAI).
func (b *sse) data(v any) {
	out, err := json.Marshal(v)
	if err != nil {
		panic(err) // the values are the package's own maps
	}
	fmt.Fprintf(b, "data: %s\n\n", out)
}

// event writes a named event (Anthropic).
func (b *sse) event(name string, v any) {
	out, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(b, "event: %s\ndata: %s\n\n", name, out)
}

type obj = map[string]any

func (t Turn) model(req *Request) string {
	switch {
	case t.Model != "":
		return t.Model
	case req.Model != "":
		return req.Model
	}
	return "llmtest-model"
}

// openAIStream is the turn as Chat Completions chunks: a role chunk, the
// text pieces, the tool calls (id and name in the first fragment, the
// arguments in several), the finish_reason, the usage when the request
// asked for it, and [DONE]. With Stall, Endless or KeepAlive the end is
// left out; with
// StreamError an error data line replaces it.
func (s *Server) openAIStream(req *Request, t Turn) []byte {
	var b sse
	id := fmt.Sprintf("chatcmpl-llmtest-%d", req.N)
	model := t.model(req)
	chunk := func(delta obj, finish any) obj {
		return obj{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model,
			"choices": []obj{{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}
	}
	b.data(chunk(obj{"role": "assistant", "content": ""}, nil))
	field := "reasoning_content"
	if t.Quirks.ReasoningField != "" {
		field = t.Quirks.ReasoningField
	}
	for _, text := range t.Thinking {
		for _, p := range splitWords(text) {
			b.data(chunk(obj{field: p}, nil))
		}
	}
	for _, p := range t.pieces() {
		b.data(chunk(obj{"content": p}, nil))
	}
	ids := s.callIDs(t, "call_")
	for i, c := range t.ToolCalls {
		index := i
		if t.Quirks.IndexZero {
			index = 0
		}
		args := c.arguments()
		if t.Quirks.WholeCalls {
			b.data(chunk(obj{"tool_calls": []obj{{"index": index, "id": ids[i], "type": "function",
				"function": obj{"name": c.Name, "arguments": args}}}}, nil))
			continue
		}
		b.data(chunk(obj{"tool_calls": []obj{{"index": index, "id": ids[i], "type": "function",
			"function": obj{"name": c.Name, "arguments": ""}}}}, nil))
		for _, frag := range splitArgs(args) {
			b.data(chunk(obj{"tool_calls": []obj{{"index": index, "function": obj{"arguments": frag}}}}, nil))
		}
	}
	switch {
	case t.open():
		return b.Bytes()
	case t.StreamError != nil:
		typ := t.StreamError.Type
		if typ == "" {
			typ = errorType(t.StreamError.Status)
		}
		b.data(obj{"error": obj{"message": t.StreamError.Message, "type": typ, "code": nil, "param": nil}})
		return b.Bytes()
	}
	stop := t.Stop
	if stop == "" {
		stop = "stop"
		if len(t.ToolCalls) > 0 {
			stop = "tool_calls"
		}
	}
	b.data(chunk(obj{}, stop))
	if req.IncludeUsage && !t.Quirks.NoUsage {
		u := t.Usage.orDefault()
		prompt := u.Input + u.CacheRead + u.CacheWrite
		b.data(obj{"id": id, "object": "chat.completion.chunk", "created": 1700000000, "model": model, "choices": []obj{},
			"usage": obj{"prompt_tokens": prompt, "completion_tokens": u.Output, "total_tokens": prompt + u.Output,
				"prompt_tokens_details": obj{"cached_tokens": u.CacheRead}}})
	}
	b.WriteString("data: [DONE]\n\n")
	return b.Bytes()
}

// anthropicStream is the turn as Messages events: message_start with the
// input usage, a text block (text_delta pieces), a tool_use block per
// call (input_json_delta fragments), message_delta with the stop reason
// and output usage, and message_stop; a ping after the first block's
// start, as the API sends. With Stall, Endless or KeepAlive the end is
// left out; with
// StreamError an error event replaces it.
func (s *Server) anthropicStream(req *Request, t Turn) []byte {
	var b sse
	u := t.Usage.orDefault()
	b.event("message_start", obj{"type": "message_start", "message": obj{
		"id": fmt.Sprintf("msg_llmtest_%d", req.N), "type": "message", "role": "assistant", "model": t.model(req),
		"content": []obj{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": obj{"input_tokens": u.Input, "cache_read_input_tokens": u.CacheRead,
			"cache_creation_input_tokens": u.CacheWrite, "output_tokens": 1}}})
	index := anthropicThinking(&b, t, 0)
	if pieces := t.pieces(); len(pieces) > 0 {
		b.event("content_block_start", obj{"type": "content_block_start", "index": index, "content_block": obj{"type": "text", "text": ""}})
		b.event("ping", obj{"type": "ping"})
		for _, p := range pieces {
			b.event("content_block_delta", obj{"type": "content_block_delta", "index": index, "delta": obj{"type": "text_delta", "text": p}})
		}
		b.event("content_block_stop", obj{"type": "content_block_stop", "index": index})
		index++
	}
	ids := s.callIDs(t, "toolu_")
	for i, c := range t.ToolCalls {
		b.event("content_block_start", obj{"type": "content_block_start", "index": index,
			"content_block": obj{"type": "tool_use", "id": ids[i], "name": c.Name, "input": obj{}}})
		b.event("content_block_delta", obj{"type": "content_block_delta", "index": index, "delta": obj{"type": "input_json_delta", "partial_json": ""}})
		for _, frag := range splitArgs(c.arguments()) {
			b.event("content_block_delta", obj{"type": "content_block_delta", "index": index, "delta": obj{"type": "input_json_delta", "partial_json": frag}})
		}
		b.event("content_block_stop", obj{"type": "content_block_stop", "index": index})
		index++
	}
	switch {
	case t.open():
		return b.Bytes()
	case t.StreamError != nil:
		typ := t.StreamError.Type
		if typ == "" {
			typ = errorType(t.StreamError.Status)
		}
		b.event("error", obj{"type": "error", "error": obj{"type": typ, "message": t.StreamError.Message}})
		return b.Bytes()
	}
	stop := t.Stop
	if stop == "" {
		stop = "end_turn"
		if len(t.ToolCalls) > 0 {
			stop = "tool_use"
		}
	}
	b.event("message_delta", obj{"type": "message_delta", "delta": obj{"stop_reason": stop, "stop_sequence": nil},
		"usage": obj{"output_tokens": u.Output}})
	b.event("message_stop", obj{"type": "message_stop"})
	return b.Bytes()
}
