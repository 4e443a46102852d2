package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/forgehq/forge/internal/tools"
)

// ErrTokenRequired is wrapped by the refusal to serve beyond loopback
// without a token.
var ErrTokenRequired = errors.New("a token is required to serve MCP beyond this machine")

// minTokenLength keeps tokens out of reach of guessing.
const minTokenLength = 16

// maxTokenFile bounds a token file: a token is a line.
const maxTokenFile = 4096

// HTTP server bounds: slow or idle clients must not hold resources forever.
const (
	readHeaderTimeout = 10 * time.Second
	idleSession       = 30 * time.Minute
	shutdownWait      = 5 * time.Second
)

// CheckToken says what is wrong with a bearer token, without showing it.
func CheckToken(token string) error {
	if len(token) < minTokenLength {
		return fmt.Errorf("The MCP token must be at least %d characters (it has %d); make one with: openssl rand -hex 32", minTokenLength, len(token))
	}
	for _, c := range []byte(token) {
		if c <= ' ' || c >= 0x7f {
			return errors.New("The MCP token must be printable ASCII without spaces; make one with: openssl rand -hex 32")
		}
	}
	return nil
}

// ReadTokenFile reads a bearer token from a file: one line, surrounding
// white space ignored.
func ReadTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("Cannot read the MCP token: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("Cannot read the MCP token from %s: %w", path, err)
	}
	token := strings.TrimSpace(string(b))
	switch {
	case len(b) > maxTokenFile:
		return "", fmt.Errorf("The MCP token file %s is larger than %d bytes: it should hold the token alone", path, maxTokenFile)
	case token == "":
		return "", fmt.Errorf("The MCP token file %s is empty", path)
	case strings.ContainsAny(token, "\r\n"):
		return "", fmt.Errorf("The MCP token file %s has more than one line: it should hold the token alone", path)
	}
	if err := CheckToken(token); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return token, nil
}

// ListenHTTP opens addr (HOST:PORT) for ServeHTTP. Without a token only a
// loopback address (127.0.0.0/8, ::1, localhost) is allowed: anyone who can
// reach the port could run forge's tools.
func ListenHTTP(addr, token string) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "" {
		return nil, fmt.Errorf("--http wants HOST:PORT, such as 127.0.0.1:8765, not %q", addr)
	}
	if token != "" {
		if err := CheckToken(token); err != nil {
			return nil, err
		}
	} else if !loopbackHost(host) {
		return nil, tokenRequired(addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if strings.Contains(err.Error(), "unknown port") || strings.Contains(err.Error(), "invalid port") {
			return nil, fmt.Errorf("--http wants HOST:PORT, such as 127.0.0.1:8765, not %q", addr)
		}
		return nil, fmt.Errorf("Cannot serve MCP over HTTP: %w", err)
	}
	if token == "" && !loopbackAddr(ln.Addr()) {
		ln.Close()
		return nil, tokenRequired(addr)
	}
	return ln, nil
}

func tokenRequired(addr string) error { return &tokenRequiredError{addr} }

// tokenRequiredError is the refusal to listen on addr without a token.
type tokenRequiredError struct{ addr string }

func (e *tokenRequiredError) Error() string {
	return fmt.Sprintf("Refusing to serve MCP on %s without a token: anyone who can reach it could run forge's tools. "+
		"Set FORGE_MCP_TOKEN or use --token-file FILE, or listen on a loopback address such as 127.0.0.1:PORT", e.addr)
}

func (e *tokenRequiredError) Is(target error) bool { return target == ErrTokenRequired }

// loopbackHost reports whether a listen host is this machine only.
func loopbackHost(host string) bool {
	if strings.EqualFold(strings.TrimSuffix(host, "."), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}

// loopbackAddr reports whether a listener's address is a loopback one.
func loopbackAddr(a net.Addr) bool {
	ap, err := netip.ParseAddrPort(a.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// ServeHTTP serves the selected tools of ex's registry over the MCP
// streamable HTTP transport on ln until ctx is done, after naming them on
// opts.Log. With a token every request must carry "Authorization: Bearer
// TOKEN" (401 otherwise); without one ln must be a loopback listener. The
// token is never logged. Calls in flight are cancelled when ctx ends.
func ServeHTTP(ctx context.Context, ex *tools.Executor, opts ServeOptions, ln net.Listener, token string) error {
	if token != "" {
		if err := CheckToken(token); err != nil {
			return err
		}
	} else if !loopbackAddr(ln.Addr()) {
		return tokenRequired(ln.Addr().String())
	}
	s, descs, err := newServer(ex, opts, ctx)
	if err != nil {
		return err
	}
	where := "on http://" + ln.Addr().String() + "/ to clients with the bearer token"
	if token == "" {
		where = "on http://" + ln.Addr().String() + "/ to this machine only (no token)"
	}
	announce(opts, descs, where)
	srv := &http.Server{
		Handler:           httpHandler(s, token, "http://"+ln.Addr().String()),
		ReadHeaderTimeout: readHeaderTimeout,
		ErrorLog:          log.New(logWriter(opts), "forge mcp serve: ", 0),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close() // open event streams do not end by themselves
		}
	}()
	err = srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		<-stopped
		return nil
	}
	return err
}

// httpHandler is the SDK's streamable HTTP handler for s, behind the bearer
// token check when there is a token and cross-origin protection (a web
// page must not drive a server on this machine through the browser). The
// SDK's own guard refuses requests to a loopback listener whose Host is not
// a loopback name (DNS rebinding).
//
// A request without the token gets 401 with a WWW-Authenticate header that
// names the protected-resource metadata at base (the served address), as
// MCP clients expect of a server that wants a token.
func httpHandler(s *mcp.Server, token, base string) http.Handler {
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{SessionTimeout: idleSession})
	h = http.NewCrossOriginProtection().Handler(h)
	if token == "" {
		return h
	}
	want := sha256.Sum256([]byte(token))
	verify := func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		// Comparing fixed-size digests in constant time reveals neither
		// the token nor its length through timing.
		sum := sha256.Sum256([]byte(got))
		if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "forge"}, nil
	}
	mux := http.NewServeMux()
	mux.Handle(resourceMetadataPath, auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: base + "/", ResourceName: "forge", BearerMethodsSupported: []string{"header"}}))
	mux.Handle("/", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true,
		ResourceMetadataURL: base + resourceMetadataPath})(h))
	return mux
}

// resourceMetadataPath is where the served endpoint's protected-resource
// metadata is.
const resourceMetadataPath = "/.well-known/oauth-protected-resource"
