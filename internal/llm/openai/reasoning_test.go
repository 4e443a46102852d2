package openai

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

// A compatible server's thinking (DeepSeek's and vLLM's reasoning_content,
// Ollama's and OpenRouter's reasoning) streams as thinking, never as text;
// it is kept with the message and goes back, in the field it came in,
// with the tool rounds of the turn under way, which DeepSeek's thinking
// mode requires (the fake refuses a round without it), and not with the
// turns gone by. The effort goes as reasoning_effort.
func TestReasoningContentOverRounds(t *testing.T) {
	for _, field := range []string{"reasoning_content", "reasoning"} {
		t.Run(field, func(t *testing.T) {
			quirks := llmtest.Quirks{ReasoningField: field}
			srv := llmtest.NewServer(t, llmtest.Script{RequireReasoning: true, Turns: []llmtest.Turn{
				{Thinking: []string{"Read it first."}, Quirks: quirks, ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path":"a"}`)}}},
				{Thinking: []string{"Now b."}, Quirks: quirks, ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path":"b"}`)}}},
				{Thinking: []string{"Done thinking."}, Quirks: quirks, Text: "Both are fine."},
				{Thinking: []string{"Next prompt."}, Quirks: quirks, Text: "Yes."},
			}})
			m := newModel(t, srv)
			req := user("check a and b")
			req.Effort = llm.EffortLow
			req.Tools = []llm.ToolSpec{{Name: "Read", InputSchema: json.RawMessage(`{"type":"object"}`)}}
			var thought, said strings.Builder
			step := func() {
				t.Helper()
				resp, err := m.Stream(context.Background(), req, func(d llm.Delta) {
					thought.WriteString(d.Thinking)
					said.WriteString(d.Text)
				})
				if err != nil {
					t.Fatal(err)
				}
				req.Messages = append(req.Messages, resp.Message)
				for _, c := range resp.Message.ToolCalls {
					req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: c.ID, Content: "ok"}})
				}
			}
			for range 3 {
				step()
			}
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Text: "sure?"})
			step()
			if thought.String() != "Read it first.Now b.Done thinking.Next prompt." || said.String() != "Both are fine.Yes." {
				t.Errorf("thinking %q, text %q", thought.String(), said.String())
			}
			reqs := srv.Requests()
			for _, r := range reqs {
				if r.Rejected != "" || r.Effort != "low" {
					t.Fatalf("request %d: rejected %q, effort %q", r.N, r.Rejected, r.Effort)
				}
			}
			third := reqs[2]
			if got := dump(third.Messages[1].Reasoning); got != `[{"provider":"chat","text":"Read it first.","field":"`+field+`"}]` {
				t.Errorf("round 1's thinking went back as %s", got)
			}
			// After the next prompt, the last turn's thinking stays home.
			for _, msg := range reqs[3].Messages {
				if len(msg.Reasoning) > 0 {
					t.Errorf("a past turn's thinking was sent: %+v", msg.Reasoning)
				}
			}
		})
	}
}

// OpenAI's own API is never sent a compatible server's thinking, and a
// model known not to reason is not sent an effort.
func TestReasoningNotForOpenAI(t *testing.T) {
	req := llm.Request{Model: "gpt-4o", Effort: llm.EffortHigh, Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "q"},
		{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningChat, Text: "hm", Field: "reasoning_content"}},
			ToolCalls: []llm.ToolCall{{ID: "c1", Name: "Read", Arguments: json.RawMessage(`{}`)}}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: "x"}},
	}}
	m, err := New(Config{APIKey: "k", Model: "gpt-5"})
	if err != nil {
		t.Fatal(err)
	}
	body, err := m.body(req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(body), "reasoning") {
		t.Errorf("sent to OpenAI: %s", body)
	}
}
