package permission

import (
	"reflect"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestParseCall(t *testing.T) {
	readOnly := func(tool string) bool { return tool == "Read" || tool == "Glob" }
	for _, tc := range []struct {
		in   string
		want Call
	}{
		{"Bash(rm -rf build)", Call{Tool: "Bash", Args: tools.Args{"command": "rm -rf build"}}},
		{"Bash( echo (a) )", Call{Tool: "Bash", Args: tools.Args{"command": " echo (a) "}}},
		{`Bash(echo ")")`, Call{Tool: "Bash", Args: tools.Args{"command": `echo ")"`}}},
		{"Read(src/a.go)", Call{Tool: "Read", Args: tools.Args{"file_path": "src/a.go"}, ReadOnly: true}},
		{"Write( x.txt )", Call{Tool: "Write", Args: tools.Args{"file_path": "x.txt"}, EditsFiles: true}},
		{"Edit(/etc/hosts)", Call{Tool: "Edit", Args: tools.Args{"file_path": "/etc/hosts"}, EditsFiles: true}},
		{"NotebookEdit(n.ipynb)", Call{Tool: "NotebookEdit", Args: tools.Args{"notebook_path": "n.ipynb"}, EditsFiles: true}},
		{"WebFetch(https://example.com)", Call{Tool: "WebFetch", Args: tools.Args{"url": "https://example.com"}}},
		{"Glob(**/*.go)", Call{Tool: "Glob", Args: tools.Args{"pattern": "**/*.go"}, ReadOnly: true}},
		{"Grep(func main)", Call{Tool: "Grep", Args: tools.Args{"pattern": "func main"}}},
		{"WebSearch(go generics)", Call{Tool: "WebSearch", Args: tools.Args{"query": "go generics"}}},
		{"KillShell(bash_1)", Call{Tool: "KillShell", Args: tools.Args{"shell_id": "bash_1"}}},
		{`mcp__github__create_issue({"title": "x", "n": 2})`, Call{Tool: "mcp__github__create_issue", Args: tools.Args{"title": "x", "n": 2}}},
		{"mcp__github__create_issue(a bug)", Call{Tool: "mcp__github__create_issue", Args: tools.Args{"arguments": "a bug"}}},
		{"mcp__x__y({not json)", Call{Tool: "mcp__x__y", Args: tools.Args{"arguments": "{not json"}}},
		{"  Bash  ", Call{Tool: "Bash", Args: tools.Args{}}},
	} {
		got, err := ParseCall(tc.in, readOnly)
		if err != nil {
			t.Errorf("ParseCall(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseCall(%q) = %#v, want %#v", tc.in, got, tc.want)
		}
	}
}

func TestParseCallErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "no tool name"},
		{"(x)", "no tool name"},
		{"Bash(x", "missing ) at the end"},
		{"mcp.x(y)", `the tool name "mcp.x" has '.'`},
	} {
		_, err := ParseCall(tc.in, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCall(%q) error = %v, want it to contain %q", tc.in, err, tc.want)
		}
	}
}

// TestParseCallDecide is what forge permissions check does.
func TestParseCallDecide(t *testing.T) {
	fx := newFixture(t)
	p := fx.policy(t, ModeAsk, []string{"Bash(go test:*)"}, []string{"Bash(rm:*)", "Read(*.env)"})
	for text, want := range map[string]Decision{
		"Bash(rm -rf build)":    Deny,
		"Bash(go test ./...)":   Allow,
		"Bash(npm install)":     Ask,
		"Read(config/prod.env)": Deny,
		"Read(main.go)":         Allow,
		"Edit(main.go)":         Ask,
	} {
		c, err := ParseCall(text, func(tool string) bool { return tool == "Read" })
		if err != nil {
			t.Fatal(err)
		}
		if v := p.Decide(c); v.Decision != want {
			t.Errorf("check %s = %s (%s), want %s", text, v.Decision, v.Reason, want)
		}
	}
}
