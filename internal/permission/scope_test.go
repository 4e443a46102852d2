package permission

import (
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestScope(t *testing.T) {
	wd := t.TempDir()
	s, err := NewScope([]string{"Read", "Grep", "Bash(git diff:*)"}, wd, "")
	if err != nil {
		t.Fatal(err)
	}
	agentTools, err := NewScope([]string{"Bash", "Read"}, wd, "")
	if err != nil {
		t.Fatal(err)
	}
	both := s.Narrow(agentTools)
	for _, tc := range []struct {
		scope  *Scope
		call   Call
		offer  bool
		allows bool
	}{
		{s, Call{Tool: "Read", Args: tools.Args{"file_path": "x"}, ReadOnly: true}, true, true},
		{s, Call{Tool: "Write", Args: tools.Args{"file_path": "x"}}, false, false},
		{s, Call{Tool: "Bash", Args: tools.Args{"command": "git diff HEAD"}}, true, true},
		{s, Call{Tool: "Bash", Args: tools.Args{"command": "git diff && rm -rf x"}}, true, false},
		{s, Call{Tool: "Bash", Args: tools.Args{"command": "git push"}}, true, false},
		// The sandbox confines a call; it does not put it in scope.
		{s, Call{Tool: "Bash", Args: tools.Args{"command": "git push"}, Sandbox: SandboxWorkspace}, true, false},
		{s, Call{Tool: "Bash", Args: tools.Args{"command": "git diff"}, Sandbox: SandboxReadOnly}, true, true},
		{both, Call{Tool: "Grep", Args: tools.Args{"pattern": "x"}, ReadOnly: true}, false, false},
		{both, Call{Tool: "Bash", Args: tools.Args{"command": "git diff"}}, true, true},
		{nil, Call{Tool: "Write"}, true, true},
	} {
		if got := tc.scope.Offers(tc.call.Tool); got != tc.offer {
			t.Errorf("Offers(%s) = %v", tc.call.Tool, got)
		}
		ok, why := tc.scope.Allows(tc.call)
		if ok != tc.allows || (!ok && !strings.Contains(why, "only these tools")) {
			t.Errorf("Allows(%+v) = %v, %q", tc.call, ok, why)
		}
	}
	if _, err := NewScope([]string{"Bash(", "Read"}, wd, ""); err == nil || !strings.Contains(err.Error(), "Bash(") {
		t.Errorf("a malformed rule: %v", err)
	}
	if (*Scope)(nil).Narrow(nil) != nil || s.Narrow(nil) != s {
		t.Error("Narrow with nil")
	}
}

func TestScopeUnnamed(t *testing.T) {
	s, err := NewScope([]string{"Read", "Bogus", "Bash(git diff:*)", "Bogus(x)", "mcp__*", "Gr*"}, "/w", "/h")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Unnamed([]string{"Read", "Bash", "Grep"}); !slices.Equal(got, []string{"Bogus", "mcp__*"}) {
		t.Errorf("Unnamed %q", got)
	}
	if got := (*Scope)(nil).Unnamed(nil); got != nil {
		t.Errorf("nil scope: %q", got)
	}
}
