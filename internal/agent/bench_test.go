package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// instantModel answers at once: steps turns that each call a tool, then a
// text, so that a benchmark measures the loop's own work.
type instantModel struct {
	steps int
	n     int
	args  json.RawMessage
}

func (m *instantModel) Stream(_ context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	m.n++
	if m.n%(m.steps+1) == 0 {
		onDelta(llm.Delta{Text: "done"})
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: "done"}, Stop: llm.StopEnd}, nil
	}
	call := llm.ToolCall{ID: "call_1", Name: "noop", Arguments: m.args}
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{call}},
		Stop: llm.StopToolUse, Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}}, nil
}

// BenchmarkLoopStep measures one step of the loop: a model turn that makes
// one call, the call's decision and execution, and its result appended;
// each op is one step (the closing text turn shares the last op's time).
func BenchmarkLoopStep(b *testing.B) {
	reg := tools.NewRegistry()
	noop := testTool{name: "noop", readOnly: true, run: func(context.Context, tools.Args) tools.Result { return tools.OK("ok") }}
	if err := reg.Register(noop); err != nil {
		b.Fatal(err)
	}
	pol, err := permission.New(permission.Config{WorkingDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	const steps = 20
	model := &instantModel{steps: steps, args: json.RawMessage(`{}`)}
	a := New(Config{Model: model, Executor: tools.NewExecutor(reg, tools.WithHistoryCapacity(0)), Policy: pol,
		Exec: tools.NewExecutionContext(b.TempDir()), MaxTurns: steps + 1, LoopDetection: false})
	emit := func(Event) {}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += steps {
		var conv Conversation
		if d := a.Run(context.Background(), &conv, "go", emit); d.Reason != ReasonStop {
			b.Fatalf("done %+v", d)
		}
	}
}
