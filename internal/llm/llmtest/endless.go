package llmtest

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// endlessKinds are the values of Turn.Endless.
var endlessKinds = []string{"text", "arguments", "thinking"}

// keepAliveEvery is how often a KeepAlive turn sends a keep-alive.
const keepAliveEvery = 5 * time.Millisecond

// open reports whether the turn's stream is written without its end.
func (t Turn) open() bool { return t.Stall || t.Endless != "" || t.KeepAlive }

// endless writes, after the turn's opening, what an Endless or KeepAlive
// turn repeats, until the client goes away or the server closes; then it
// drops the connection.
func (s *Server) endless(w http.ResponseWriter, r *http.Request, req *Request, t Turn) {
	flusher, _ := w.(http.Flusher)
	start, repeat := endlessEvents(req, t)
	if _, err := w.Write(start); err != nil {
		return
	}
	var tick <-chan time.Time
	if t.KeepAlive {
		ticker := time.NewTicker(keepAliveEvery)
		defer ticker.Stop()
		tick = ticker.C
	}
	for i := 0; ; i++ {
		if tick != nil {
			select {
			case <-tick:
			case <-r.Context().Done():
				panic(http.ErrAbortHandler)
			case <-s.closing:
				panic(http.ErrAbortHandler)
			}
		}
		if _, err := w.Write(repeat[i%len(repeat)]); err != nil {
			return
		}
		flusher.Flush()
		select {
		case <-s.closing:
			panic(http.ErrAbortHandler)
		default:
		}
	}
}

// endlessPiece is what each event of an Endless turn carries: 1 KiB.
var endlessPiece = strings.Repeat("all work and no play ", 52)[:1024]

// endlessEvents are the events an Endless or KeepAlive turn opens with
// (a block or call to stream into) and those it repeats, on req's wire.
func endlessEvents(req *Request, t Turn) (start []byte, repeat [][]byte) {
	var b sse
	if req.Wire == OpenAI {
		chunk := func(delta obj) []byte {
			b.Reset()
			b.data(obj{"id": fmt.Sprintf("chatcmpl-llmtest-%d", req.N), "object": "chat.completion.chunk",
				"created": 1700000000, "model": t.model(req), "choices": []obj{{"index": 0, "delta": delta, "finish_reason": nil}}})
			return append([]byte(nil), b.Bytes()...)
		}
		switch t.Endless {
		case "text":
			return nil, [][]byte{chunk(obj{"content": endlessPiece})}
		case "thinking":
			return nil, [][]byte{chunk(obj{"reasoning_content": endlessPiece})}
		case "arguments":
			start = chunk(obj{"tool_calls": []obj{{"index": 0, "id": "call_endless", "type": "function",
				"function": obj{"name": "Write", "arguments": `{"content":"`}}}})
			return start, [][]byte{chunk(obj{"tool_calls": []obj{{"index": 0, "function": obj{"arguments": endlessPiece}}}})}
		}
		empty := []byte(`data: {"id":"keepalive","object":"chat.completion.chunk","choices":[]}` + "\n\n")
		return nil, [][]byte{[]byte(": ping\n\n"), chunk(obj{}), empty}
	}
	event := func(name string, v obj) []byte {
		b.Reset()
		b.event(name, v)
		return append([]byte(nil), b.Bytes()...)
	}
	const index = 9 // after any block of the turn's own
	delta := func(d obj) [][]byte {
		return [][]byte{event("content_block_delta", obj{"type": "content_block_delta", "index": index, "delta": d})}
	}
	blockStart := func(cb obj) []byte {
		return event("content_block_start", obj{"type": "content_block_start", "index": index, "content_block": cb})
	}
	switch t.Endless {
	case "text":
		return blockStart(obj{"type": "text", "text": ""}), delta(obj{"type": "text_delta", "text": endlessPiece})
	case "thinking":
		return blockStart(obj{"type": "thinking", "thinking": ""}), delta(obj{"type": "thinking_delta", "thinking": endlessPiece})
	case "arguments":
		return blockStart(obj{"type": "tool_use", "id": "toolu_endless", "name": "Write", "input": obj{}}),
			delta(obj{"type": "input_json_delta", "partial_json": endlessPiece})
	}
	return nil, [][]byte{event("ping", obj{"type": "ping"}), []byte(": keep-alive\n\n")}
}
