//go:build unix

package render_test

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// commandModel asks for one Bash command, then ends.
type commandModel struct {
	command string
	n       int
}

func (m *commandModel) Stream(context.Context, llm.Request, func(llm.Delta)) (llm.Response, error) {
	m.n++
	if m.n%2 == 0 {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Text: "done"}, Stop: llm.StopEnd}, nil
	}
	args, _ := json.Marshal(map[string]string{"command": m.command})
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant,
		ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "Bash", Arguments: args}}}, Stop: llm.StopToolUse}, nil
}

// BenchmarkCommandWatched runs a command that prints 100,000 lines through
// the agent and Bash, shown by the text view: on a pipe (no live view),
// and on a terminal, where every piece of output goes to the live area.
// The difference is what watching a command costs it.
func BenchmarkCommandWatched(b *testing.B) {
	for _, tc := range []struct {
		name     string
		terminal bool
	}{{"pipe", false}, {"terminal", true}} {
		b.Run(tc.name, func(b *testing.B) {
			reg := tools.NewRegistry()
			if err := builtin.Register(reg); err != nil {
				b.Fatal(err)
			}
			defer reg.Close()
			pol, err := permission.New(permission.Config{Mode: permission.ModeYolo, WorkingDir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			a := agent.New(agent.Config{Model: &commandModel{command: "seq 1 100000"}, Executor: tools.NewExecutor(reg),
				Policy: pol, Exec: tools.NewExecutionContext(b.TempDir())})
			p := render.NewText(render.TextOptions{Out: io.Discard, Err: io.Discard, Terminal: tc.terminal,
				Renderer: render.New(render.Options{Width: 100})})
			for b.Loop() {
				v := p.Run(render.RunInfo{}, render.RunOptions{Lookup: reg.Get})
				var conv agent.Conversation
				if d := a.Run(context.Background(), &conv, "count", v.Event); d.Reason != agent.ReasonStop {
					b.Fatalf("done %+v", d)
				}
				v.Close()
			}
		})
	}
}

// BenchmarkLiveOutput is the view's own share: 100,000 lines of output
// events, in pieces as a pipe delivers a fast command's output (4 KiB)
// and one line at a time (a command that flushes each line).
func BenchmarkLiveOutput(b *testing.B) {
	var piece []byte
	for len(piece) < 4096 {
		piece = append(piece, "ok   github.com/forgehq/forge/internal/x 0.1s\n"...)
	}
	lines := 100_000
	perPiece := 0
	for _, c := range piece {
		if c == '\n' {
			perPiece++
		}
	}
	for _, tc := range []struct {
		name   string
		text   string
		pieces int
	}{
		{"4KiB_pieces", string(piece), lines / perPiece},
		{"line_by_line", "ok   github.com/forgehq/forge/internal/x 0.1s\n", lines},
	} {
		b.Run(tc.name, func(b *testing.B) {
			p := render.NewText(render.TextOptions{Out: io.Discard, Err: io.Discard, Terminal: true,
				Renderer: render.New(render.Options{Width: 100})})
			call := &agent.Call{ID: "c1", Name: "Bash"}
			for b.Loop() {
				v := p.Run(render.RunInfo{}, render.RunOptions{})
				v.Event(agent.Event{Type: agent.EventToolStart, Call: call})
				for range tc.pieces {
					v.Event(agent.Event{Type: agent.EventToolOutput, Call: call, Text: tc.text})
				}
				v.Event(agent.Event{Type: agent.EventToolResult, Call: call,
					Result: &agent.CallResult{Status: agent.StatusSuccess, Output: tc.text}})
				v.Close()
			}
		})
	}
}
