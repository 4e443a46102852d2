package builtin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// searxServer is a fake SearXNG endpoint serving testdata/web/searx.json.
// The queries it received are returned by the function it returns; a
// handler still serving a timed-out request may run beside the next one,
// so they are kept under a lock.
func searxServer(t *testing.T) (*httptest.Server, func() []string) {
	t.Helper()
	answer, err := os.ReadFile("testdata/web/searx.json")
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu      sync.Mutex
		queries []string
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		mu.Lock()
		queries = append(queries, q.Get("q"))
		mu.Unlock()
		switch {
		case q.Get("format") != "json":
			http.Error(w, "format", http.StatusForbidden)
		case q.Get("q") == "broken":
			w.Write([]byte("<html>not json</html>"))
		case q.Get("q") == "fail":
			http.Error(w, "boom", http.StatusInternalServerError)
		case q.Get("q") == "slow":
			select {
			case <-r.Context().Done():
			case <-time.After(3 * time.Second):
			}
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Write(answer)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(queries)
	}
}

func newTestWebSearch(t *testing.T, config map[string]any) *webSearchTool {
	t.Helper()
	return buildTool(t, newWebSearch, config).(*webSearchTool)
}

func TestWebSearchResults(t *testing.T) {
	srv, queries := searxServer(t)
	// The endpoint is the user's own: a loopback address is allowed.
	w := newTestWebSearch(t, map[string]any{"endpoint": srv.URL + "/search"})
	cases := []struct {
		name             string
		allowed, blocked []any
		want, unwanted   []string
	}{
		{"all", nil, nil, []string{"1. Go", "https://go.dev/", "pkg.go.dev", "example.com"}, nil},
		{"allowed with subdomains", []any{"go.dev"}, nil, []string{"https://go.dev/", "https://pkg.go.dev/fmt"}, []string{"example.com", "notgo.dev"}},
		{"blocked", nil, []any{"example.com"}, []string{"go.dev"}, []string{"example.com"}},
		{"allowed given as URL", []any{"https://Go.dev/path"}, nil, []string{"go.dev"}, []string{"example.com"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := w.Execute(context.Background(), testEC(t), tools.Args{"query": "golang fmt", "allowed_domains": c.allowed, "blocked_domains": c.blocked})
			if !r.Success {
				t.Fatal(r.Error)
			}
			for _, s := range c.want {
				if !strings.Contains(r.Display(), s) {
					t.Errorf("%q lacks %q", r.Display(), s)
				}
			}
			for _, s := range c.unwanted {
				if strings.Contains(r.Display(), s) {
					t.Errorf("%q has %q", r.Display(), s)
				}
			}
		})
	}
	if got := queries(); len(got) == 0 || got[0] != "golang fmt" {
		t.Errorf("queries sent %q", got)
	}
}

func TestWebSearchMaxResults(t *testing.T) {
	srv, _ := searxServer(t)
	w := newTestWebSearch(t, map[string]any{"endpoint": srv.URL, "max_results": 2})
	r := w.Execute(context.Background(), testEC(t), tools.Args{"query": "go"})
	if !r.Success || r.Metadata["count"] != 2 || strings.Contains(r.Display(), "3. ") {
		t.Fatalf("%+v", r)
	}
}

func TestWebSearchErrors(t *testing.T) {
	srv, _ := searxServer(t)
	w := newTestWebSearch(t, map[string]any{"endpoint": srv.URL, "timeout": "200ms"})
	cases := map[string]string{
		"broken": "did not return SearXNG JSON",
		"fail":   "HTTP 500",
		"slow":   "timed out",
		"x":      "at least 2 characters",
	}
	for q, want := range cases {
		r := w.Execute(context.Background(), testEC(t), tools.Args{"query": q})
		if r.Success || !strings.Contains(r.Error, want) {
			t.Errorf("%q: %+v", q, r)
		}
	}
	r := w.Execute(context.Background(), testEC(t), tools.Args{"query": "go", "blocked_domains": []any{" "}})
	if r.Success || !strings.Contains(r.Error, "Invalid blocked_domains") {
		t.Errorf("%+v", r)
	}
	bad := newTestWebSearch(t, map[string]any{"endpoint": "localhost:8888"})
	if r := bad.Execute(context.Background(), testEC(t), tools.Args{"query": "go"}); r.Success || !strings.Contains(r.Error, "is not an http(s) URL") {
		t.Errorf("%+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if r := w.Execute(ctx, testEC(t), tools.Args{"query": "slow"}); r.Status != tools.StatusCancelled {
		t.Errorf("%+v", r)
	}
}

func TestWebSearchNoEndpoint(t *testing.T) {
	t.Setenv(webSearchEnv, "")
	w := newTestWebSearch(t, nil)
	r := w.Execute(context.Background(), testEC(t), tools.Args{"query": "golang"})
	want := "WebSearch has no search endpoint configured. Set tools.WebSearch.endpoint in ~/.config/forge/config.yaml " +
		"(a SearXNG-compatible JSON API, e.g. http://localhost:8888/search) or FORGE_TOOLS_WEBSEARCH_ENDPOINT."
	if r.Success || r.Error != want {
		t.Fatalf("%+v", r)
	}
	if got := w.DryRun(testEC(t), tools.Args{"query": "golang"}); got != `Would search for "golang" (no endpoint configured)` {
		t.Errorf("%q", got)
	}
	t.Setenv(webSearchEnv, "http://127.0.0.1:1/search")
	if w := newTestWebSearch(t, nil); w.endpoint != "http://127.0.0.1:1/search" {
		t.Errorf("endpoint from the environment: %q", w.endpoint)
	}
}

func TestDomainAllowed(t *testing.T) {
	cases := []struct {
		url              string
		allowed, blocked []string
		want             bool
	}{
		{"https://go.dev/x", nil, nil, true},
		{"https://pkg.go.dev/x", []string{"go.dev"}, nil, true},
		{"https://notgo.dev/x", []string{"go.dev"}, nil, false},
		{"https://GO.DEV./x", []string{"go.dev"}, nil, true},
		{"https://a.example.com/", nil, []string{"example.com"}, false},
		{"https://a.example.com/", []string{"example.com"}, []string{"a.example.com"}, false},
		{"::bad", nil, nil, false},
	}
	for _, c := range cases {
		if got := domainAllowed(c.url, c.allowed, c.blocked); got != c.want {
			t.Errorf("domainAllowed(%q, %v, %v) = %v", c.url, c.allowed, c.blocked, got)
		}
	}
}
