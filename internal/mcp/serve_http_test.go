package mcp

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

const testToken = "s3cret-token-0123456789abcdef"

func TestListenHTTPAddresses(t *testing.T) {
	// Without a token, only loopback: refused before anything listens.
	for _, addr := range []string{"0.0.0.0:0", ":0", "[::]:0", "192.168.1.10:0", "example.com:0", "10.0.0.1:8080"} {
		ln, err := ListenHTTP(addr, "")
		if err == nil {
			ln.Close()
			t.Errorf("%s without a token: listening", addr)
			continue
		}
		if !errors.Is(err, ErrTokenRequired) || !strings.Contains(err.Error(), "FORGE_MCP_TOKEN") || !strings.Contains(err.Error(), "127.0.0.1") {
			t.Errorf("%s: unclear refusal %q", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:0", "localhost:0", "127.0.0.2:0", "[::1]:0"} {
		ln, err := ListenHTTP(addr, "")
		if err != nil {
			if addr == "[::1]:0" && !errors.Is(err, ErrTokenRequired) {
				continue // no IPv6 here
			}
			t.Errorf("%s: %v", addr, err)
			continue
		}
		ln.Close()
	}
	// With a token, anywhere.
	ln, err := ListenHTTP("0.0.0.0:0", testToken)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	for addr, want := range map[string]string{"nonsense": "HOST:PORT", "127.0.0.1:http-ish": "HOST:PORT"} {
		if _, err := ListenHTTP(addr, ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", addr, err)
		}
	}
}

func TestCheckToken(t *testing.T) {
	for token, want := range map[string]string{
		"short":                           "at least 16",
		"has a space in it, sixteen+":     "printable",
		"tab\there-0123456789":            "printable",
		"newline\nhere-0123456789":        "printable",
		"caf\u00e9-0123456789abcdefghijk": "printable",
	} {
		err := CheckToken(token)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v", token, err)
		}
		if err != nil && strings.Contains(err.Error(), token) {
			t.Errorf("the error shows the token: %v", err)
		}
	}
	if err := CheckToken(testToken); err != nil {
		t.Error(err)
	}
}

func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if tok, err := ReadTokenFile(write("ok", testToken+"\n")); err != nil || tok != testToken {
		t.Errorf("ok: %q, %v", tok, err)
	}
	for name, content := range map[string]string{"empty": "\n", "short": "abc\n", "two": testToken + "\n" + testToken + "\n"} {
		_, err := ReadTokenFile(write(name, content))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
		if err != nil && strings.Contains(err.Error(), testToken) {
			t.Errorf("%s: the error shows the token: %v", name, err)
		}
	}
	if _, err := ReadTokenFile(dir + "/missing"); err == nil {
		t.Error("missing file accepted")
	}
}

// serveHTTPTest runs ServeHTTP on a loopback port until the test ends.
func serveHTTPTest(t *testing.T, opts ServeOptions, token string) (url string, log *syncBuffer) {
	t.Helper()
	ex, _ := serveRegistry(t)
	ln, err := ListenHTTP("127.0.0.1:0", token)
	if err != nil {
		t.Fatal(err)
	}
	log = &syncBuffer{b: &bytes.Buffer{}}
	opts.Log = log
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeHTTP(ctx, ex, opts, ln, token) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeHTTP = %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("ServeHTTP did not return after its context ended")
		}
	})
	return "http://" + ln.Addr().String() + "/", log
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`

func post(t *testing.T, url, auth string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

func TestServeHTTPRequiresToken(t *testing.T) {
	url, log := serveHTTPTest(t, ServeOptions{Tools: []string{AllTools}}, testToken)
	for _, auth := range []string{"", "Bearer wrong-token-0123456789abcdef", "Basic " + testToken, "Bearer " + testToken + "x", "Bearer", testToken} {
		if resp := post(t, url, auth); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %s", auth, resp.Status)
		}
	}
	if resp := post(t, url, "Bearer "+testToken); resp.StatusCode != http.StatusOK {
		t.Errorf("right token: %s", resp.Status)
	}
	// A forge client with the header in its configuration lists and calls.
	reg := tools.NewRegistry()
	m := NewManager(reg, []ServerConfig{{Name: "remote", URL: url, Headers: map[string]string{"Authorization": "Bearer " + testToken}}})
	defer m.Close()
	if err := m.ConnectAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := tools.NewExecutor(reg).Execute(context.Background(), "mcp__remote__Greet", ec(), tools.Args{"name": "web"})
	if !r.Success || r.Output != "hello web " {
		t.Errorf("call = %+v", r)
	}
	for name, want := range map[string]bool{"mcp__remote__Greet": true, "mcp__remote__Info": true, "mcp__remote__Slow": false} {
		if tl, ok := reg.Get(name); !ok || tools.IsReadOnly(tl) != want || tools.Describe(tl).ReadOnly != want {
			t.Errorf("%s: registered %v, want read-only %v", name, ok, want)
		}
	}
	line := log.String()
	if !strings.Contains(line, "serving 3 tools on "+url) || !strings.Contains(line, "to clients with the bearer token") || strings.Contains(line, testToken) {
		t.Errorf("log %q", line)
	}
}

func TestServeHTTPLoopbackWithoutToken(t *testing.T) {
	url, _ := serveHTTPTest(t, ServeOptions{}, "")
	if resp := post(t, url, ""); resp.StatusCode != http.StatusOK {
		t.Errorf("no token on loopback: %s", resp.Status)
	}
	reg := tools.NewRegistry()
	m := NewManager(reg, []ServerConfig{{Name: "local", URL: url}})
	defer m.Close()
	if err := m.ConnectAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Served read-only by default, and marked so on the client's side.
	g, ok := reg.Get("mcp__local__Greet")
	if !ok || !tools.IsReadOnly(g) || !tools.Describe(g).ReadOnly || reg.Exists("mcp__local__Slow") {
		t.Errorf("tools %v, Greet read-only %v", reg.ListNames(), ok && tools.IsReadOnly(g))
	}
}

// ServeHTTP itself refuses a listener beyond loopback without a token,
// however it was opened.
func TestServeHTTPRefusesOpenListener(t *testing.T) {
	ex, _ := serveRegistry(t)
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	if err := ServeHTTP(context.Background(), ex, ServeOptions{}, ln, ""); !errors.Is(err, ErrTokenRequired) {
		t.Errorf("ServeHTTP = %v", err)
	}
	if err := ServeHTTP(context.Background(), ex, ServeOptions{}, ln, "short"); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("short token: %v", err)
	}
}

// headerRecorder wraps a handler and keeps the headers of every request.
type headerRecorder struct {
	mu      sync.Mutex
	next    http.Handler
	headers []http.Header
}

func (h *headerRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.headers = append(h.headers, r.Header.Clone())
	h.mu.Unlock()
	h.next.ServeHTTP(w, r)
}
