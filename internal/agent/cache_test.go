package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/anthropic"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/llm/openai"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// cachedRun is a 20-step run (a Read of a file each step, the built-in
// tools offered) against a fake whose usage is what the providers' prompt
// caches would report; it returns the run's usage.
func cachedRun(tb testing.TB, wire llmtest.Wire) llm.Usage {
	tb.Helper()
	srv := llmtest.NewServer(tb, llmtest.Script{PromptCache: true, RepeatLast: true, Turns: []llmtest.Turn{
		{ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path": "notes.txt"}`)}}},
	}})
	var model llm.Model
	var err error
	switch wire {
	case llmtest.Anthropic:
		model, err = anthropic.New(anthropic.Config{BaseURL: srv.AnthropicURL(), APIKey: "k", Model: "m", MaxRetries: -1})
	case llmtest.Responses:
		model, err = openai.New(openai.Config{BaseURL: srv.OpenAIURL(), Model: "m", API: openai.APIResponses, MaxRetries: -1})
	default:
		model, err = openai.New(openai.Config{BaseURL: srv.OpenAIURL(), Model: "m", MaxRetries: -1})
	}
	if err != nil {
		tb.Fatal(err)
	}
	reg := tools.NewRegistry()
	if err := builtin.Register(reg); err != nil {
		tb.Fatal(err)
	}
	dir := tb.TempDir()
	pol, _ := permission.New(permission.Config{WorkingDir: dir})
	system, _ := SystemPrompt(PromptInfo{WorkingDir: dir, OS: "linux"})
	a := New(Config{Model: model, Executor: tools.NewExecutor(reg), Policy: pol, Exec: tools.NewExecutionContext(dir),
		MaxTurns: 20, LoopDetection: false, System: system})
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(strings.Repeat("a line of notes to read\n", 40)), 0o644); err != nil {
		tb.Fatal(err)
	}
	var conv Conversation
	d := a.Run(context.Background(), &conv, "read the notes again and again", func(Event) {})
	if d.Reason != ReasonMaxTurns {
		tb.Fatalf("done %+v", d)
	}
	for _, r := range srv.Requests() {
		if r.Rejected != "" {
			tb.Fatal(r.Rejected)
		}
	}
	return d.Usage
}

// TestPromptCacheShare: over a 20-step run, most of the input is read from
// the providers' prompt caches: on Anthropic's wire because forge's
// breakpoints sit on the tools, the system prompt and the moving end of
// the conversation; on OpenAI's because each request extends the last.
func TestPromptCacheShare(t *testing.T) {
	for _, wire := range []llmtest.Wire{llmtest.Anthropic, llmtest.OpenAI, llmtest.Responses} {
		u := cachedRun(t, wire)
		share := float64(u.CacheReadTokens) / float64(u.InputTokens)
		if share < 0.75 {
			t.Errorf("%s: %.0f%% of %d input tokens cached (%d written)", wire, 100*share, u.InputTokens, u.CacheWriteTokens)
		}
	}
}

// BenchmarkPromptCacheShare reports the share of a 20-step run's input
// tokens the fake's simulated prompt caches report as cached
// (cached-%), per wire.
func BenchmarkPromptCacheShare(b *testing.B) {
	for _, wire := range []llmtest.Wire{llmtest.Anthropic, llmtest.OpenAI, llmtest.Responses} {
		b.Run(string(wire), func(b *testing.B) {
			var u llm.Usage
			for range b.N {
				u = cachedRun(b, wire)
			}
			b.ReportMetric(100*float64(u.CacheReadTokens)/float64(u.InputTokens), "cached-%")
			b.ReportMetric(float64(u.InputTokens), "input-tokens")
		})
	}
}
