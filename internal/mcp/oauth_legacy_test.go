package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// legacyServer is an MCP server of the older authorization scheme: its
// origin serves the authorization server's metadata, naming the issuer
// issuer(base), and the endpoints under /oauth. With prm its challenge
// names resource metadata, and with servePRM it publishes that, naming its
// origin, as the current scheme has it.
type legacyServer struct {
	hs     *httptest.Server
	mu     sync.Mutex
	logins int
}

func newLegacyServer(t *testing.T, issuer func(base string) string, prm, servePRM bool) *legacyServer {
	l := &legacyServer{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "legacy", Version: "1"}, nil)
	addToolTo(srv, "whoami", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return textResult("a logged-in person"), nil
	})
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	mux := http.NewServeMux()
	l.hs = httptest.NewServer(mux)
	t.Cleanup(l.hs.Close)
	base := l.hs.URL
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer legacy-token" {
			challenge := "Bearer"
			if prm {
				challenge = fmt.Sprintf("Bearer resource_metadata=%q", base+"/.well-known/oauth-protected-resource/mcp")
			}
			w.Header().Set("WWW-Authenticate", challenge)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		sdk.ServeHTTP(w, r)
	})
	if servePRM {
		mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
		})
	}
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"issuer": issuer(base), "authorization_endpoint": base + "/oauth/authorize",
			"token_endpoint": base + "/oauth/token", "registration_endpoint": base + "/oauth/register",
			"code_challenge_methods_supported": []string{"S256"}, "response_types_supported": []string{"code"}})
	})
	mux.HandleFunc("/oauth/register", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, map[string]any{"client_id": "forge-client", "redirect_uris": []string{"x"}, "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("/oauth/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		l.mu.Lock()
		l.logins++
		l.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?code=c&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("/oauth/token", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"access_token": "legacy-token", "token_type": "Bearer", "expires_in": 3600})
	})
	return l
}

// TestOAuthLegacyIssuer: a server with no resource metadata whose origin
// names an issuer under itself is logged into; an issuer on another
// origin, one that does not match what resource metadata names, or one a
// server of the current scheme (its challenge names resource metadata,
// even one it fails to serve) offers, is refused as before.
func TestOAuthLegacyIssuer(t *testing.T) {
	for _, tc := range []struct {
		name          string
		issuer        func(base string) string
		prm, servePRM bool
		refused       string // "" when the login must succeed
	}{
		{"older scheme, issuer under the origin", func(b string) string { return b + "/oauth" }, false, false, ""},
		{"older scheme, issuer the origin", func(b string) string { return b }, false, false, ""},
		{"older scheme, issuer elsewhere", func(string) string { return "https://elsewhere.example/oauth" }, false, false, "does not match"},
		{"resource metadata names the origin, metadata another issuer", func(b string) string { return b + "/oauth" }, true, true, "does not match"},
		{"challenge names resource metadata not served", func(b string) string { return b + "/oauth" }, true, false, "does not match"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLegacyServer(t, tc.issuer, tc.prm, tc.servePRM)
			cfg := []ServerConfig{{Name: "legacy", URL: l.hs.URL + "/mcp"}}
			reg := tools.NewRegistry()
			m := NewManager(reg, cfg, WithTokenDir(t.TempDir()), WithAuthorizer(&browser{}))
			defer m.Close()
			err := m.Connect(context.Background(), "legacy")
			if tc.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("connect: %v, want an error with %q", err, tc.refused)
				}
				if l.logins != 0 {
					t.Errorf("%d authorizations at a refused issuer", l.logins)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r := tools.NewExecutor(reg).Execute(context.Background(), "mcp__legacy__whoami", ec(), nil); r.Output != "a logged-in person" {
				t.Fatalf("call: %+v", r)
			}
		})
	}
}

func TestPublicOnly(t *testing.T) {
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:80", true},
		{"[::1]:443", true},
		{"93.184.216.34:443", true},
		{"10.0.0.1:80", false},
		{"192.168.1.2:443", false},
		{"172.16.0.1:80", false},
		{"169.254.169.254:80", false},
		{"100.64.0.1:80", false},
		{"[fd00::1]:80", false},
		{"[::ffff:10.0.0.1]:80", false},
		{"0.0.0.0:80", false},
		{"example.com:80", false},
	} {
		if err := publicOnly("tcp", tc.addr, nil); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want allowed %v", tc.addr, err, tc.ok)
		}
	}
}

// roundTripFunc is an http.RoundTripper made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestLegacyDiscoveryRoutes: every GET (a metadata document, wherever a
// challenge points) goes through the guarded discovery transport, the
// rest (registration, tokens) through the client's own.
func TestLegacyDiscoveryRoutes(t *testing.T) {
	var got []string
	answer := func(name string) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			got = append(got, name+" "+r.Method+" "+r.URL.Path)
			return &http.Response{StatusCode: http.StatusOK, Body: http.NoBody, Request: r}, nil
		})
	}
	l, err := newLegacyDiscovery("https://mcp.example.com/mcp", answer("discovery"), answer("next"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ method, url string }{
		{http.MethodGet, "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"},
		{http.MethodGet, "https://other.example.com/prm.json"},
		{http.MethodPost, "https://auth.example.com/register"},
		{http.MethodPost, "https://auth.example.com/token"},
	} {
		req, _ := http.NewRequest(r.method, r.url, nil)
		if _, err := l.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"discovery GET /.well-known/oauth-protected-resource/mcp", "discovery GET /prm.json", "next POST /register", "next POST /token"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("routes:\n got %q\nwant %q", got, want)
	}
	if _, err := newLegacyDiscovery("not a url", nil, nil); err == nil {
		t.Error("a server URL without a host is accepted")
	}
}
