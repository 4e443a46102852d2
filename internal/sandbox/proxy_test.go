package sandbox

import (
	"bufio"
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// proxyFor starts a proxy allowing allowed whose dialer reaches target
// whatever the name; it returns the proxy's URL.
func proxyFor(t *testing.T, allowed []string, target string) (*Proxy, *url.URL) {
	t.Helper()
	dial := func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, target)
	}
	p := NewProxy(allowed, dial)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go p.Serve(l)
	t.Cleanup(func() { p.Close() })
	u, _ := url.Parse("http://" + l.Addr().String())
	return p, u
}

func TestProxyHTTPS(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "secret answer")
	}))
	defer srv.Close()
	p, pu := proxyFor(t, []string{"proxy.golang.org"}, srv.Listener.Addr().String())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu),
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}, Timeout: 10 * time.Second}
	resp, err := client.Get("https://proxy.golang.org/x")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "secret answer" {
		t.Errorf("through the tunnel: %q", body)
	}
	start := time.Now()
	if _, err := client.Get("https://evil.example/x"); err == nil || !strings.Contains(err.Error(), "Forbidden") {
		t.Errorf("a CONNECT to a host not allowed: %v", err)
	}
	if got := p.RefusedSince(start); len(got) != 1 || got[0] != "evil.example" {
		t.Errorf("refused %q", got)
	}
	if got := p.RefusedSince(time.Now().Add(time.Hour)); len(got) != 0 {
		t.Errorf("refused since later: %q", got)
	}
}

func TestProxyRequests(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Proxy-Authorization") != "" {
			t.Error("a hop-by-hop header went on")
		}
		io.WriteString(w, "path "+r.URL.Path)
	}))
	defer srv.Close()
	_, pu := proxyFor(t, []string{"pypi.org", "10.0.0.1"}, srv.Listener.Addr().String())
	raw := func(req string) string {
		c, err := net.Dial("tcp", pu.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, req)
		line, _ := bufio.NewReader(c).ReadString('\n')
		return line
	}
	for _, tc := range []struct{ req, want string }{
		{"GET http://pypi.org/simple/ HTTP/1.1\r\nHost: pypi.org\r\nProxy-Authorization: x\r\n\r\n", "200"},
		{"GET http://10.0.0.1/ HTTP/1.1\r\nHost: 10.0.0.1\r\n\r\n", "200"},
		{"GET http://PyPI.org./simple/ HTTP/1.1\r\nHost: pypi.org\r\n\r\n", "200"},
		{"GET http://files.pypi.org/x HTTP/1.1\r\nHost: files.pypi.org\r\n\r\n", "403"},
		{"GET http://10.0.0.2/ HTTP/1.1\r\nHost: 10.0.0.2\r\n\r\n", "403"},
		{"GET http://[::1]:80/ HTTP/1.1\r\nHost: [::1]\r\n\r\n", "403"},
		{"GET /relative HTTP/1.1\r\nHost: pypi.org\r\n\r\n", "400"},
		{"CONNECT pypi.org HTTP/1.1\r\nHost: pypi.org\r\n\r\n", "400"},
		{"CONNECT evil.org:443 HTTP/1.1\r\nHost: evil.org:443\r\n\r\n", "403"},
	} {
		if got := raw(tc.req); !strings.Contains(got, " "+tc.want+" ") {
			t.Errorf("%q: %q, want %s", strings.SplitN(tc.req, "\r\n", 2)[0], got, tc.want)
		}
	}
}
