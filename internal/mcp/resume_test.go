package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// dropOnce cuts the connection of the first event stream that answers a
// tools/call, right after its first event, and records the requests that
// came back with Last-Event-ID.
type dropOnce struct {
	next    http.Handler
	mu      sync.Mutex
	dropped bool
	resumed []string
}

func (d *dropOnce) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		d.mu.Lock()
		d.resumed = append(d.resumed, id)
		d.mu.Unlock()
	}
	d.mu.Lock()
	drop := !d.dropped && r.Method == http.MethodPost && r.ContentLength > 0
	d.mu.Unlock()
	if drop {
		body := make([]byte, r.ContentLength)
		_, _ = r.Body.Read(body)
		r.Body = readCloser{strings.NewReader(string(body))}
		drop = strings.Contains(string(body), `"tools/call"`)
	}
	if !drop {
		d.next.ServeHTTP(w, r)
		return
	}
	d.mu.Lock()
	d.dropped = true
	d.mu.Unlock()
	d.next.ServeHTTP(&cutter{ResponseWriter: w}, r)
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }

// cutter closes the connection once an event with an id went through.
type cutter struct {
	http.ResponseWriter
	cut bool
}

func (c *cutter) Write(b []byte) (int, error) {
	if c.cut {
		return 0, http.ErrHandlerTimeout
	}
	n, err := c.ResponseWriter.Write(b)
	if strings.Contains(string(b), "id:") {
		c.ResponseWriter.(http.Flusher).Flush()
		if conn, buf, herr := c.ResponseWriter.(http.Hijacker).Hijack(); herr == nil {
			_ = buf.Flush()
			conn.Close()
		}
		c.cut = true
	}
	return n, err
}

func (c *cutter) Flush() {
	if !c.cut {
		c.ResponseWriter.(http.Flusher).Flush()
	}
}

// TestHTTPStreamResumes: a call whose event stream breaks gets its answer
// all the same, the client reconnecting with Last-Event-ID.
func TestHTTPStreamResumes(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "resumable", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "long", Description: "long", InputSchema: emptySchema()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: req.Params.GetProgressToken(), Progress: 1})
			time.Sleep(300 * time.Millisecond) // the stream breaks meanwhile
			return textResult("finished"), nil
		})
	h := &dropOnce{next: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{EventStore: mcp.NewMemoryEventStore(nil)})}
	hs := httptest.NewServer(h)
	defer hs.Close()
	reg := tools.NewRegistry()
	m := NewManager(reg, []ServerConfig{{Name: "r", URL: hs.URL}})
	defer m.Close()
	if err := m.Connect(context.Background(), "r"); err != nil {
		t.Fatal(err)
	}
	r := tools.NewExecutor(reg).Execute(context.Background(), "mcp__r__long", ec(), nil)
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.dropped || len(h.resumed) == 0 {
		t.Fatalf("the stream was not cut and resumed: dropped %v, resumed %v", h.dropped, h.resumed)
	}
	if !r.Success || r.Output != "finished" {
		t.Errorf("call: %+v", r)
	}
}
