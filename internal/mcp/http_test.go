package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// TestStreamableHTTPServer uses a server configured by url: forge's own
// MCP server behind the SDK's streamable HTTP handler.
func TestStreamableHTTPServer(t *testing.T) {
	ex, _ := serveRegistry(t)
	srv, err := serverOf(ex, ServeOptions{Tools: []string{"Greet"}})
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

// Headers configured for a server go with every request; their values
// never show in statuses or errors.
func TestHTTPServerHeaders(t *testing.T) {
	ex, _ := serveRegistry(t)
	srv, err := serverOf(ex, ServeOptions{Tools: []string{"Greet"}})
	if err != nil {
		t.Fatal(err)
	}
	rec := &headerRecorder{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)}
	hs := httptest.NewServer(rec)
	defer hs.Close()
	reg := tools.NewRegistry()
	headers := map[string]string{"Authorization": "Bearer hush-hush", "X-Team": "forge"}
	m := NewManager(reg, []ServerConfig{{Name: "h", URL: hs.URL, Headers: headers, Start: true}})
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := tools.NewExecutor(reg).Execute(context.Background(), "mcp__h__Greet", ec(), tools.Args{"name": "x"}); !r.Success {
		t.Errorf("call = %+v", r)
	}
	if st := m.Status()[0]; strings.Contains(formatStatus(st), "hush") {
		t.Errorf("status shows a header value: %+v", st)
	}
	m.Close()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.headers) < 3 {
		t.Fatalf("%d requests", len(rec.headers))
	}
	for i, h := range rec.headers {
		if h.Get("Authorization") != "Bearer hush-hush" || h.Get("X-Team") != "forge" {
			t.Errorf("request %d: headers %v", i, h)
		}
	}
}

func formatStatus(st ServerStatus) string { return fmt.Sprintf("%+v %v", st, st.Err) }

func TestHTTPServerBadHeaders(t *testing.T) {
	for name, headers := range map[string]map[string]string{
		`"Bad Name"`: {"Bad Name": "value-hush"},
		`"X-Ok"`:     {"X-Ok": "line\nbreak-hush"},
	} {
		reg := tools.NewRegistry()
		m := NewManager(reg, []ServerConfig{{Name: "h", URL: "http://127.0.0.1:1/", Headers: headers}})
		err := m.ConnectAll(context.Background())
		if err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "hush") {
			t.Errorf("%s: %v", name, err)
		}
		m.Close()
	}
}
