package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// TestNestedStartsNoCommands: a forge that forge started as an MCP server
// starts none of its servers that run as commands (one may be forge
// again), saying why, and still connects to servers with a url.
func TestNestedStartsNoCommands(t *testing.T) {
	ex, _ := serveRegistry(t)
	srv, err := serverOf(ex, ServeOptions{Tools: []string{"Greet"}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()
	cfgs := []ServerConfig{{Name: "cmd", Command: serverBin, Start: true}, {Name: "web", URL: hs.URL, Start: true}}

	for _, tc := range []struct {
		name   string
		opts   []Option
		cmdErr bool
	}{
		{"top level", nil, false},
		{"nested", []Option{WithNested()}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := tools.NewRegistry()
			m := NewManager(reg, cfgs, tc.opts...)
			defer m.Close()
			err := m.Start(context.Background())
			if !tc.cmdErr {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrNested) || !strings.Contains(err.Error(), "MCP server cmd: not started") || !strings.Contains(err.Error(), NestedEnv) {
				t.Fatalf("start: %v", err)
			}
			for _, st := range m.Status() {
				want := StateFailed
				if st.Name == "web" {
					want = StateConnected
				}
				if st.State != want {
					t.Errorf("%s: %v, want %v", st.Name, st.State, want)
				}
			}
			if _, ok := reg.Get("mcp__web__Greet"); !ok {
				t.Error("the url server's tool is not registered")
			}
		})
	}
}
