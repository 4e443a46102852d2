package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"sync"
)

// Login has the person log in to the named server afresh: its stored
// login is forgotten, and the server connected again through authorizer,
// which the server keeps for this process: the person who logged in is
// there to log in again should the server ask for more scopes. It reports
// false when the server did not ask for a login.
func (m *Manager) Login(ctx context.Context, name string, authorizer Authorizer) (bool, error) {
	s, ok := m.servers[name]
	if !ok {
		return false, m.unknown(name)
	}
	if s.cfg.URL == "" {
		return false, fmt.Errorf("MCP server %s runs as a command: only a server with a url logs in", name)
	}
	if _, err := m.env.tokens.remove(name); err != nil {
		return false, fmt.Errorf("forget the old login of %s: %w", name, err)
	}
	asked := &recordingAuthorizer{next: authorizer}
	s.setAuthorizer(asked)
	if err := m.Reload(ctx, name); err != nil {
		return asked.asked(), err
	}
	return asked.asked(), nil
}

// Logout forgets the named server's login and closes its session.
func (m *Manager) Logout(name string) (bool, error) {
	s, ok := m.servers[name]
	if !ok {
		return false, m.unknown(name)
	}
	had, err := m.env.tokens.remove(name)
	if err != nil {
		return false, err
	}
	s.drop(nil)
	return had, nil
}

// setAuthorizer makes a the way s's connections have the person log in.
func (s *Server) setAuthorizer(a Authorizer) {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.authorizer = a
}

// recordingAuthorizer notes that a login was asked for.
type recordingAuthorizer struct {
	next Authorizer
	mu   sync.Mutex
	used bool
}

func (r *recordingAuthorizer) Authorize(ctx context.Context, server, url string) error {
	r.mu.Lock()
	r.used = true
	r.mu.Unlock()
	return r.next.Authorize(ctx, server, url)
}

func (r *recordingAuthorizer) asked() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.used
}

// BrowserAuthorizer has the person log in: it prints the authorization URL
// on Out and, when Open, opens it in the browser too.
type BrowserAuthorizer struct {
	Out  io.Writer
	Open bool
}

// Authorize prints url and opens it when it can.
func (b BrowserAuthorizer) Authorize(ctx context.Context, server, url string) error {
	fmt.Fprintf(b.Out, "MCP server %s asks you to log in. Open this address in a browser:\n  %s\n", server, url)
	if !b.Open {
		return nil
	}
	if err := openBrowser(url); err != nil {
		fmt.Fprintf(b.Out, "(the browser did not open: %v)\n", err)
	} else {
		fmt.Fprintln(b.Out, "(opened in your browser; waiting for you to log in)")
	}
	return nil
}

// openBrowser starts the desktop's opener for url, without waiting.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

// NeedsLogin reports whether err is a connection's failure for want of a
// login nobody could give.
func NeedsLogin(err error) bool { return errors.Is(err, ErrLoginNeeded) }
