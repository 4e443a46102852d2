package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/anthropic"
	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/llm/openai"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// BenchmarkStepOverHTTP measures a step as forge lives it: the request
// built and sent through the provider's SDK to a local fake server that
// answers at once with one call, the stream read, the call run (Glob, in an
// empty directory), with the built-in tools offered. Each op is one step;
// the conversation grows to 20 steps and starts again.
func BenchmarkStepOverHTTP(b *testing.B) {
	for _, wire := range []llmtest.Wire{llmtest.OpenAI, llmtest.Anthropic} {
		b.Run(string(wire), func(b *testing.B) {
			srv := llmtest.NewServer(b, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{{Name: "Glob", Arguments: json.RawMessage(`{"pattern": "*.go"}`)}}},
			}})
			var model llm.Model
			var err error
			if wire == llmtest.OpenAI {
				model, err = openai.New(openai.Config{BaseURL: srv.OpenAIURL(), Model: "m", MaxRetries: -1})
			} else {
				model, err = anthropic.New(anthropic.Config{BaseURL: srv.AnthropicURL(), APIKey: "k", Model: "m", MaxRetries: -1})
			}
			if err != nil {
				b.Fatal(err)
			}
			reg := tools.NewRegistry()
			if err := builtin.Register(reg); err != nil {
				b.Fatal(err)
			}
			dir := b.TempDir()
			pol, _ := permission.New(permission.Config{WorkingDir: dir})
			const steps = 20
			system, _ := SystemPrompt(PromptInfo{WorkingDir: dir, OS: "linux"})
			a := New(Config{Model: model, Executor: tools.NewExecutor(reg), Policy: pol, Exec: tools.NewExecutionContext(dir),
				MaxTurns: steps, System: system})
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += steps {
				var conv Conversation
				if d := a.Run(context.Background(), &conv, "go", func(Event) {}); d.Reason != ReasonMaxTurns {
					b.Fatalf("done %+v", d)
				}
			}
		})
	}
}
