package llmtest

import (
	"fmt"
	"slices"
)

// responsesStream is the turn as Responses events, numbered: created and
// in_progress; a reasoning item for each piece of Thinking (its summary
// streamed, its encrypted content on output_item.done when the request
// included it); a message item with the text (output_text deltas); a
// function_call item per call (arguments deltas); and completed with the
// usage (or incomplete, for a Stop of "max_output_tokens"). With
// StreamError an error event replaces the end; Stall leaves it out.
func (s *Server) responsesStream(req *Request, t Turn) []byte {
	var b sse
	seq := 0
	ev := func(typ string, v obj) {
		v["type"], v["sequence_number"] = typ, seq
		seq++
		b.event(typ, v)
	}
	id, model := fmt.Sprintf("resp_llmtest_%d", req.N), t.model(req)
	resp := func(status string) obj {
		return obj{"id": id, "object": "response", "created_at": 1700000000, "model": model, "status": status, "output": []obj{}}
	}
	ev("response.created", obj{"response": resp("in_progress")})
	ev("response.in_progress", obj{"response": resp("in_progress")})
	var output []obj
	index := 0
	for i, text := range t.Thinking {
		item := obj{"type": "reasoning", "id": fmt.Sprintf("rs_%d_%d", req.N, i), "summary": []obj{}}
		ev("response.output_item.added", obj{"output_index": index, "item": item})
		ev("response.reasoning_summary_part.added", obj{"item_id": item["id"], "output_index": index, "summary_index": 0, "part": obj{"type": "summary_text", "text": ""}})
		for _, p := range splitWords(text) {
			ev("response.reasoning_summary_text.delta", obj{"item_id": item["id"], "output_index": index, "summary_index": 0, "delta": p})
		}
		ev("response.reasoning_summary_text.done", obj{"item_id": item["id"], "output_index": index, "summary_index": 0, "text": text})
		ev("response.reasoning_summary_part.done", obj{"item_id": item["id"], "output_index": index, "summary_index": 0, "part": obj{"type": "summary_text", "text": text}})
		item["summary"] = []obj{{"type": "summary_text", "text": text}}
		if slices.Contains(req.Include, "reasoning.encrypted_content") {
			item["encrypted_content"] = Encrypted(text)
		}
		ev("response.output_item.done", obj{"output_index": index, "item": item})
		output = append(output, item)
		index++
	}
	if pieces := t.pieces(); len(pieces) > 0 {
		mid := fmt.Sprintf("msg_%d", req.N)
		ev("response.output_item.added", obj{"output_index": index, "item": obj{"type": "message", "id": mid, "role": "assistant", "status": "in_progress", "content": []obj{}}})
		ev("response.content_part.added", obj{"item_id": mid, "output_index": index, "content_index": 0, "part": obj{"type": "output_text", "text": "", "annotations": []obj{}}})
		text := ""
		for _, p := range pieces {
			text += p
			ev("response.output_text.delta", obj{"item_id": mid, "output_index": index, "content_index": 0, "delta": p})
		}
		ev("response.output_text.done", obj{"item_id": mid, "output_index": index, "content_index": 0, "text": text})
		part := obj{"type": "output_text", "text": text, "annotations": []obj{}}
		ev("response.content_part.done", obj{"item_id": mid, "output_index": index, "content_index": 0, "part": part})
		item := obj{"type": "message", "id": mid, "role": "assistant", "status": "completed", "content": []obj{part}}
		ev("response.output_item.done", obj{"output_index": index, "item": item})
		output = append(output, item)
		index++
	}
	ids := s.callIDs(t, "call_")
	for i, c := range t.ToolCalls {
		fid := fmt.Sprintf("fc_%d_%d", req.N, i)
		ev("response.output_item.added", obj{"output_index": index, "item": obj{"type": "function_call", "id": fid, "call_id": ids[i], "name": c.Name, "arguments": "", "status": "in_progress"}})
		for _, frag := range splitArgs(c.arguments()) {
			ev("response.function_call_arguments.delta", obj{"item_id": fid, "output_index": index, "delta": frag})
		}
		ev("response.function_call_arguments.done", obj{"item_id": fid, "output_index": index, "arguments": c.arguments()})
		item := obj{"type": "function_call", "id": fid, "call_id": ids[i], "name": c.Name, "arguments": c.arguments(), "status": "completed"}
		ev("response.output_item.done", obj{"output_index": index, "item": item})
		output = append(output, item)
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
		ev("error", obj{"code": typ, "message": t.StreamError.Message, "param": nil})
		return b.Bytes()
	}
	u := t.Usage.orDefault()
	input := u.Input + u.CacheRead + u.CacheWrite
	final := resp("completed")
	final["output"] = output
	final["usage"] = obj{"input_tokens": input, "input_tokens_details": obj{"cached_tokens": u.CacheRead},
		"output_tokens": u.Output, "output_tokens_details": obj{"reasoning_tokens": 0}, "total_tokens": input + u.Output}
	end := "response.completed"
	if t.Stop == "max_output_tokens" {
		end, final["status"] = "response.incomplete", "incomplete"
		final["incomplete_details"] = obj{"reason": "max_output_tokens"}
	}
	ev(end, obj{"response": final})
	return b.Bytes()
}
