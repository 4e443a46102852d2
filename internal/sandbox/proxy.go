package sandbox

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"sync"
	"time"
)

// Bounds of the proxy's work.
const (
	proxyDialTimeout   = 30 * time.Second
	proxyHeaderTimeout = 30 * time.Second
	// maxRefusals bounds the refusals kept for Explain.
	maxRefusals = 256
)

// Proxy is the HTTP proxy through which sandboxed commands reach the
// hosts the policy allows: CONNECT (HTTPS, any TCP protocol) and plain
// HTTP requests, let through by the host name the client asks for, never
// by an address it resolved itself. It keeps the hosts it refused, so
// that a failed command's result can say what was blocked.
type Proxy struct {
	hosts hostSet
	dial  func(ctx context.Context, network, addr string) (net.Conn, error)
	fwd   *httputil.ReverseProxy
	srv   *http.Server

	mu      sync.Mutex
	refused []refusal
}

type refusal struct {
	at   time.Time
	host string
}

// NewProxy returns a proxy letting through the hosts that allowed lists
// (names, *.example.com for subdomains, addresses as written); dial
// connects to them (nil: directly).
func NewProxy(allowed []string, dial func(ctx context.Context, network, addr string) (net.Conn, error)) *Proxy {
	if dial == nil {
		dial = (&net.Dialer{Timeout: proxyDialTimeout}).DialContext
	}
	p := &Proxy{hosts: newHostSet(allowed), dial: dial}
	transport := &http.Transport{DialContext: dial, Proxy: nil, ResponseHeaderTimeout: 5 * time.Minute,
		MaxIdleConnsPerHost: 4, IdleConnTimeout: 30 * time.Second}
	p.fwd = &httputil.ReverseProxy{
		Rewrite:   func(*httputil.ProxyRequest) {}, // the request's absolute URL is where it goes
		Transport: transport,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, "forge sandbox proxy: "+err.Error(), http.StatusBadGateway)
		},
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: proxyHeaderTimeout}
	return p
}

// Serve answers the connections of l until Close.
func (p *Proxy) Serve(l net.Listener) error {
	err := p.srv.Serve(l)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Close stops the proxy and the tunnels it holds open.
func (p *Proxy) Close() error { return p.srv.Close() }

// ServeHTTP lets an allowed request through and refuses the others with
// 403 and a line saying how to allow the host.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	host := r.Host
	if r.Method != http.MethodConnect {
		if !r.URL.IsAbs() {
			http.Error(w, "forge sandbox proxy: only proxy requests (an absolute URL, or CONNECT)", http.StatusBadRequest)
			return
		}
		host = r.URL.Host
	}
	name := hostOnly(host)
	if !p.hosts.allows(name) {
		p.refuse(name)
		http.Error(w, "forge sandbox: "+name+" is not an allowed host (sandbox.network.allow)", http.StatusForbidden)
		return
	}
	if r.Method == http.MethodConnect {
		p.tunnel(w, r, host)
		return
	}
	p.fwd.ServeHTTP(w, r)
}

// tunnel connects the client to host:port and copies both ways.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request, hostport string) {
	if _, _, err := net.SplitHostPort(hostport); err != nil {
		http.Error(w, "forge sandbox proxy: CONNECT needs host:port", http.StatusBadRequest)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), proxyDialTimeout)
	upstream, err := p.dial(ctx, "tcp", hostport)
	cancel()
	if err != nil {
		http.Error(w, "forge sandbox proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, "forge sandbox proxy: cannot tunnel", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	if _, err := io.WriteString(client, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		client.Close()
		upstream.Close()
		return
	}
	go splice(upstream, client, buf.Reader)
}

// splice copies between the client and upstream until both sides end.
// pending is what the client sent after its request, already read.
func splice(upstream, client net.Conn, pending io.Reader) {
	var wg sync.WaitGroup
	wg.Go(func() {
		io.Copy(upstream, io.MultiReader(pending, client))
		closeWrite(upstream)
	})
	wg.Go(func() {
		io.Copy(client, upstream)
		closeWrite(client)
	})
	wg.Wait()
	client.Close()
	upstream.Close()
}

// closeWrite half-closes c when it can, so that the other side reads EOF
// while the answer still flows.
func closeWrite(c net.Conn) {
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		cw.CloseWrite()
		return
	}
	c.Close()
}

func (p *Proxy) refuse(host string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.refused) >= maxRefusals {
		p.refused = p.refused[1:]
	}
	p.refused = append(p.refused, refusal{at: time.Now(), host: host})
}

// RefusedSince are the hosts refused at t or later, each once, oldest
// first.
func (p *Proxy) RefusedSince(t time.Time) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	seen := map[string]bool{}
	for _, r := range p.refused {
		if !r.at.Before(t) && !seen[r.host] {
			seen[r.host] = true
			out = append(out, r.host)
		}
	}
	return out
}

// hostOnly is the host of a host:port (or a bare host).
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return normalHost(h)
	}
	return normalHost(hostport)
}
