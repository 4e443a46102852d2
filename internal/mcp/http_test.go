package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// TestStreamableHTTPServer uses a server configured by url: forge's own
// MCP server behind the SDK's streamable HTTP handler.
func TestStreamableHTTPServer(t *testing.T) {
	ex, _ := serveRegistry(t)
	srv, err := NewMCPServer(ex, ServeOptions{Tools: []string{"Greet"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()

	reg := tools.NewRegistry()
	m := NewManager(reg, []ServerConfig{{Name: "remote", URL: hs.URL, Start: true}})
	defer m.Close()
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st := m.Status()[0]; st.State != StateConnected || st.Transport != "http "+hs.URL {
		t.Fatalf("status = %+v", st)
	}
	r := tools.NewExecutor(reg).Execute(context.Background(), "mcp__remote__Greet", ec(), tools.Args{"name": "http"})
	if !r.Success || r.Output != "hello http " {
		t.Errorf("call = %+v", r)
	}
	// forge's declared parameters survive the round trip.
	g, _ := reg.Get("mcp__remote__Greet")
	if p := g.Parameters(); len(p) != 2 || p[0].Name != "name" || !p[0].Required || p[1].Type != "integer" {
		t.Errorf("parameters = %+v", p)
	}
}
