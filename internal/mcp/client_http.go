package mcp

import (
	"fmt"
	"maps"
	"net/http"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/http/httpguts"
)

// httpRetries is how often a dropped event stream is resumed (with
// Last-Event-ID, after the server's retry delay or a growing backoff)
// before the server counts as gone.
const httpRetries = 3

// httpTransport is the streamable HTTP transport of a server configured by
// URL, sending the configured headers with every request.
// authorizer, when not nil, has the person log in in place of env's.
func httpTransport(cfg ServerConfig, env *clientEnv, authorizer Authorizer) (mcp.Transport, error) {
	t := &mcp.StreamableClientTransport{Endpoint: cfg.URL, MaxRetries: httpRetries}
	h, err := headers(cfg)
	if err != nil {
		return nil, err
	}
	client := http.DefaultClient
	if len(h) > 0 {
		client = &http.Client{Transport: &headerTransport{headers: h, next: http.DefaultTransport}}
		t.HTTPClient = client
	}
	if h.Get("Authorization") == "" && env != nil {
		if authorizer == nil {
			authorizer = env.authorizer
		}
		oh, err := oauthHandler(cfg, env.tokens, authorizer, http.DefaultClient, env.discovery)
		if err != nil {
			return nil, err
		}
		t.OAuthHandler = oh
	}
	return t, nil
}

// headers checks and collects the configured headers.
func headers(cfg ServerConfig) (http.Header, error) {
	h := make(http.Header, len(cfg.Headers))
	for _, name := range slices.Sorted(maps.Keys(cfg.Headers)) {
		value := cfg.Headers[name]
		// The messages name the header, never its value: it is a secret.
		if !httpguts.ValidHeaderFieldName(name) {
			return nil, fmt.Errorf("header %q is not a valid HTTP header name", name)
		}
		if !httpguts.ValidHeaderFieldValue(value) {
			return nil, fmt.Errorf("the value of header %q is not a valid HTTP header value (control characters or a line break?)", name)
		}
		h.Set(name, value)
	}
	return h, nil
}

// headerTransport adds fixed headers to every request that does not set
// them itself (the SDK's own protocol headers win).
type headerTransport struct {
	headers http.Header
	next    http.RoundTripper
}

// RoundTrip sends a copy of req with the headers added.
func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	for name, values := range t.headers {
		if _, set := req.Header[name]; !set {
			req.Header[name] = values
		}
	}
	return t.next.RoundTrip(req)
}
