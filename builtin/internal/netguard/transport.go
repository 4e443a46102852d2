package netguard

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/idna"
)

// Policy says which destinations a transport may dial.
type Policy struct {
	// AllowPrivate lets every address through: the user's explicit choice.
	AllowPrivate bool
	// Trusted is a URL the user configured (a local search service): its
	// host and port may be private. Every other destination, such as
	// where that service redirects to, is checked.
	Trusted *url.URL
}

// NewTransport returns an HTTP transport for fetching URLs chosen by a model:
// no proxy from the environment (a proxy would hide the real destination from
// the check), bounded connection and header times, and, unless the policy
// allows it, the Control check on every dial.
func NewTransport(p Policy, timeout time.Duration) *http.Transport {
	open := &net.Dialer{Timeout: min(timeout, 30*time.Second), KeepAlive: 30 * time.Second}
	guarded := *open
	guarded.Control = Control
	trusted := dialAddr(p.Trusted)
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if p.AllowPrivate || (trusted != "" && strings.EqualFold(addr, trusted)) {
			return open.DialContext(ctx, network, addr)
		}
		return guarded.DialContext(ctx, network, addr)
	}
	return &http.Transport{
		Proxy:               nil,
		DialContext:         dial,
		ForceAttemptHTTP2:   true,
		MaxIdleConns:        10,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		// The caller's context carries the call's deadline; this only
		// guards against a server that never answers a reused connection.
		ResponseHeaderTimeout: timeout + 5*time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// dialAddr is the address net/http passes to DialContext for u: the host
// (IDNA-mapped when not ASCII) and the port, the scheme's default when
// none is given. "" for nil.
func dialAddr(u *url.URL) string {
	if u == nil || u.Hostname() == "" {
		return ""
	}
	host := u.Hostname()
	if !isASCII(host) {
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return ""
		}
		host = a
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return net.JoinHostPort(host, port)
}

// Trusts reports whether u goes to the policy's trusted host and port.
func (p Policy) Trusts(u *url.URL) bool {
	t := dialAddr(p.Trusted)
	return t != "" && strings.EqualFold(dialAddr(u), t)
}
