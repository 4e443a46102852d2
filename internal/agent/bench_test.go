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

// summaryModel writes its summary at once, so that BenchmarkCompact
// measures compaction's own work.
type summaryModel struct{}

func (summaryModel) Stream(context.Context, llm.Request, func(llm.Delta)) (llm.Response, error) {
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: "SUMMARY: the work so far."},
		Usage: llm.Usage{InputTokens: 100_000, OutputTokens: 500}}, nil
}

// BenchmarkCompact compacts a conversation of 200 tool rounds (about
// 160,000 tokens, 640 KB) for a 200,000-token window: choosing the kept
// turns, writing the transcript in pieces, replacing the conversation.
func BenchmarkCompact(b *testing.B) {
	var msgs []llm.Message
	output := string(make([]byte, 3000))
	for i := range 200 {
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c", Name: "Read", Arguments: json.RawMessage(`{"file_path":"a.go"}`)}}},
			llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c", Name: "Read", Content: output}})
		if i%20 == 0 {
			msgs = append(msgs, llm.Message{Role: llm.RoleUser, Text: "next step"})
		}
	}
	msgs = append([]llm.Message{{Role: llm.RoleUser, Text: "begin"}}, msgs...)
	a := New(Config{Model: summaryModel{}, Executor: tools.NewExecutor(tools.NewRegistry()), ContextWindow: 200_000})
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		conv := Conversation{Messages: append([]llm.Message(nil), msgs...)}
		if _, err := a.Compact(context.Background(), &conv, func(Event) {}); err != nil {
			b.Fatal(err)
		}
	}
}
