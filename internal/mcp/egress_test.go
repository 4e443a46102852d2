package mcp

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// A read-only MCP tool may still send its arguments away (a web search):
// unless the server says it is closed to the world, the policy treats its
// calls as egress. A tool that changes things asks anyway.
func TestRemoteToolEgress(t *testing.T) {
	yes, no := true, false
	cases := []struct {
		name string
		ann  *mcp.ToolAnnotations
		want bool
	}{
		{"no annotations: not read-only", nil, false},
		{"read-only, open world unsaid", &mcp.ToolAnnotations{ReadOnlyHint: true}, true},
		{"read-only, open world", &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &yes}, true},
		{"read-only, closed world", &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: &no}, false},
		{"writes, open world", &mcp.ToolAnnotations{OpenWorldHint: &yes}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rt := &remoteTool{name: "mcp__s__t", remote: &mcp.Tool{Name: "t", Annotations: tc.ann}}
			got := tools.EgressOf(rt, ec(), tools.Args{"q": "x"})
			if got.OpenWorld != tc.want || len(got.Hosts) != 0 {
				t.Errorf("Egress = %+v, want OpenWorld %v", got, tc.want)
			}
		})
	}
}

// forge mcp serve says which of its read-only tools reach other hosts, so
// that a forge on the other side asks about those only.
func TestServedOpenWorldHint(t *testing.T) {
	for _, networked := range []bool{false, true} {
		tl, err := mcpTool(tools.Descriptor{Name: "T", Description: "d", Category: tools.CategoryWeb, ReadOnly: true, Networked: networked})
		if err != nil {
			t.Fatal(err)
		}
		if a := tl.Annotations; a == nil || !a.ReadOnlyHint || a.OpenWorldHint == nil || *a.OpenWorldHint != networked {
			t.Errorf("networked %v: annotations %+v", networked, a)
		}
		rt := &remoteTool{name: "mcp__forge__T", remote: tl}
		if got := tools.EgressOf(rt, ec(), nil).OpenWorld; got != networked {
			t.Errorf("networked %v: read back as open world %v", networked, got)
		}
	}
}
