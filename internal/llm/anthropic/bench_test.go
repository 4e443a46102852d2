package anthropic

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

// benchTurn is a typical long answer: 200 text pieces and 2 tool calls.
func benchTurn() llmtest.Turn {
	chunks := make([]string, 200)
	for i := range chunks {
		chunks[i] = fmt.Sprintf("word%d ", i)
	}
	return llmtest.Turn{Chunks: chunks, ToolCalls: []llmtest.ToolCall{
		{Name: "Read", Arguments: json.RawMessage(`{"file_path":"/home/user/project/internal/app/main.go","offset":120,"limit":80}`)},
		{Name: "Grep", Arguments: json.RawMessage(`{"pattern":"func (m \\*Model) Stream","path":"/home/user/project","glob":"**/*.go"}`)},
	}}
}

// BenchmarkStream is one whole turn through HTTP from a local server:
// request, SSE decoding by the SDK and assembly.
func BenchmarkStream(b *testing.B) {
	srv := llmtest.NewServer(b, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{benchTurn()}})
	m := newModel(b, srv)
	req := user("go")
	b.ReportAllocs()
	for b.Loop() {
		resp, err := m.Stream(context.Background(), req, func(llm.Delta) {})
		if err != nil || len(resp.Message.ToolCalls) != 2 {
			b.Fatal(err)
		}
	}
}

// BenchmarkAssemble is the assembly alone, on events already decoded.
func BenchmarkAssemble(b *testing.B) {
	var events []event
	add := func(raw string) {
		var ev event
		if err := ev.decode([]byte(raw)); err != nil {
			b.Fatal(err)
		}
		events = append(events, ev)
	}
	add(`{"type":"message_start","message":{"model":"m","usage":{"input_tokens":10,"output_tokens":1}}}`)
	add(`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	for i := range 200 {
		add(fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"word%d "}}`, i))
	}
	add(`{"type":"content_block_stop","index":0}`)
	for i, name := range []string{"Read", "Grep"} {
		add(fmt.Sprintf(`{"type":"content_block_start","index":%d,"content_block":{"type":"tool_use","id":"toolu_%d","name":%q,"input":{}}}`, i+1, i, name))
		for _, frag := range []string{`{"file_pa`, `th":"/home/`, `user/main`, `.go","lim`, `it":80}`} {
			add(fmt.Sprintf(`{"type":"content_block_delta","index":%d,"delta":{"type":"input_json_delta","partial_json":%q}}`, i+1, frag))
		}
		add(fmt.Sprintf(`{"type":"content_block_stop","index":%d}`, i+1))
	}
	add(`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":300}}`)
	add(`{"type":"message_stop"}`)
	b.ReportAllocs()
	for b.Loop() {
		var a assembler
		for i := range events {
			a.add(&events[i], func(llm.Delta) {})
		}
		if r := a.response(); len(r.Message.ToolCalls) != 2 || !strings.HasPrefix(r.Message.Text, "word0") {
			b.Fatal(r)
		}
	}
}
