package mcp

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// memServer is an in-process MCP server reached through the SDK's
// in-memory transports: each connection of a Manager's server gets a new
// pair.
type memServer struct {
	*mcp.Server
	mu       sync.Mutex
	sessions []*mcp.ServerSession
}

func newMemServer(opts *mcp.ServerOptions) *memServer {
	return &memServer{Server: mcp.NewServer(&mcp.Implementation{Name: "mem", Version: "1"}, opts)}
}

// attach makes the named server of m connect to ms.
func (ms *memServer) attach(t *testing.T, m *Manager, name string) {
	t.Helper()
	s, ok := m.Server(name)
	if !ok {
		t.Fatalf("no server %s", name)
	}
	s.dial = func() mcp.Transport {
		ct, st := mcp.NewInMemoryTransports()
		ss, err := ms.Connect(context.Background(), st, nil)
		if err != nil {
			t.Errorf("server connect: %v", err)
			return ct
		}
		ms.mu.Lock()
		ms.sessions = append(ms.sessions, ss)
		ms.mu.Unlock()
		return ct
	}
}

// memManager is a manager of one server, "mem", attached to ms.
func memManager(t *testing.T, ms *memServer, opts ...Option) (*Manager, *tools.Registry, *tools.Executor) {
	t.Helper()
	reg := tools.NewRegistry()
	m := NewManager(reg, []ServerConfig{{Name: "mem", Command: "unused"}}, opts...)
	ms.attach(t, m, "mem")
	t.Cleanup(func() { m.Close() })
	if err := m.Connect(context.Background(), "mem"); err != nil {
		t.Fatal(err)
	}
	return m, reg, tools.NewExecutor(reg)
}

// recordTool adds a tool with schema that records the raw arguments of
// each call in got.
func recordTool(ms *memServer, name, schema string, got chan<- string) {
	ms.AddTool(&mcp.Tool{Name: name, Description: "records", InputSchema: json.RawMessage(schema)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			got <- string(req.Params.Arguments)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		})
}
