package render

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
)

// runText shows events through the text printer and returns its output
// and its error stream.
func runText(terminal bool, events ...agent.Event) (out, errs string) {
	var o, e bytes.Buffer
	p := NewText(TextOptions{Out: &o, Err: &e, Terminal: terminal, Renderer: New(Options{Width: 60})})
	v := p.Run(RunInfo{}, RunOptions{})
	for _, ev := range events {
		v.Event(ev)
	}
	v.Close()
	return o.String(), e.String()
}

func TestRunViewFinalAnswer(t *testing.T) {
	summary := "## Done\n\nI changed three things:\n\n- fixed the greeting\n- added a test"
	completion := &agent.Call{ID: "c1", Name: "task_completion", ReadOnly: true}
	for _, tc := range []struct {
		name     string
		terminal bool
		events   []agent.Event
		want     []string
		wantOnce string
	}{
		{
			name: "a streamed answer is shown once", terminal: true,
			events: []agent.Event{
				{Type: agent.EventTextDelta, Text: "All good.\n"},
				{Type: agent.EventText, Text: "All good."},
				{Type: agent.EventDone, Done: &agent.Done{Reason: agent.ReasonStop, Text: "All good.", Turns: 1}},
			},
			want: []string{"All good."}, wantOnce: "All good.",
		},
		{
			name: "a loop-breaking tool's summary is the answer, rendered in full", terminal: true,
			events: []agent.Event{
				{Type: agent.EventToolCall, Call: completion},
				{Type: agent.EventToolResult, Call: completion, Result: &agent.CallResult{Status: agent.StatusSuccess, Output: summary,
					Result: tools.Result{Success: true, Status: tools.StatusSuccess, Output: summary, Metadata: map[string]any{"loop_breaking": true}}}},
				{Type: agent.EventDone, Done: &agent.Done{Reason: agent.ReasonStop, Text: summary, Turns: 1}},
			},
			want: []string{"Done", "I changed three things:", "fixed the greeting", "added a test"}, wantOnce: "I changed three things:",
		},
		{
			name: "piped: the final answer as written, tabs kept",
			events: []agent.Event{
				{Type: agent.EventText, Text: "all:\n\tgo build ./..."},
				{Type: agent.EventDone, Done: &agent.Done{Reason: agent.ReasonStop, Text: "all:\n\tgo build ./...", Turns: 1}},
			},
			want: []string{"all:\n\tgo build ./...\n"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := runText(tc.terminal, tc.events...)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if tc.wantOnce != "" && strings.Count(out, tc.wantOnce) != 1 {
				t.Errorf("%q shown %d times:\n%s", tc.wantOnce, strings.Count(out, tc.wantOnce), out)
			}
		})
	}
}

func TestRunViewFooter(t *testing.T) {
	done := &agent.Done{Reason: agent.ReasonStop, Turns: 3, Requests: 3, Text: "ok", Priced: true, Cost: 0.0061,
		Usage: llm.Usage{InputTokens: 14_200, CacheReadTokens: 12_000, OutputTokens: 812}}
	out, _ := runText(true, agent.Event{Type: agent.EventDone, Done: done})
	if !strings.Contains(out, "3 requests · 14.2k in (12.0k cached) · 812 out · $0.0061") {
		t.Errorf("no footer:\n%s", out)
	}
	if out, _ := runText(false, agent.Event{Type: agent.EventDone, Done: done}); strings.Contains(out, "requests") {
		t.Errorf("a footer in a pipe:\n%s", out)
	}
	// The footer names the model that answered (it changes with /model).
	done.Model = "claude-opus-4-5"
	if out, _ := runText(true, agent.Event{Type: agent.EventDone, Done: done}); !strings.Contains(out, "claude-opus-4-5 · 3 requests · ") {
		t.Errorf("no model in the footer:\n%s", out)
	}
	// The requests are those the tokens and the cost sum: a subagent's
	// too, said so.
	done.Turns, done.Requests, done.SubagentRequests = 2, 5, 3
	if out, _ := runText(true, agent.Event{Type: agent.EventDone, Done: done}); !strings.Contains(out, "claude-opus-4-5 · 5 requests (3 by subagents)") {
		t.Errorf("the subagents' requests are not counted:\n%s", out)
	}
}

func TestRunViewStopReasons(t *testing.T) {
	for _, tc := range []struct {
		done agent.Done
		want string
	}{
		{agent.Done{Reason: agent.ReasonBudget, Err: errors.New("the prompt cost $0.0135, its budget is $0.0100 (--max-cost)")},
			"forge: stopped: the prompt cost $0.0135, its budget is $0.0100 (--max-cost)"},
		{agent.Done{Reason: agent.ReasonMaxTurns, Turns: 2}, "forge: stopped after 2 model requests (--max-turns)"},
		{agent.Done{Reason: agent.ReasonCancelled}, "forge: cancelled"},
	} {
		_, errs := runText(false, agent.Event{Type: agent.EventDone, Done: &tc.done})
		if !strings.Contains(errs, tc.want) {
			t.Errorf("%s: stderr %q, want %q", tc.done.Reason, errs, tc.want)
		}
	}
}

// TestRunViewSandboxed: the tool-call line says a call ran in the
// sandbox, on a terminal and piped, and the JSON events carry it.
func TestRunViewSandboxed(t *testing.T) {
	call := &agent.Call{ID: "c1", Name: "Bash", Sandboxed: true}
	plain := &agent.Call{ID: "c2", Name: "Bash"}
	events := []agent.Event{
		{Type: agent.EventToolCall, Call: call},
		{Type: agent.EventToolResult, Call: call, Result: &agent.CallResult{Status: agent.StatusSuccess, Output: "ok"}},
		{Type: agent.EventToolCall, Call: plain},
		{Type: agent.EventToolResult, Call: plain, Result: &agent.CallResult{Status: agent.StatusSuccess, Output: "ok"}},
	}
	for _, terminal := range []bool{true, false} {
		out, errs := runText(terminal, events...)
		if all := out + errs; strings.Count(all, "Bash [sandboxed]") != 1 || strings.Count(all, "Bash\n") != 1 {
			t.Errorf("terminal=%v: %q", terminal, all)
		}
	}
	var o bytes.Buffer
	v := NewJSON(&o).Run(RunInfo{}, RunOptions{})
	for _, e := range events {
		v.Event(e)
	}
	lines := strings.Split(strings.TrimSpace(o.String()), "\n")[1:] // after init
	if len(lines) < 4 || !strings.Contains(lines[0], `"sandboxed":true`) || !strings.Contains(lines[1], `"sandboxed":true`) ||
		strings.Contains(lines[2], "sandboxed") || strings.Contains(lines[3], "sandboxed") {
		t.Errorf("JSON events: %q", lines)
	}
}

// On a narrow terminal the footer breaks between its figures.
func TestRunViewFooterFits(t *testing.T) {
	done := &agent.Done{Reason: agent.ReasonStop, Turns: 12, Requests: 12, Text: "ok", Priced: true, Cost: 0.0612,
		Usage: llm.Usage{InputTokens: 142_000, CacheReadTokens: 120_000, OutputTokens: 8812}, FilesChanged: []string{"a", "b"}}
	out, _ := runText(true, agent.Event{Type: agent.EventDone, Done: done})
	want := "12 requests · 142.0k in (120.0k cached) · 8812 out · $0.06\n  2 files changed (/undo reverts them)\n"
	if !strings.HasSuffix(out, want) {
		t.Errorf("footer:\n%s\nwant it to end with:\n%s", out, want)
	}
}

// TestRunViewSandboxNotes: what the sandbox said about a command (a
// repository it set aside, a write it blocked) shows under the call's
// line when piped, where no output preview does.
func TestRunViewSandboxNotes(t *testing.T) {
	call := &agent.Call{ID: "c1", Name: "Bash", Sandboxed: true}
	set := "[sandbox] a sandboxed command created a git repository at /p/src/.git, ...: forge renamed it"
	for _, tc := range []struct {
		name string
		res  agent.CallResult
	}{
		{"success", agent.CallResult{Status: agent.StatusSuccess, Result: tools.OK("ok", "sandbox_blocked", set)}},
		{"failure", agent.CallResult{Status: agent.StatusFailed, Result: tools.Fail("The command failed with exit code 1.\n"+set,
			"sandbox_blocked", set)}},
	} {
		out, errs := runText(false, agent.Event{Type: agent.EventToolCall, Call: call}, agent.Event{Type: agent.EventToolResult, Call: call, Result: &tc.res})
		if all := out + errs; strings.Count(all, set) != 1 {
			t.Errorf("%s: %q", tc.name, all)
		}
	}
}

// A call the model got wrong (invalid arguments, an unknown tool) is one
// line on a terminal, going on below when long, not a panel; a failure of
// the tool itself keeps its panel.
func TestRunViewModelMistakes(t *testing.T) {
	fail := func(kind tools.ErrorKind, msg string) *agent.CallResult {
		return &agent.CallResult{Status: agent.StatusFailed, Output: "Error: " + msg + ". More for the model.", Error: msg,
			Result: tools.Result{Status: tools.StatusFailed, Error: msg, ErrorKind: kind}}
	}
	for _, tc := range []struct {
		name string
		r    *agent.CallResult
		want []string
	}{
		{"a missing parameter", fail(tools.KindValidation, "Missing required parameter: x"),
			[]string{"✗ Read · invalid arguments: Missing required parameter: x"}},
		{"arguments that are not JSON", fail(tools.KindValidation, "Invalid JSON arguments: unexpected EOF"),
			[]string{"✗ Read · Invalid JSON arguments: unexpected EOF"}},
		{"a long message goes on below", fail(tools.KindValidation,
			"Unknown parameter: path (valid parameters: file_path, offset, limit, and a few more)"),
			[]string{"✗ Read · invalid arguments: Unknown parameter: path (valid",
				"  parameters: file_path, offset, limit, and a few more)"}},
		{"an unknown tool", fail(tools.KindUnknownTool, "Unknown tool: Read"), []string{"✗ Read · Unknown tool: Read"}},
	} {
		call := &agent.Call{ID: "c1", Name: "Read"}
		out, errs := runText(true, agent.Event{Type: agent.EventToolResult, Call: call, Result: tc.r})
		got := strings.Split(strings.TrimSuffix(out+errs, "\n"), "\n")
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	out, errs := runText(true, agent.Event{Type: agent.EventToolResult, Call: &agent.Call{ID: "c1", Name: "Read"},
		Result: fail(tools.KindExecution, "File not found: x")})
	if !strings.Contains(out+errs, "┌") {
		t.Errorf("a tool's own failure lost its panel: %q", out+errs)
	}
}
