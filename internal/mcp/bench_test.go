package mcp

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// BenchmarkStdioCall is one call of an MCP tool through forge's executor:
// validation, JSON Schema check, a JSON-RPC round trip to a stdio server.
func BenchmarkStdioCall(b *testing.B) {
	reg := tools.NewRegistry()
	m := NewManager(reg, []ServerConfig{{Name: "test", Command: serverBin, Start: true}})
	defer m.Close()
	if err := m.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	ex := tools.NewExecutor(reg, tools.WithHistoryCapacity(0))
	ec := tools.NewExecutionContext("")
	args := tools.Args{"text": "hello"}
	for b.Loop() {
		if r := ex.Execute(context.Background(), "mcp__test__echo", ec, args); !r.Success {
			b.Fatal(r)
		}
	}
}

// BenchmarkServeCall is one tools/call to forge's own MCP server, in
// process: the SDK client, the executor, the result conversion.
func BenchmarkServeCall(b *testing.B) {
	reg := tools.NewRegistry()
	_ = reg.Register(&localTool{name: "Echo", cat: tools.CategoryOther,
		params: []tools.Parameter{{Name: "text", Type: "string", Required: true}},
		run:    func(ctx context.Context, args tools.Args) tools.Result { return tools.OK(args.String("text")) }})
	srv, err := serverOf(tools.NewExecutor(reg, tools.WithHistoryCapacity(0)), ServeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := srv.Connect(context.Background(), st, nil)
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "Echo", Arguments: map[string]any{"text": "hello"}}
	for b.Loop() {
		if _, err := cs.CallTool(context.Background(), params); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSchemaValidate is the JSON Schema check of one call's arguments.
func BenchmarkSchemaValidate(b *testing.B) {
	s := compileSchema("mcp://b/add", map[string]any{"type": "object",
		"properties": map[string]any{"a": map[string]any{"type": "integer", "maximum": 100}, "b": map[string]any{"type": "integer"}},
		"required":   []any{"a", "b"}})
	args := tools.Args{"a": 1, "b": 2}
	for b.Loop() {
		if verr := s.validate(args); verr != nil {
			b.Fatal(verr)
		}
	}
}
