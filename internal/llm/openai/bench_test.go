package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"

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
	var chunks []openai.ChatCompletionChunk
	add := func(raw string) {
		var c openai.ChatCompletionChunk
		if err := json.Unmarshal([]byte(raw), &c); err != nil {
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
