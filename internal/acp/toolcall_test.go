package acp

import (
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// fakeTool is a tool with the parameters the titles read.
type fakeTool struct {
	tools.Tool
	params []tools.Parameter
}

func (f fakeTool) Parameters() []tools.Parameter { return f.params }

func TestTitleKindAndLocations(t *testing.T) {
	file := fakeTool{params: []tools.Parameter{{Name: "file_path"}, {Name: "old_string"}}}
	bash := fakeTool{params: []tools.Parameter{{Name: "command"}}}
	long := strings.Repeat("x", 150)
	for _, tc := range []struct {
		call  agent.Call
		tool  tools.Tool
		title string
		kind  sdk.ToolKind
		loc   string
		line  int
	}{
		{agent.Call{Name: "Edit", Args: tools.Args{"file_path": "/w/src/a.go", "old_string": "x"}}, file, "Edit src/a.go", sdk.ToolKindEdit, "/w/src/a.go", 0},
		{agent.Call{Name: "Read", Args: tools.Args{"file_path": "b.go", "offset": int64(40)}}, file, "Read b.go", sdk.ToolKindRead, "/w/b.go", 40},
		{agent.Call{Name: "Read", Args: tools.Args{"file_path": "/etc/hosts"}}, file, "Read /etc/hosts", sdk.ToolKindRead, "/etc/hosts", 0},
		{agent.Call{Name: "Bash", Args: tools.Args{"command": "go  test\n./..."}}, bash, "`go test ./...`", sdk.ToolKindExecute, "", 0},
		{agent.Call{Name: "Bash", Args: tools.Args{"command": long}}, bash, "`" + strings.Repeat("x", 99) + "…`", sdk.ToolKindExecute, "", 0},
		{agent.Call{Name: "Grep", Args: tools.Args{"pattern": "TODO"}}, nil, "Grep", sdk.ToolKindSearch, "", 0},
		{agent.Call{Name: "mcp__x__y", Args: nil}, nil, "mcp__x__y", sdk.ToolKindOther, "", 0},
		{agent.Call{Name: agent.PlanToolName, Args: tools.Args{"plan": "# Plan\n1. Edit"}}, fakeTool{params: []tools.Parameter{{Name: "plan"}}}, "Plan", sdk.ToolKindSwitchMode, "", 0},
		{agent.Call{Name: agent.TodoToolName, Args: tools.Args{"todos": []any{}}}, nil, "Update the task list", sdk.ToolKindThink, "", 0},
	} {
		if got := title(&tc.call, tc.tool, "/w"); got != tc.title {
			t.Errorf("title(%s) = %q, want %q", tc.call.Name, got, tc.title)
		}
		if got := kindOf(tc.call.Name, tc.tool); got != tc.kind {
			t.Errorf("kindOf(%s) = %q, want %q", tc.call.Name, got, tc.kind)
		}
		locs := locations(&tc.call, "/w")
		switch {
		case tc.loc == "" && len(locs) != 0:
			t.Errorf("locations(%s) = %+v, want none", tc.call.Name, locs)
		case tc.loc != "" && (len(locs) != 1 || locs[0].Path != tc.loc):
			t.Errorf("locations(%s) = %+v, want %s", tc.call.Name, locs, tc.loc)
		case tc.line > 0 && (locs[0].Line == nil || *locs[0].Line != tc.line):
			t.Errorf("locations(%s) line = %v, want %d", tc.call.Name, locs[0].Line, tc.line)
		}
	}
}

func TestTailKeepsTheEnd(t *testing.T) {
	short := "a\nb\n"
	if tail(short) != short {
		t.Error("a short output was changed")
	}
	long := strings.Repeat("line of output\n", maxShownOutput/10)
	got := tail(long)
	if len(got) > maxShownOutput+32 || !strings.HasPrefix(got, "[… the start is cut]\nline of output\n") || !strings.HasSuffix(got, "line of output\n") {
		t.Errorf("tail: %d bytes, starts %q", len(got), got[:40])
	}
}

// "Always" is offered only when the policy has a rule to remember.
func TestPermissionOptions(t *testing.T) {
	ids := func(os []sdk.PermissionOption) (out []string) {
		for _, o := range os {
			out = append(out, string(o.OptionId))
		}
		return out
	}
	if got := strings.Join(ids(options([]string{"Bash(go test:*)"})), ","); got != "allow_once,allow_always,reject_once" {
		t.Errorf("with a rule: %s", got)
	}
	if got := options([]string{"Bash(go test:*)"})[1].Name; got != "Always allow Bash(go test:*) in this session" {
		t.Errorf("always: %q", got)
	}
	if got := strings.Join(ids(options(nil)), ","); got != "allow_once,reject_once" {
		t.Errorf("without a rule: %s", got)
	}
}
