package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// An HTTP server that answers 401 (or 403 insufficient_scope) is logged
// into with OAuth 2.1: the SDK's authorization-code handler discovers the
// protected resource and its authorization server (with the older
// fallbacks; legacyDiscovery answers the one the SDK refuses), registers
// forge (a client ID metadata document, configured credentials, or
// dynamic registration), asks for the scopes the server names and those
// already granted, and exchanges the code with PKCE. What is forge's: where the
// person authorizes (a browser and a loopback redirect), and where the
// tokens live (one 0600 file per server, refreshed in place).

// ErrLoginNeeded is wrapped by the failure of a connection that needs the
// person to log in where nobody can: a headless run.
var ErrLoginNeeded = errors.New("login needed")

// OAuthConfig is a server's oauth settings: pre-registered credentials or
// a client ID metadata document, and the port of the loopback redirect.
type OAuthConfig struct {
	ClientID          string
	ClientSecret      string
	ClientMetadataURL string
	CallbackPort      int // 0: a free port, chosen at each login
}

// Authorizer opens the authorization page for the person and waits for
// the redirect. Without one (a headless run) a server that needs a login
// fails with ErrLoginNeeded.
type Authorizer interface {
	// Authorize shows or opens url, where the person authorizes forge
	// for server; the authorization server redirects to the loopback
	// listener, which Authorize does not own.
	Authorize(ctx context.Context, server, url string) error
}

// loginWait bounds the wait for the person to authorize in the browser.
const loginWait = 5 * time.Minute

// storedAuth is one server's file: the client forge is to the
// authorization server and its latest token.
type storedAuth struct {
	ServerURL    string        `json:"server_url"`
	ClientID     string        `json:"client_id"`
	ClientSecret string        `json:"client_secret,omitempty"`
	AuthURL      string        `json:"auth_url"`
	TokenURL     string        `json:"token_url"`
	AuthStyle    int           `json:"auth_style,omitempty"`
	Scopes       []string      `json:"scopes,omitempty"`
	Token        *oauth2.Token `json:"token"`
}

// tokenStore keeps storedAuth files, 0600 in a 0700 directory.
type tokenStore struct {
	dir string
	mu  sync.Mutex
}

func (s *tokenStore) path(server string) string {
	return filepath.Join(s.dir, sanitize(server)+"-"+suffix(server, "oauth")+".json")
}

// load returns the server's stored login for url, nil when there is none
// (or it was for another URL: a server moved is logged into again).
func (s *tokenStore) load(server, url string) *storedAuth {
	if s == nil || s.dir == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	b, err := os.ReadFile(s.path(server))
	if err != nil {
		return nil
	}
	var a storedAuth
	if json.Unmarshal(b, &a) != nil || a.ServerURL != url || a.Token == nil {
		return nil
	}
	return &a
}

func (s *tokenStore) save(server string, a *storedAuth) error {
	if s == nil || s.dir == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".tok-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), s.path(server))
	}
	if werr != nil {
		os.Remove(tmp.Name())
	}
	return werr
}

// remove forgets the server's login; reports whether there was one.
func (s *tokenStore) remove(server string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := os.Remove(s.path(server))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// savingSource is a token source that writes every new token it gets
// (a refresh) back to the store.
type savingSource struct {
	next   oauth2.TokenSource
	store  *tokenStore
	server string
	auth   storedAuth
	mu     sync.Mutex
	last   string
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	tok, err := s.next.Token()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok.AccessToken != s.last {
		s.last = tok.AccessToken
		a := s.auth
		a.Token = tok
		_ = s.store.save(s.server, &a) // a token not saved is asked for again next time
	}
	return tok, nil
}

// oauthHandler is the SDK's authorization-code handler for cfg's server:
// its stored login first, a new one through authorizer when the server
// refuses it.
// discovery fetches the metadata documents (discoveryTransport).
func oauthHandler(cfg ServerConfig, store *tokenStore, authorizer Authorizer, client *http.Client, discovery http.RoundTripper) (auth.OAuthHandler, error) {
	redirect := &loopback{port: cfg.OAuth.CallbackPort}
	if err := redirect.pick(); err != nil {
		return nil, fmt.Errorf("oauth: no port for the login's redirect: %w", err)
	}
	legacy, err := newLegacyDiscovery(cfg.URL, discovery, client.Transport)
	if err != nil {
		return nil, err
	}
	hc := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:         redirect.url(),
		RequestRefreshToken: true,
		Client:              &http.Client{Transport: legacy},
		ScopeFilter:         func(asked []string) []string { return withGranted(store.load(cfg.Name, cfg.URL), asked) },
		AuthorizationCodeFetcher: func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
			if authorizer == nil {
				return nil, fmt.Errorf("MCP server %s needs you to log in, and nobody can here: run forge mcp login %s: %w", cfg.Name, cfg.Name, ErrLoginNeeded)
			}
			return redirect.await(ctx, func(ctx context.Context) error { return authorizer.Authorize(ctx, cfg.Name, args.URL) })
		},
		NewTokenSource: func(ctx context.Context, oc *oauth2.Config, tok *oauth2.Token) (oauth2.TokenSource, error) {
			a := storedAuth{ServerURL: cfg.URL, ClientID: oc.ClientID, ClientSecret: oc.ClientSecret, AuthURL: oc.Endpoint.AuthURL,
				TokenURL: oc.Endpoint.TokenURL, AuthStyle: int(oc.Endpoint.AuthStyle), Scopes: granted(oc.Scopes, tok), Token: tok}
			if err := store.save(cfg.Name, &a); err != nil {
				return nil, fmt.Errorf("oauth: keep the token: %w", err)
			}
			return &savingSource{next: oc.TokenSource(ctx, tok), store: store, server: cfg.Name, auth: a, last: tok.AccessToken}, nil
		},
	}
	switch {
	case cfg.OAuth.ClientMetadataURL != "":
		hc.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: cfg.OAuth.ClientMetadataURL}
	case cfg.OAuth.ClientID != "":
		creds := &oauthex.ClientCredentials{ClientID: cfg.OAuth.ClientID}
		if cfg.OAuth.ClientSecret != "" {
			creds.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: cfg.OAuth.ClientSecret}
		}
		hc.PreregisteredClient = creds
	}
	// Dynamic registration is the fallback of every configuration: most
	// servers people log into offer nothing else.
	hc.DynamicClientRegistrationConfig = &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
		ClientName: "forge", RedirectURIs: []string{redirect.url()}, TokenEndpointAuthMethod: "none",
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"},
	}}
	if a := store.load(cfg.Name, cfg.URL); a != nil {
		oc := &oauth2.Config{ClientID: a.ClientID, ClientSecret: a.ClientSecret, Scopes: a.Scopes,
			Endpoint: oauth2.Endpoint{AuthURL: a.AuthURL, TokenURL: a.TokenURL, AuthStyle: oauth2.AuthStyle(a.AuthStyle)}}
		ctx := context.WithValue(context.Background(), oauth2.HTTPClient, client)
		hc.InitialTokenSource = &savingSource{next: oc.TokenSource(ctx, a.Token), store: store, server: cfg.Name, auth: *a, last: a.Token.AccessToken}
	}
	h, err := auth.NewAuthorizationCodeHandler(hc)
	if err != nil {
		return nil, err
	}
	return legacyHandler{h}, nil
}

// withGranted is the scopes a new authorization asks for: those the
// server asks for now and those the stored login was granted, so that a
// server asking for one more scope (a 403 insufficient_scope naming only
// what is missing) does not cost the person the scopes they had. The SDK
// unions what it granted in this process; the stored login carries the
// union across processes.
func withGranted(a *storedAuth, asked []string) []string {
	if a == nil {
		return asked
	}
	out := slices.Clone(a.Scopes)
	for _, s := range asked {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// granted is the scopes tok was granted: the token response's scope when
// the authorization server names it (it may grant fewer than asked),
// those asked for otherwise.
func granted(asked []string, tok *oauth2.Token) []string {
	if s, ok := tok.Extra("scope").(string); ok && strings.TrimSpace(s) != "" {
		return strings.Fields(s)
	}
	return asked
}

// loopback is the redirect of a login: http://127.0.0.1:PORT/callback,
// listened on only while a login waits for it.
type loopback struct {
	port int
}

// pick chooses a free port when none is configured.
func (l *loopback) pick() error {
	if l.port != 0 {
		return nil
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	l.port = ln.Addr().(*net.TCPAddr).Port
	return ln.Close()
}

func (l *loopback) url() string {
	return "http://127.0.0.1:" + strconv.Itoa(l.port) + "/callback"
}

// await listens for the redirect, has the person authorize (open), and
// returns the code and state the authorization server sends back.
func (l *loopback) await(ctx context.Context, open func(context.Context) error) (*auth.AuthorizationResult, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(l.port))
	if err != nil {
		return nil, fmt.Errorf("oauth: listen for the login's redirect: %w", err)
	}
	got := make(chan *auth.AuthorizationResult, 1)
	fail := make(chan error, 1)
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/callback" {
			http.NotFound(w, r)
			return
		}
		q := r.URL.Query()
		if e := q.Get("error"); e != "" {
			io.WriteString(w, "forge: the authorization was refused. You can close this page.\n")
			select {
			case fail <- fmt.Errorf("oauth: the authorization server refused: %s %s", e, q.Get("error_description")):
			default:
			}
			return
		}
		io.WriteString(w, "forge is logged in. You can close this page.\n")
		select {
		case got <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}:
		default:
		}
	})}
	go srv.Serve(ln)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(ctx, loginWait)
	defer cancel()
	if err := open(ctx); err != nil {
		return nil, err
	}
	select {
	case r := <-got:
		return r, nil
	case err := <-fail:
		return nil, err
	case <-ctx.Done():
		return nil, fmt.Errorf("oauth: no authorization came back: %w", ctx.Err())
	}
}
