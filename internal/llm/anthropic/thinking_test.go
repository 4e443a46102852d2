package anthropic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

func TestThinkingFor(t *testing.T) {
	call := []llm.ToolCall{{ID: "t1", Name: "Read", Arguments: json.RawMessage(`{}`)}}
	signed := []llm.Reasoning{{Provider: llm.ReasoningAnthropic, Text: "x", Signature: "s"}}
	midTurn := func(rs []llm.Reasoning) []llm.Message {
		return []llm.Message{{Role: llm.RoleUser, Text: "q"}, {Role: llm.RoleAssistant, Reasoning: rs, ToolCalls: call},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t1"}}}
	}
	prompt := []llm.Message{{Role: llm.RoleUser, Text: "q"}}
	cases := []struct {
		name, model string
		effort      llm.Effort
		msgs        []llm.Message
		want        thinking
	}{
		{"no effort", "claude-sonnet-4-5", "", prompt, thinking{}},
		{"budget low", "claude-sonnet-4-5", llm.EffortLow, prompt, thinking{budget: 2048, effort: "low"}},
		{"budget high, dated", "claude-sonnet-4-5-20250929", llm.EffortHigh, prompt, thinking{budget: 24576, effort: "high"}},
		{"opus 4.1", "claude-opus-4-1", llm.EffortMedium, prompt, thinking{budget: 8192, effort: "medium"}},
		{"adaptive 4.6", "claude-opus-4-6", llm.EffortLow, prompt, thinking{adaptive: true, effort: "low"}},
		{"adaptive sonnet 4.6 dated", "claude-sonnet-4-6-20260101", llm.EffortHigh, prompt, thinking{adaptive: true, effort: "high"}},
		{"adaptive 5", "claude-sonnet-5", llm.EffortMedium, prompt, thinking{adaptive: true, effort: "medium"}},
		{"routed", "anthropic/claude-opus-4-7", llm.EffortMedium, prompt, thinking{adaptive: true, effort: "medium"}},
		{"no thinking model", "claude-3-5-haiku-latest", llm.EffortHigh, prompt, thinking{}},
		{"unknown model gets a budget", "my-proxy-model", llm.EffortLow, prompt, thinking{budget: 2048, effort: "low"}},
		{"mid-turn with thinking", "claude-sonnet-4-5", llm.EffortLow, midTurn(signed), thinking{budget: 2048, effort: "low"}},
		{"mid-turn without", "claude-sonnet-4-5", llm.EffortLow, midTurn(nil), thinking{}},
		{"mid-turn, other provider's", "claude-sonnet-4-5", llm.EffortLow,
			midTurn([]llm.Reasoning{{Provider: llm.ReasoningChat, Text: "x"}}), thinking{}},
	}
	for _, c := range cases {
		if got := thinkingFor(llm.Request{Effort: c.effort, Messages: c.msgs}, c.model); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestThinkingWithToolsOverRounds: with an effort, each request asks for
// thinking (and interleaved thinking); each round's thinking streams as
// thinking deltas, never as text, and its blocks go back with their
// signatures unchanged in every later request, which the fake verifies
// (a changed block is refused as the API refuses it).
func TestThinkingWithToolsOverRounds(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Thinking: []string{"I should read the file first."}, ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path":"a"}`)}}},
		{Thinking: []string{"Now the other one."}, RedactedThinking: []string{"RU5DUllQVEVE"}, Text: "Reading b.",
			ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path":"b"}`)}}},
		{Thinking: []string{"Both read."}, Text: "Done."},
	}})
	m := newModel(t, srv)
	req := user("compare a and b")
	req.Effort = llm.EffortMedium
	req.Tools = []llm.ToolSpec{{Name: "Read", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	var thought, said strings.Builder
	for round := range 3 {
		resp, err := m.Stream(context.Background(), req, func(d llm.Delta) {
			thought.WriteString(d.Thinking)
			said.WriteString(d.Text)
		})
		if err != nil {
			t.Fatalf("round %d: %v", round+1, err)
		}
		req.Messages = append(req.Messages, resp.Message)
		for _, c := range resp.Message.ToolCalls {
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: c.ID, Content: "text of " + c.ID}})
		}
	}
	if thought.String() != "I should read the file first.Now the other one.Both read." || said.String() != "Reading b.Done." {
		t.Errorf("thinking %q, text %q", thought.String(), said.String())
	}
	reqs := srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests", len(reqs))
	}
	for _, r := range reqs {
		if r.Rejected != "" || r.Thinking == nil || r.Thinking.Type != "enabled" || r.Thinking.BudgetTokens != 8192 ||
			r.MaxTokens != DefaultMaxTokens+8192 || r.Header.Get("anthropic-beta") != interleavedBeta {
			t.Errorf("request %d: rejected %q, thinking %+v, max_tokens %d, beta %q", r.N, r.Rejected, r.Thinking, r.MaxTokens, r.Header.Get("anthropic-beta"))
		}
	}
	second := reqs[2].Messages[3]
	if got := dump(second.Reasoning); got != `[{"provider":"anthropic","text":"Now the other one.","signature":"`+
		llmtest.Signature("Now the other one.")+`"},{"provider":"anthropic","redacted":"RU5DUllQVEVE"}]` {
		t.Errorf("round 2's thinking went back as %s", got)
	}

	// A changed thinking block is refused, as the API refuses it.
	req.Messages[1].Reasoning[0].Text += " (edited)"
	srv2 := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "x"}}})
	if _, err := newModel(t, srv2).Stream(context.Background(), req, nil); err == nil ||
		!strings.Contains(err.Error(), "Invalid `signature` in `thinking` block") {
		t.Errorf("an edited block: %v", err)
	}
}

// TestAdaptiveThinkingRequest: a model with adaptive thinking is told
// the effort, not a budget, and gets no beta header.
func TestAdaptiveThinkingRequest(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Thinking: []string{"hm"}, Text: "ok"}}})
	req := user("q")
	req.Model, req.Effort = "claude-opus-4-6", llm.EffortHigh
	resp, err := newModel(t, srv).Stream(context.Background(), req, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Thinking == nil || r.Thinking.Type != "adaptive" || r.Thinking.Display != "summarized" || r.Effort != "high" ||
		r.Header.Get("anthropic-beta") != "" || llm.ReasoningText(resp.Message.Reasoning) != "hm" {
		t.Errorf("thinking %+v, effort %q, beta %q, reasoning %+v", r.Thinking, r.Effort, r.Header.Get("anthropic-beta"), resp.Message.Reasoning)
	}
}
