package builtin

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

func newTestWebFetch(t *testing.T, config map[string]any) *webFetchTool {
	t.Helper()
	w := buildTool(t, newWebFetch, config).(*webFetchTool)
	t.Cleanup(func() { w.Close() })
	return w
}

// fetchServer serves the fixtures of the WebFetch tests.
func fetchServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>T</title><script>var x=1;</script></head><body>
<h1>Title</h1><p>Hello <a href="/next">a link</a> and <b>bold</b>.</p>
<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></body></html>`)
	})
	mux.HandleFunc("/text", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "plain <b>text</b>\n")
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=iso-8859-1")
		w.Write([]byte("caf\xe9"))
	})
	mux.HandleFunc("/json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"a":1}`)
	})
	mux.HandleFunc("/png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(strings.Repeat("x", 50000)))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no such page", http.StatusNotFound)
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(3 * time.Second):
		}
	})
	// /hop/N redirects N+1 times in all, the last time to /text.
	mux.HandleFunc("/hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(r.PathValue("n"), &n)
		if n <= 0 {
			http.Redirect(w, r, "/text", http.StatusFound)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/to-ftp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.com/file", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

var allowPrivate = map[string]any{"allow_private": true}

func TestWebFetchContent(t *testing.T) {
	srv := fetchServer(t)
	w := newTestWebFetch(t, allowPrivate)
	ec := testEC(t)
	cases := []struct {
		path     string
		ok       bool
		contains []string
		absent   []string
	}{
		{"/page", true, []string{"# Title", "[a link](" + srv.URL + "/next)", "**bold**", "| k | v |"}, []string{"<p>", "var x"}},
		{"/text", true, []string{"plain <b>text</b>"}, nil},
		{"/latin1", true, []string{"café"}, nil},
		{"/json", true, []string{`{"a":1}`}, nil},
		{"/png", false, []string{"WebFetch returns text only", "image/png"}, nil},
		{"/missing", false, []string{"HTTP 404 Not Found", "no such page"}, nil},
		{"/hop/4", true, []string{"plain"}, nil},                      // 5 redirects
		{"/hop/5", false, []string{"stopped after 5 redirects"}, nil}, // 6
		{"/to-ftp", false, []string{"Unsupported URL scheme \"ftp\""}, nil},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := w.Execute(context.Background(), ec, tools.Args{"url": srv.URL + c.path})
			if r.Success != c.ok {
				t.Fatalf("Success = %v: %+v", r.Success, r)
			}
			for _, s := range c.contains {
				if !strings.Contains(r.Display(), s) {
					t.Errorf("%q lacks %q", r.Display(), s)
				}
			}
			for _, s := range c.absent {
				if strings.Contains(r.Display(), s) {
					t.Errorf("%q has %q", r.Display(), s)
				}
			}
		})
	}
}

func TestWebFetchMetadata(t *testing.T) {
	srv := fetchServer(t)
	w := newTestWebFetch(t, allowPrivate)
	r := w.Execute(context.Background(), testEC(t), tools.Args{"url": srv.URL + "/hop/2"})
	if !r.Success {
		t.Fatal(r.Error)
	}
	if r.Metadata["status_code"] != 200 || r.Metadata["final_url"] != srv.URL+"/text" || r.Metadata["content_type"] != "text/plain" {
		t.Errorf("metadata %v", r.Metadata)
	}
}

func TestWebFetchSizeCap(t *testing.T) {
	srv := fetchServer(t)
	w := newTestWebFetch(t, map[string]any{"allow_private": true, "max_bytes": 1000})
	r := w.Execute(context.Background(), testEC(t), tools.Args{"url": srv.URL + "/big"})
	if !r.Success || r.Metadata["truncated"] != true || r.Metadata["bytes"] != 1000 {
		t.Fatalf("%+v", r.Metadata)
	}
	if !strings.Contains(r.Display(), "[Content cut at 1000 bytes") {
		t.Errorf("no cut note: %.100q", r.Display())
	}
	// The output cap applies on top of the size cap.
	w = newTestWebFetch(t, allowPrivate)
	ec := testEC(t)
	ec.MaxOutputSize = 500
	r = w.Execute(context.Background(), ec, tools.Args{"url": srv.URL + "/big"})
	if !r.Success || len(r.Display()) > 600 || !strings.Contains(r.Display(), "the output cap") {
		t.Fatalf("%d bytes: %+v", len(r.Display()), r.Metadata)
	}
}

func TestWebFetchTimeoutAndCancel(t *testing.T) {
	srv := fetchServer(t)
	w := newTestWebFetch(t, map[string]any{"allow_private": true, "timeout": "200ms"})
	r := w.Execute(context.Background(), testEC(t), tools.Args{"url": srv.URL + "/slow"})
	if r.Status != tools.StatusTimedOut || !strings.Contains(r.Error, "timed out") {
		t.Fatalf("%+v", r)
	}
	w = newTestWebFetch(t, allowPrivate)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	r = w.Execute(ctx, testEC(t), tools.Args{"url": srv.URL + "/slow"})
	if r.Status != tools.StatusCancelled {
		t.Fatalf("%+v", r)
	}
}

// Without allow_private, loopback is refused: as an IP literal before any
// connection, and as a host name when it is dialled.
func TestWebFetchRefusesPrivate(t *testing.T) {
	var hits atomic.Int32 // read here, written by the server's goroutines, should it be reached
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	w := newTestWebFetch(t, nil)
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	for _, u := range []string{srv.URL + "/", "http://localhost:" + port + "/", "http://[::1]:" + port + "/", "http://169.254.169.254/latest/meta-data/"} {
		r := w.Execute(context.Background(), testEC(t), tools.Args{"url": u})
		if r.Success || !strings.Contains(r.Error, "Refusing to fetch") || !strings.Contains(r.Error, "allow_private") {
			t.Errorf("%s: %+v", u, r)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the server was reached %d times", n)
	}
}

// A redirect to a private address is refused at that hop.
func TestWebFetchRedirectToPrivateRefused(t *testing.T) {
	w := newTestWebFetch(t, nil)
	// checkURL is what CheckRedirect runs on every hop.
	req, _ := http.NewRequest(http.MethodGet, "http://10.0.0.1/admin", nil)
	if err := w.client.CheckRedirect(req, []*http.Request{req}); err == nil || !strings.Contains(err.Error(), "private") {
		t.Errorf("redirect to 10.0.0.1: %v", err)
	}
	req, _ = http.NewRequest(http.MethodGet, "http://u:p@example.com/", nil)
	if err := w.client.CheckRedirect(req, []*http.Request{req}); err == nil || !strings.Contains(err.Error(), "credentials") {
		t.Errorf("redirect with credentials: %v", err)
	}
}

func TestWebFetchBadURLs(t *testing.T) {
	w := newTestWebFetch(t, allowPrivate)
	cases := map[string]string{
		"ftp://example.com/x":          `Unsupported URL scheme "ftp"`,
		"file:///etc/passwd":           `Unsupported URL scheme "file"`,
		"example.com/page":             "it must be absolute",
		"http://user:secret@host.test": "credentials in URLs are not allowed",
		"http://":                      "it has no host",
		"http://exa mple.com/":         "Invalid URL",
		"http://example.com/\x00":      "control characters",
	}
	for u, want := range cases {
		r := w.Execute(context.Background(), testEC(t), tools.Args{"url": u})
		if r.Success || !strings.Contains(r.Error, want) {
			t.Errorf("%q: got %q, want %q", u, r.Error, want)
		}
		if strings.Contains(r.Error, "secret") {
			t.Errorf("%q: the password leaked into %q", u, r.Error)
		}
	}
}

func TestWebFetchConfigAndDryRun(t *testing.T) {
	for _, bad := range []map[string]any{{"timeout": "soon"}, {"max_bytes": "lots"}, {"allow_private": "perhaps"}, {"max_bytes": 0}} {
		if _, err := newWebFetch(context.Background(), tools.Deps{Config: bad}); err == nil {
			t.Errorf("config %v accepted", bad)
		}
	}
	w := newTestWebFetch(t, nil)
	if got := w.DryRun(testEC(t), tools.Args{"url": "https://go.dev/"}); !strings.HasPrefix(got, "Would fetch https://go.dev/ (at most 5242880 bytes, 5 redirects, timeout 30s)") {
		t.Errorf("%q", got)
	}
}
