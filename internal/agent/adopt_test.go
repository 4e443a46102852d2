package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm/llmtest"
	"github.com/forgehq/forge/internal/permission"
)

// Arguments that models trained on other agents send run, or are refused
// with the message for any undeclared argument.
func TestArgumentsFromOtherAgents(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			h := newHarness(t, wire, llmtest.Script{Turns: []llmtest.Turn{
				{ToolCalls: []llmtest.ToolCall{
					scriptCall("Bash", `{"command": "echo hi", "description": "Say hi"}`),
					scriptCall("Grep", `{"pattern": "needle", "multiline": false}`),
					scriptCall("Grep", `{"pattern": "needle", "multiline": true}`),
					scriptCall("Read", `{"file_path": "a.txt", "pages": "1-2"}`),
					scriptCall("Bash", `{"command": "echo out", "dangerouslyDisableSandbox": true}`),
				}},
				{Text: "done"},
			}})
			h.file("a.txt", "needle\n")
			h.cfg.Policy = h.policy(permission.Config{Mode: permission.ModeYolo})
			h.run(context.Background(), "go")
			res := h.results()
			if len(res) != 5 {
				t.Fatalf("%d results", len(res))
			}
			if res[0].Status != StatusSuccess || !strings.Contains(res[0].Output, "hi") {
				t.Errorf("Bash with a description: %+v", res[0])
			}
			if res[1].Status != StatusSuccess || !strings.Contains(res[1].Output, "a.txt") {
				t.Errorf("Grep with multiline false: %+v", res[1])
			}
			if !strings.HasPrefix(res[2].Output, "Error: Unknown parameter: multiline (valid parameters: pattern,") {
				t.Errorf("Grep with multiline true: %q", res[2].Output)
			}
			if !strings.HasPrefix(res[3].Output, "Error: Unknown parameter: pages (valid parameters: file_path, offset, limit)") {
				t.Errorf("Read with pages: %q", res[3].Output)
			}
			var calls []*Call
			for _, e := range h.events {
				if e.Type == EventToolCall {
					calls = append(calls, e.Call)
				}
			}
			if v, ok := calls[4].Args["sandbox"]; !ok || v != false || calls[4].Args.Has("dangerouslyDisableSandbox") {
				t.Errorf("dangerouslyDisableSandbox adopted as %v", calls[4].Args)
			}
			if res[4].Status != StatusSuccess {
				t.Errorf("Bash out of the sandbox in yolo: %+v", res[4])
			}
		})
	}
}
