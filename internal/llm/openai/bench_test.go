package openai

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

// BenchmarkAssemble is the assembly alone, on chunks already decoded.
func BenchmarkAssemble(b *testing.B) {
	var chunks []chunk
	add := func(raw string) {
		var c chunk
		if err := c.decode([]byte(raw)); err != nil {
			b.Fatal(err)
		}
		chunks = append(chunks, c)
	}
	for i := range 200 {
		add(fmt.Sprintf(`{"model":"m","choices":[{"index":0,"delta":{"content":"word%d "}}]}`, i))
	}
	for i, name := range []string{"Read", "Grep"} {
		add(fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"call_%d","type":"function","function":{"name":%q,"arguments":""}}]}}]}`, i, i, name))
		for _, frag := range []string{`{"file_pa`, `th":"/home/`, `user/main`, `.go","lim`, `it":80}`} {
			add(fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":%q}}]}}]}`, i, frag))
		}
	}
	add(`{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":10,"completion_tokens":5}}`)
	b.ReportAllocs()
	for b.Loop() {
		var a assembler
		for i := range chunks {
			a.add(&chunks[i], func(llm.Delta) {})
		}
		if r := a.response(); len(r.Message.ToolCalls) != 2 || !strings.HasPrefix(r.Message.Text, "word0") {
			b.Fatal(r)
		}
	}
}

// streamChunks are the events of a typical tool-call turn, as OpenAI sends
// them.
var streamChunks = []string{
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"Glob","arguments":""}}]},"logprobs":null,"finish_reason":null}]}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"pattern\""}}]},"logprobs":null,"finish_reason":null}]}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":": \"*.go\"}"}}]},"logprobs":null,"finish_reason":null}]}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}`,
	`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-test","choices":[],"usage":{"prompt_tokens":3500,"completion_tokens":20,"total_tokens":3520,"prompt_tokens_details":{"cached_tokens":3000}}}`,
}

// BenchmarkDecodeChunks is the decoding of a tool-call turn's events, as
// the stream does it.
func BenchmarkDecodeChunks(b *testing.B) {
	raw := make([][]byte, len(streamChunks))
	for i, s := range streamChunks {
		raw[i] = []byte(s)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range raw {
			var c chunk
			if err := c.decode(r); err != nil {
				b.Fatal(err)
			}
		}
	}
}
