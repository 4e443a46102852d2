package commands

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// /last shows the last call's whole output, or the Nth before it, or the
// whole diff of an edit made without a question.
func TestLast(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	run := func(line string) (string, int) {
		t.Helper()
		out.Reset()
		errOut.Reset()
		code := s.Exec(context.Background(), line)
		return out.String() + errOut.String(), code
	}
	if got, code := run("/last"); code != ExitOK || !strings.Contains(got, "No tool calls yet") {
		t.Errorf("/last before any call: %d %q", code, got)
	}
	long := strings.Repeat("a line of output\n", 50)
	edit := &tools.Change{Path: "/w/main.go", Old: []byte("a\n"), New: []byte("a\nb\n")}
	for i, r := range []*agent.CallResult{
		{Status: agent.StatusSuccess, Output: long},
		{Status: agent.StatusSuccess, Output: "updated", Change: edit},
	} {
		s.env.calls.note(agent.Event{Type: agent.EventToolResult, Call: &agent.Call{ID: fmt.Sprint(i), Name: "echo",
			Args: tools.Args{"text": fmt.Sprint("call ", i)}}, Result: r})
	}
	// A subagent's call is not the person's agent's.
	s.env.calls.note(agent.Event{Type: agent.EventToolResult, ParentID: "t", Call: &agent.Call{ID: "x", Name: "echo"},
		Result: &agent.CallResult{Status: agent.StatusSuccess, Output: "nested"}})
	if got, _ := run("/last"); got != "✓ echo(call 1) +1\n--- /w/main.go\n+++ /w/main.go\n@@ -1 +1,2 @@\n a\n+b\n" {
		t.Errorf("/last: %q", got)
	}
	if got, _ := run("/last 2"); got != "✓ echo(call 0)\n"+long {
		t.Errorf("/last 2: %q", got)
	}
	for line, want := range map[string]string{
		"/last 3":   "the agent has made 2 calls so far: /last 1 to /last 2",
		"/last 0":   `"0" is not a count of calls back`,
		"/last x":   `"x" is not a count of calls back`,
		"/last 1 2": "at most 1 argument",
		"/last -1":  `"-1" is not a count of calls back`,
	} {
		if got, code := run(line); code != ExitUsage || !strings.Contains(got, want) {
			t.Errorf("%s: %d %q, want %q", line, code, got, want)
		}
	}
	s.env.Output = "json"
	s.env.RefreshPrinter()
	got, _ := run("/last")
	var v map[string]any
	if err := json.Unmarshal([]byte(got), &v); err != nil || v["name"] != "echo" || v["status"] != "success" ||
		v["output"] != "updated" || !strings.Contains(fmt.Sprint(v["diff"]), "+b") {
		t.Errorf("/last -o json: %q (%v)", got, err)
	}
}

// Only the last keptCalls calls are kept.
func TestLastKeepsSome(t *testing.T) {
	var rc recentCalls
	for i := range keptCalls + 5 {
		rc.note(agent.Event{Type: agent.EventToolResult, Call: &agent.Call{ID: fmt.Sprint(i)}, Result: &agent.CallResult{}})
	}
	if len(rc.list) != keptCalls || rc.list[0].call.ID != "5" || rc.list[keptCalls-1].call.ID != fmt.Sprint(keptCalls+4) {
		t.Errorf("kept %d, from %s", len(rc.list), rc.list[0].call.ID)
	}
}
