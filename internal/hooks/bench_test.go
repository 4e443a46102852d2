package hooks

import (
	"context"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// benchTool is Bash as far as validation goes.
var benchTool = fakeTool{name: "Bash", params: []tools.Parameter{
	{Name: "command", Type: tools.TypeString, Required: true},
	{Name: "timeout", Type: tools.TypeInteger},
	{Name: "description", Type: tools.TypeString},
}}

var benchArgs = tools.Args{"command": "go test ./... && rm -rf /tmp/build-cache", "timeout": 120000, "description": "run the tests"}

// BenchmarkPreToolUseOverhead is what forge adds to one call with a
// PreToolUse hook, the process aside: matching, encoding the input,
// decoding an answer that rewrites the input, combining, validating the
// rewrite.
func BenchmarkPreToolUseOverhead(b *testing.B) {
	answer := []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"go test ./...","timeout":60000}}}`)
	for _, bc := range []struct {
		name  string
		hooks []Hook
	}{
		{"one", []Hook{{Event: PreToolUse, Matcher: "Bash|Write", Command: "x"}}},
		{"three", []Hook{{Event: PreToolUse, Matcher: "Bash", Command: "a"}, {Event: PreToolUse, Matcher: "mcp__.*", Command: "b"},
			{Event: PreToolUse, Command: "c"}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			r, err := New(bc.hooks, Options{Dir: "/", Env: []string{}})
			if err != nil {
				b.Fatal(err)
			}
			r.start = func(context.Context, Hook, []byte) runResult { return runResult{stdout: answer} }
			base := Input{SessionID: "sess_0123456789ab", Cwd: "/home/me/project", ToolUseID: "call_1"}
			b.ReportAllocs()
			for b.Loop() {
				pre := r.PreToolUse(context.Background(), base, benchTool, benchArgs)
				if pre.Decision != Allow || pre.Args == nil {
					b.Fatal(pre.Decision, pre.Notes)
				}
			}
		})
	}
}

// BenchmarkPreToolUseNoMatch is a call no hook matches: the check every
// call pays once hooks are configured.
func BenchmarkPreToolUseNoMatch(b *testing.B) {
	r, _ := New([]Hook{{Event: PreToolUse, Matcher: "Write|Edit", Command: "x"}, {Event: PreToolUse, Matcher: "mcp__github__.*", Command: "y"}},
		Options{Dir: "/", Env: []string{}})
	b.ReportAllocs()
	for b.Loop() {
		if r.Has(PreToolUse, "Bash") {
			b.Fatal("matched")
		}
	}
}

// BenchmarkPreToolUseTrue is the whole call with /bin/true as the hook,
// for reference: the process's start and end dominate.
func BenchmarkPreToolUseTrue(b *testing.B) {
	r, err := New([]Hook{{Event: PreToolUse, Matcher: "Bash", Command: "/bin/true"}}, Options{Dir: "/", Env: []string{}})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if pre := r.PreToolUse(context.Background(), Input{}, benchTool, benchArgs); pre.Decision != None || len(pre.Notes) != 0 {
			b.Fatal(pre.Decision, pre.Notes)
		}
	}
}
