package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// A server of the older authorization scheme publishes no protected-
// resource metadata: its own origin is where the authorization server's
// metadata is found, and that document may name an issuer under the
// origin (https://host/oauth) rather than the origin itself. The SDK takes
// the origin for the issuer and refuses such a document. legacyDiscovery
// is the HTTP transport of forge's OAuth handler that answers this one
// step: when the server's origin has no protected-resource metadata and
// its authorization-server metadata names an issuer on the same origin,
// the SDK is given the resource metadata the server would have published
// (that issuer, for this server) and, where it looks for that issuer's
// metadata, the document the origin served. The SDK then checks and uses
// that document as it does any other. An issuer on another origin is
// left to the SDK to refuse, and a server that publishes resource metadata
// or names it in its challenge (legacyHandler) is never touched: there,
// the issuer must be the one the metadata names.

// legacyHandler is the SDK's handler, told (through the context of the
// requests it makes) when the server's challenge names resource metadata:
// such a server is of the current scheme whatever becomes of that
// document, and gets no help from legacyDiscovery.
type legacyHandler struct {
	*auth.AuthorizationCodeHandler
}

// namedMetadata is the context key marking an authorization whose
// challenge named resource metadata.
type namedMetadata struct{}

// Authorize runs the SDK's authorization for the refused request.
func (h legacyHandler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	for _, c := range cs {
		if c.Params["resource_metadata"] != "" {
			ctx = context.WithValue(ctx, namedMetadata{}, true)
		}
	}
	return h.AuthorizationCodeHandler.Authorize(ctx, req, resp)
}

// legacyDiscovery answers the discovery of an older-scheme server. The
// SDK fetches metadata documents, and only those, with GET: they go
// through discovery; registration and tokens (POST) go to next.
type legacyDiscovery struct {
	server    *url.URL
	discovery http.RoundTripper
	next      http.RoundTripper

	mu     sync.Mutex
	issuer string // the issuer the origin's metadata names, once found
	meta   []byte // that metadata, as the origin served it
}

// newLegacyDiscovery is the transport for the server at serverURL.
// discovery fetches metadata documents (see discoveryTransport); next
// (nil: the default) carries everything else.
func newLegacyDiscovery(serverURL string, discovery, next http.RoundTripper) (*legacyDiscovery, error) {
	u, err := url.Parse(serverURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("oauth: the server URL %q is not an absolute URL", serverURL)
	}
	if discovery == nil {
		discovery = discoveryTransport()
	}
	if next == nil {
		next = http.DefaultTransport
	}
	return &legacyDiscovery{server: u, discovery: discovery, next: next}, nil
}

// RoundTrip sends req, answering in place of the server's origin where it
// has no document the SDK looks for and the older scheme supplies one.
func (l *legacyDiscovery) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		return l.next.RoundTrip(req)
	}
	resp, err := l.discovery.RoundTrip(req)
	if err != nil || resp.StatusCode < 400 || resp.StatusCode >= 500 || !sameOrigin(req.URL, l.server) || req.Context().Value(namedMetadata{}) != nil {
		return resp, err
	}
	var doc []byte
	switch req.URL.Path {
	case "/.well-known/oauth-protected-resource/" + strings.TrimLeft(l.server.Path, "/"):
		doc = l.resourceMetadata(req.Context())
	default:
		l.mu.Lock()
		if l.issuer != "" && req.URL.Path == insertedMetadataPath(l.issuer) {
			doc = l.meta
		}
		l.mu.Unlock()
	}
	if doc == nil {
		return resp, nil
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(doc)),
		ContentLength: int64(len(doc)), Request: req}, nil
}

// resourceMetadata is the protected-resource metadata an older-scheme
// server implies, nil when the server is not one or needs no help: it
// publishes resource metadata at its root, its origin has no
// authorization-server metadata, or that names the origin itself or an
// issuer elsewhere.
func (l *legacyDiscovery) resourceMetadata(ctx context.Context) []byte {
	origin := url.URL{Scheme: l.server.Scheme, Host: l.server.Host}
	if status, _ := l.get(ctx, origin.String()+"/.well-known/oauth-protected-resource"); status == http.StatusOK {
		return nil
	}
	status, meta := l.get(ctx, origin.String()+"/.well-known/oauth-authorization-server")
	if status != http.StatusOK {
		return nil
	}
	var m struct {
		Issuer string `json:"issuer"`
	}
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	iu, err := url.Parse(m.Issuer)
	if err != nil || !sameOrigin(iu, l.server) || strings.Trim(iu.Path, "/") == "" || iu.RawQuery != "" || iu.Fragment != "" {
		return nil
	}
	doc, err := json.Marshal(map[string]any{"resource": l.server.String(), "authorization_servers": []string{m.Issuer}})
	if err != nil {
		return nil
	}
	l.mu.Lock()
	l.issuer, l.meta = m.Issuer, meta
	l.mu.Unlock()
	return doc
}

// get fetches a metadata document (at most 1 MiB), returning its status.
func (l *legacyDiscovery) get(ctx context.Context, u string) (int, []byte) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return 0, nil
	}
	resp, err := l.discovery.RoundTrip(req)
	if err != nil {
		return 0, nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, nil
	}
	return resp.StatusCode, b
}

// insertedMetadataPath is where the SDK first looks for the metadata of
// an issuer with a path: the well-known name inserted before the path.
func insertedMetadataPath(issuer string) string {
	u, err := url.Parse(issuer)
	if err != nil {
		return ""
	}
	return "/.well-known/oauth-authorization-server/" + strings.TrimLeft(u.Path, "/")
}

func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Host, b.Host)
}

// discoveryTransport fetches metadata documents as the SDK does when its
// transport is left alone (one per Manager, its connections shared): never from a private, link-local, multicast or
// shared (carrier-grade NAT) address, which a document could otherwise
// name to reach inside the person's network; a configured proxy does the
// dialing, and the checking, itself.
func discoveryTransport() http.RoundTripper {
	base := http.DefaultTransport.(*http.Transport).Clone()
	if probe, err := http.NewRequest(http.MethodGet, "https://example.com", nil); err == nil && base.Proxy != nil {
		if p, err := base.Proxy(probe); err == nil && p != nil {
			return base
		}
	}
	base.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: publicOnly}).DialContext
	return base
}

// cgnat is the shared address space of carrier-grade NAT.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// publicOnly refuses to dial an address inside a private network.
func publicOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		host = address
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("oauth: not an IP address: %q", host)
	}
	ip = ip.Unmap()
	if ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() || cgnat.Contains(ip) {
		return fmt.Errorf("oauth: metadata at a non-public address %s is not fetched", ip)
	}
	return nil
}
