package builtin

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/forgehq/forge/builtin/internal/netguard"
	"github.com/forgehq/forge/internal/tools"
)

// WebFetch and WebSearch name the host their calls reach, as the approval
// policy needs; a call the tool would refuse names none.
func TestWebToolsEgress(t *testing.T) {
	fetch := newTestWebFetch(t, nil)
	search := newTestWebSearch(t, map[string]any{"endpoint": "https://Search.Example.ORG/search"})
	unset := newTestWebSearch(t, nil)
	broken := newTestWebSearch(t, map[string]any{"endpoint": "ftp://search.example.org/"})
	cases := []struct {
		name string
		t    tools.Tool
		args tools.Args
		want []string
	}{
		{"fetch", fetch, tools.Args{"url": "https://Evil.Example.COM./?k=secret"}, []string{"evil.example.com"}},
		{"fetch with port", fetch, tools.Args{"url": "http://example.com:8080/x"}, []string{"example.com"}},
		{"fetch, spaces around", fetch, tools.Args{"url": "  https://example.com/ "}, []string{"example.com"}},
		{"fetch without scheme is refused", fetch, tools.Args{"url": "example.com/x"}, nil},
		{"fetch of another scheme is refused", fetch, tools.Args{"url": "file:///etc/passwd"}, nil},
		{"fetch of a private address is refused", fetch, tools.Args{"url": "http://127.0.0.1/"}, nil},
		{"fetch with credentials is refused", fetch, tools.Args{"url": "https://u:p@example.com/"}, nil},
		{"search goes to the endpoint", search, tools.Args{"query": "id_rsa contents"}, []string{"search.example.org"}},
		{"search without an endpoint", unset, tools.Args{"query": "x y"}, nil},
		{"search with an endpoint that is no http URL", broken, tools.Args{"query": "x y"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := tools.EgressOf(tc.t, testEC(t), tc.args)
			if !slices.Equal(got.Hosts, tc.want) || got.OpenWorld {
				t.Errorf("Egress = %+v, want hosts %q", got, tc.want)
			}
		})
	}
}

// The registered tools declare it before they are built, so a lazy
// registry answers for them.
func TestWebToolsDeclaredNetworked(t *testing.T) {
	r := tools.NewRegistry()
	if err := Register(r); err != nil {
		t.Fatal(err)
	}
	for _, name := range r.ListNames() {
		tl, _ := r.Get(name)
		want := name == "WebFetch" || name == "WebSearch"
		if got := tools.Describe(tl).Networked; got != want {
			t.Errorf("%s: Networked = %v, want %v", name, got, want)
		}
	}
	fetch, _ := r.Get("WebFetch")
	if got := tools.EgressOf(fetch, testEC(t), tools.Args{"url": "https://example.com/"}); !slices.Equal(got.Hosts, []string{"example.com"}) {
		t.Errorf("registered WebFetch: Egress = %+v", got)
	}
}

// A redirect to another host is not followed: the person approved the
// first host only. The model gets the new URL, to fetch with a call that
// is judged on its own; the other host is never reached.
func TestWebFetchStopsAtAnotherHost(t *testing.T) {
	var reached atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.Write([]byte("other host"))
	}))
	defer other.Close()
	// Both servers listen on 127.0.0.1: "localhost" is another host name.
	elsewhere := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + "/landing?k=secret"
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, elsewhere, http.StatusFound)
		case "/near":
			http.Redirect(w, r, "/here", http.StatusMovedPermanently)
		default:
			w.Write([]byte("same host"))
		}
	}))
	defer first.Close()
	w := newTestWebFetch(t, allowPrivate)

	r := w.Execute(context.Background(), testEC(t), tools.Args{"url": first.URL + "/away"})
	if !r.Success || !strings.Contains(r.Display(), "redirects to "+elsewhere) || !strings.Contains(r.Display(), "fetch "+elsewhere+" with a new call") {
		t.Errorf("redirect to another host: %+v", r)
	}
	if r.Metadata["redirect_url"] != elsewhere || r.Metadata["status_code"] != http.StatusFound {
		t.Errorf("metadata: %v", r.Metadata)
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the other host was reached %d times", n)
	}

	r = w.Execute(context.Background(), testEC(t), tools.Args{"url": first.URL + "/near"})
	if !r.Success || r.Display() != "same host" {
		t.Errorf("redirect within the host: %+v", r)
	}
}

// WebSearch sends its query to the configured endpoint's host only.
func TestWebSearchStopsAtAnotherHost(t *testing.T) {
	var reached atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
	}))
	defer other.Close()
	elsewhere := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) + "/search"
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere+"?"+r.URL.RawQuery, http.StatusTemporaryRedirect)
	}))
	defer endpoint.Close()
	w := newTestWebSearch(t, map[string]any{"endpoint": endpoint.URL + "/search"})
	// Private addresses allowed, so that only the change of host stops it.
	w.client = guardedClient(netguard.Policy{AllowPrivate: true}, webSearchTimeout)
	r := w.Execute(context.Background(), testEC(t), tools.Args{"query": "golang"})
	if r.Success || !strings.Contains(r.Error, "redirects to "+elsewhere) || !strings.Contains(r.Error, "tools.WebSearch.endpoint") {
		t.Errorf("redirect to another host: %+v", r)
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the other host was reached %d times", n)
	}
}
