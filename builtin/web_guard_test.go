package builtin

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/forgehq/forge/builtin/internal/netguard"
	"github.com/forgehq/forge/internal/tools"
)

// privateSpellings are hosts (with brackets for IPv6) that reach, or would
// reach on some network stack, a service on this machine, the local network
// or a cloud metadata endpoint. Those that name 127.0.0.1 point at the test
// server's port, so a fetch that slipped through would be counted.
var privateSpellings = []string{
	"127.0.0.1",
	"localhost",
	"LOCALHOST",
	"localhost.",
	"sub.localhost",
	"0177.0.0.1",
	"0177.0.0.01",
	"127.1",
	"127.0.1",
	"2130706433",
	"0x7f000001",
	"0x7f.1",
	"0x7F.0.0.1",
	"017700000001",
	"127.000.000.001",
	"127.0.0.1.",
	"１２７.０.０.１",
	"0",
	"0.0.0.0",
	"[::]",
	"[::1]",
	"[0:0:0:0:0:0:0:1]",
	"[::ffff:127.0.0.1]",
	"[::ffff:7f00:1]",
	"[0:0:0:0:0:ffff:127.0.0.1]",
	"[::127.0.0.1]",
	"[::ffff:0:127.0.0.1]",
	"[64:ff9b::127.0.0.1]",
	"[64:ff9b:1::7f00:1]",
	"[2002:7f00:1::]",
	"[2001:0:4136:e378:8000:63bf:80ff:fffe]",
	"[fe80::1%25lo]",
	"169.254.169.254",
	"0xa9fea9fe",
	"2852039166",
	"[fd00:ec2::254]",
	"100.100.100.200",
	"100.64.0.1",
	"metadata.google.internal",
	"metadata.goog",
	"10.0.0.1",
	"192.168.0.1",
	"172.16.0.1",
	"[fc00::1]",
	"224.0.0.1",
}

// countingServer is a server on 127.0.0.1 that counts the requests it gets.
func countingServer(t *testing.T) (port string, hits *atomic.Int32) {
	t.Helper()
	hits = new(atomic.Int32) // written by the server's goroutines
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	return srv.URL[strings.LastIndexByte(srv.URL, ':')+1:], hits
}

// Without allow_private, no spelling of a private address is fetched: each
// is refused, before any connection or when it is dialled, and the local
// server never sees a request.
func TestWebFetchRefusesEverySpelling(t *testing.T) {
	port, hits := countingServer(t)
	w := newTestWebFetch(t, nil)
	for _, host := range privateSpellings {
		u := "http://" + host + ":" + port + "/"
		r := w.Execute(context.Background(), testEC(t), tools.Args{"url": u})
		if r.Success || !strings.Contains(r.Error, "Refusing to fetch") || !strings.Contains(r.Error, "allow_private") {
			t.Errorf("%s: %+v", u, r)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the local server was reached %d times", n)
	}
}

// Every redirect hop is checked, in every spelling: a server WebFetch may
// reach (trusted here, as a public server would be) redirects to each
// spelling of a local one, which must never be reached.
func TestWebFetchRefusesEveryRedirectSpelling(t *testing.T) {
	port, hits := countingServer(t)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	}))
	defer redirector.Close()
	trusted, _ := url.Parse(redirector.URL)
	w := newTestWebFetch(t, nil)
	w.policy = netguard.Policy{Trusted: trusted}
	w.client = guardedClient(w.policy, webFetchTimeout)
	// The trusted server itself is reachable: the test measures the hops.
	if r := w.Execute(context.Background(), testEC(t), tools.Args{"url": redirector.URL + "/?to=" + url.QueryEscape(redirector.URL+"/?to=")}); strings.Contains(r.Error, "Refusing") {
		t.Fatalf("the trusted server was refused: %+v", r)
	}
	for _, host := range privateSpellings {
		target := "http://" + host + ":" + port + "/"
		r := w.Execute(context.Background(), testEC(t), tools.Args{"url": redirector.URL + "/?to=" + url.QueryEscape(target)})
		if r.Success || !strings.Contains(r.Error, "Refusing to fetch") || !strings.Contains(r.Error, "redirect") {
			t.Errorf("redirect to %s: %+v", target, r)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the local server was reached %d times", n)
	}
}

// A numeric host that is no valid address, or a public one spelt in a way
// resolvers disagree about, is refused with a clear message, with or
// without allow_private.
func TestWebFetchOddNumericHosts(t *testing.T) {
	for _, config := range []map[string]any{nil, allowPrivate} {
		w := newTestWebFetch(t, config)
		for host, want := range map[string]string{"134744072": "write it as 8.8.8.8", "1.2.3.4.5": "not a valid IPv4 address", "127.1": ""} {
			r := w.Execute(context.Background(), testEC(t), tools.Args{"url": "http://" + host + ":1/"})
			if want == "" { // private: refused without allow_private, respelt with it
				want = map[bool]string{true: "write it as 127.0.0.1", false: "Refusing to fetch"}[config != nil]
			}
			if r.Success || !strings.Contains(r.Error, want) {
				t.Errorf("%v %s: got %q, want %q", config, host, r.Error, want)
			}
		}
	}
}

// WebSearch's endpoint is the user's own, so it may be local; where it
// redirects to is checked like any model-chosen URL.
func TestWebSearchRedirectsAreGuarded(t *testing.T) {
	port, hits := countingServer(t)
	var to atomic.Value
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, to.Load().(string), http.StatusFound)
	}))
	defer endpoint.Close()
	w := newTestWebSearch(t, map[string]any{"endpoint": endpoint.URL + "/search"})
	for _, host := range privateSpellings {
		target := "http://" + host + ":" + port + "/search?q=x&format=json"
		to.Store(target)
		r := w.Execute(context.Background(), testEC(t), tools.Args{"query": "golang"})
		if r.Success || !strings.Contains(r.Error, "Refusing to follow") {
			t.Errorf("redirect to %s: %+v", target, r)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the local server was reached %d times", n)
	}
	// A redirect within the endpoint's own server is followed.
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/search?"+r.URL.RawQuery, http.StatusMovedPermanently)
	})
	mux.HandleFunc("/search", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"results":[{"title":"Go","url":"https://go.dev/","content":"The Go language"}]}`)
	})
	own := httptest.NewServer(mux)
	defer own.Close()
	w = newTestWebSearch(t, map[string]any{"endpoint": own.URL + "/old"})
	if r := w.Execute(context.Background(), testEC(t), tools.Args{"query": "golang"}); !r.Success || !strings.Contains(r.Display(), "https://go.dev/") {
		t.Errorf("redirect within the endpoint: %+v", r)
	}
}

// privateSpellingURLs are privateSpellings as URLs, for the fuzz seeds.
func privateSpellingURLs() []string {
	out := make([]string, 0, 2*len(privateSpellings))
	for _, h := range privateSpellings {
		out = append(out, "http://"+h+"/", fmt.Sprintf("https://%s:8443/x?y", h))
	}
	// Go's URL parser refuses percent-encoded digits in a host; a seed
	// keeps it that way.
	return append(out, "http://%31%32%37.0.0.1/")
}
