package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/forgehq/forge/internal/tools"
)

// fakeAS is an authorization server and, behind its tokens, an MCP server:
// discovery from the 401's WWW-Authenticate, dynamic registration, PKCE
// (S256, checked), refresh.
type fakeAS struct {
	t  *testing.T
	hs *httptest.Server

	mu         sync.Mutex
	challenge  map[string]string   // code -> code_challenge
	codeScopes map[string][]string // code -> scopes asked for
	valid      map[string][]string // access token -> its scopes
	registered int
	logins     int
	refreshes  int
	expiresIn  int
	scopes     []string // asked for at the last authorization
	callScope  string   // when set, tools/call needs it (a step-up)
}

func newFakeAS(t *testing.T) *fakeAS {
	f := &fakeAS{t: t, challenge: map[string]string{}, codeScopes: map[string][]string{}, valid: map[string][]string{}, expiresIn: 3600}
	srv := mcp.NewServer(&mcp.Implementation{Name: "guarded", Version: "1"}, nil)
	addToolTo(srv, "whoami", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return textResult("a logged-in person"), nil
	})
	mux := http.NewServeMux()
	f.hs = httptest.NewServer(mux)
	base := f.hs.URL
	verify := func(_ context.Context, tok string, _ *http.Request) (*auth.TokenInfo, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		scopes, ok := f.valid[tok]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "ada", Scopes: scopes, Expiration: time.Now().Add(time.Hour)}, nil
	}
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{ResourceMetadataURL: base + "/.well-known/oauth-protected-resource/mcp"})(
		f.stepUp(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))))
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: base + "/mcp", AuthorizationServers: []string{base}, ScopesSupported: []string{"tools:read"}}))
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "code_challenge_methods_supported": []string{"S256"},
			"response_types_supported": []string{"code"}, "scopes_supported": []string{"tools:read", "offline_access"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.registered++
		f.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
		writeJSON(w, map[string]any{"client_id": "forge-client", "redirect_uris": []string{"x"}, "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("code_challenge_method") != "S256" || q.Get("client_id") != "forge-client" || q.Get("resource") != base+"/mcp" {
			http.Error(w, "bad authorization request "+r.URL.RawQuery, http.StatusBadRequest)
			return
		}
		f.mu.Lock()
		f.logins++
		code := fmt.Sprintf("code%d", f.logins)
		f.challenge[code] = q.Get("code_challenge")
		f.scopes = strings.Fields(q.Get("scope"))
		f.codeScopes[code] = f.scopes
		f.mu.Unlock()
		http.Redirect(w, r, q.Get("redirect_uri")+"?code="+code+"&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		f.mu.Lock()
		defer f.mu.Unlock()
		switch r.Form.Get("grant_type") {
		case "authorization_code":
			sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
			if want, ok := f.challenge[r.Form.Get("code")]; !ok || base64.RawURLEncoding.EncodeToString(sum[:]) != want {
				http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
				return
			}
			delete(f.challenge, r.Form.Get("code"))
			f.codeScopes["next"] = f.codeScopes[r.Form.Get("code")]
		case "refresh_token":
			if !strings.HasPrefix(r.Form.Get("refresh_token"), "refresh-") {
				http.Error(w, `{"error":"invalid_grant"}`, http.StatusBadRequest)
				return
			}
			f.refreshes++
		default:
			http.Error(w, `{"error":"unsupported_grant_type"}`, http.StatusBadRequest)
			return
		}
		tok := fmt.Sprintf("access-%d-%d", f.logins, f.refreshes)
		f.valid[tok] = f.codeScopes["next"]
		w.Header().Set("Content-Type", "application/json")
		writeJSON(w, map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": f.expiresIn, "refresh_token": "refresh-" + tok,
			"scope": strings.Join(f.codeScopes["next"], " ")})
	})
	t.Cleanup(f.hs.Close)
	return f
}

// stepUp answers a tools/call whose token lacks f.callScope with a 403
// insufficient_scope naming only that scope, as servers that ask for one
// more permission do.
func (f *fakeAS) stepUp(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		var msg struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(body, &msg)
		f.mu.Lock()
		need := f.callScope
		f.mu.Unlock()
		if ti := auth.TokenInfoFromContext(r.Context()); need != "" && msg.Method == "tools/call" && (ti == nil || !slices.Contains(ti.Scopes, need)) {
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, resource_metadata=%q`,
				need, f.hs.URL+"/.well-known/oauth-protected-resource/mcp"))
			http.Error(w, "insufficient scope", http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func addToolTo(s *mcp.Server, name string, h mcp.ToolHandler) {
	s.AddTool(&mcp.Tool{Name: name, Description: name, InputSchema: emptySchema()}, h)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// browser is the person: it follows the authorization page's redirect to
// forge's loopback listener, as a browser would.
type browser struct {
	mu   sync.Mutex
	urls []string
}

func (b *browser) Authorize(ctx context.Context, server, u string) error {
	b.mu.Lock()
	b.urls = append(b.urls, u)
	b.mu.Unlock()
	go func() {
		resp, err := http.Get(u)
		if err == nil {
			resp.Body.Close()
		}
	}()
	return nil
}

// TestOAuthLogin: a server that answers 401 is logged into (discovery,
// registration, PKCE), the token kept 0600 and used by the next forge
// without a login; refreshed when expired; headless without a token is
// a clear failure; logout forgets it.
func TestOAuthLogin(t *testing.T) {
	f := newFakeAS(t)
	dir := t.TempDir()
	cfg := []ServerConfig{{Name: "guarded", URL: f.hs.URL + "/mcp"}}

	// Headless, nobody logged in: the connection fails saying what to do.
	m := NewManager(tools.NewRegistry(), cfg, WithTokenDir(dir))
	err := m.Connect(context.Background(), "guarded")
	if err == nil || !NeedsLogin(err) || !strings.Contains(err.Error(), "run forge mcp login guarded") {
		t.Fatalf("headless: %v", err)
	}
	m.Close()

	// A person at a terminal logs in when the server asks.
	before := f.registered
	b := &browser{}
	reg := tools.NewRegistry()
	m = NewManager(reg, cfg, WithTokenDir(dir), WithAuthorizer(b))
	if err := m.Connect(context.Background(), "guarded"); err != nil {
		t.Fatal(err)
	}
	if r := tools.NewExecutor(reg).Execute(context.Background(), "mcp__guarded__whoami", ec(), nil); r.Output != "a logged-in person" {
		t.Fatalf("call: %+v", r)
	}
	m.Close()
	if len(b.urls) != 1 || f.registered != before+1 || !strings.Contains(strings.Join(f.scopes, " "), "tools:read") {
		t.Fatalf("logins %v, registrations %d, scopes %v", b.urls, f.registered, f.scopes)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("token files %v", files)
	}
	st, _ := os.Stat(files[0])
	if st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v", st.Mode())
	}

	// The next forge, headless, uses the stored token.
	reg = tools.NewRegistry()
	m = NewManager(reg, cfg, WithTokenDir(dir))
	if err := m.Connect(context.Background(), "guarded"); err != nil {
		t.Fatalf("with the stored token: %v", err)
	}
	m.Close()

	// An expired token is refreshed, and the new one kept.
	var stored storedAuth
	b2, _ := os.ReadFile(files[0])
	_ = json.Unmarshal(b2, &stored)
	stored.Token.Expiry = time.Now().Add(-time.Hour)
	st2 := &tokenStore{dir: dir}
	if err := st2.save("guarded", &stored); err != nil {
		t.Fatal(err)
	}
	m = NewManager(tools.NewRegistry(), cfg, WithTokenDir(dir))
	if err := m.Connect(context.Background(), "guarded"); err != nil {
		t.Fatalf("refresh: %v", err)
	}
	m.Close()
	if f.refreshes != 1 {
		t.Errorf("refreshes %d", f.refreshes)
	}
	if a := st2.load("guarded", cfg[0].URL); a == nil || a.Token.AccessToken != "access-1-1" {
		t.Errorf("refreshed token not kept: %+v", a)
	}

	// forge mcp login asks again; logout forgets.
	m = NewManager(tools.NewRegistry(), cfg, WithTokenDir(dir))
	asked, err := m.Login(context.Background(), "guarded", b)
	if err != nil || !asked || len(b.urls) != 2 {
		t.Fatalf("login: %v %v %d", asked, err, len(b.urls))
	}
	// The person who logged in stays to log in again (a step-up, a
	// revoked token) for the rest of the process.
	_, _ = (&tokenStore{dir: dir}).remove("guarded")
	if err := m.Reload(context.Background(), "guarded"); err != nil || len(b.urls) != 3 {
		t.Fatalf("a new login after Login: %v, %d logins", err, len(b.urls))
	}
	if had, err := m.Logout("guarded"); !had || err != nil {
		t.Errorf("logout: %v %v", had, err)
	}
	m.Close()
	m = NewManager(tools.NewRegistry(), cfg, WithTokenDir(dir))
	defer m.Close()
	if err := m.Connect(context.Background(), "guarded"); !errors.Is(err, ErrLoginNeeded) {
		t.Errorf("after logout: %v", err)
	}
}

// TestOAuthStepUpKeepsGranted: a server that asks, for a call, for one
// scope more than the stored login has, naming only that scope, gets an
// authorization for the union: what was granted and what it asks.
func TestOAuthStepUpKeepsGranted(t *testing.T) {
	f := newFakeAS(t)
	dir := t.TempDir()
	cfg := []ServerConfig{{Name: "guarded", URL: f.hs.URL + "/mcp"}}
	b := &browser{}
	m := NewManager(tools.NewRegistry(), cfg, WithTokenDir(dir), WithAuthorizer(b))
	if err := m.Connect(context.Background(), "guarded"); err != nil {
		t.Fatal(err)
	}
	m.Close()
	if !slices.Contains(f.scopes, "tools:read") {
		t.Fatalf("first login asked for %v", f.scopes)
	}

	// The next forge starts from the stored login; the call needs more.
	f.mu.Lock()
	f.callScope = "tools:write"
	f.mu.Unlock()
	reg := tools.NewRegistry()
	m = NewManager(reg, cfg, WithTokenDir(dir), WithAuthorizer(b))
	defer m.Close()
	if err := m.Connect(context.Background(), "guarded"); err != nil {
		t.Fatal(err)
	}
	r := tools.NewExecutor(reg).Execute(context.Background(), "mcp__guarded__whoami", ec(), nil)
	if r.Output != "a logged-in person" {
		t.Fatalf("call after step-up: %+v", r)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(b.urls) != 2 {
		t.Fatalf("authorizations %d, want 2", len(b.urls))
	}
	for _, want := range []string{"tools:read", "tools:write"} {
		if !slices.Contains(f.scopes, want) {
			t.Errorf("step-up asked for %v, missing %s", f.scopes, want)
		}
	}
}

func TestWithGranted(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stored *storedAuth
		asked  []string
		want   []string
	}{
		{"no stored login", nil, []string{"b"}, []string{"b"}},
		{"union, granted first", &storedAuth{Scopes: []string{"a", "b"}}, []string{"b", "c"}, []string{"a", "b", "c"}},
		{"nothing asked", &storedAuth{Scopes: []string{"a"}}, nil, []string{"a"}},
		{"nothing granted", &storedAuth{}, []string{"c"}, []string{"c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := withGranted(tc.stored, tc.asked); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}
