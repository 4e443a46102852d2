// Package mcp connects forge to the Model Context Protocol in both
// directions: MCP servers as sources of tools (Manager, Server),
// and forge's registry served to MCP clients (Serve). It uses the official
// SDK, github.com/modelcontextprotocol/go-sdk.
package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/proc"
)

// ServerConfig is one configured server (mcp.servers.<name>): a command
// spoken to over stdio, or the URL of a streamable HTTP endpoint.
type ServerConfig struct {
	Name    string
	Command string
	Args    []string
	Env     map[string]string // added to forge's environment (always given, whatever their names)
	Cwd     string
	URL     string
	// Headers go with every request to URL (Authorization: Bearer ...).
	// Their values are secrets: never shown or logged.
	Headers map[string]string
	Start   bool          // connect when forge starts, not on first use
	Timeout time.Duration // per-call limit; 0 means the call's own
	// ResetTimeoutOnProgress makes Timeout a limit on the silence between
	// progress notifications; a call then ends at MaxTotalTimeout at the
	// latest (an hour when 0).
	ResetTimeoutOnProgress bool
	MaxTotalTimeout        time.Duration
	// OAuth configures the login of a URL server that asks for one; a
	// server given an Authorization header is never logged into.
	OAuth OAuthConfig
}

// Transport describes how the server is reached, for /mcp.
func (c ServerConfig) Transport() string {
	if c.URL != "" {
		return "http " + c.URL
	}
	return strings.TrimSpace("stdio " + c.Command + " " + strings.Join(c.Args, " "))
}

// State is where a server's connection stands.
type State string

// The states /mcp shows.
const (
	StateNotStarted State = "not started"
	StateConnected  State = "connected"
	StateFailed     State = "failed"
	StateClosed     State = "closed"
)

// protocolVersion is the newest protocol version forge offers servers.
// The SDK's default, 2026-07-28, is stateless: a server may no longer ask
// for roots or elicitation in the middle of a call, and its progress and
// log notifications did not reach the client in forge's tests; the servers
// people run (and the conformance suite) speak 2025-11-25 or older.
const protocolVersion = "2025-11-25"

// connectTimeout bounds a connection attempt that has no deadline of its own.
const connectTimeout = 30 * time.Second

// terminateWait is how long a stdio server gets to exit after its standard
// input is closed, before it is signalled.
const terminateWait = 2 * time.Second

// Server is the connection to one MCP server. It connects on demand, keeps
// one session for listing and calling, notices when the server dies and
// connects again on the next use.
type Server struct {
	cfg    ServerConfig
	client *mcp.Client
	env    *clientEnv
	// passEnv are the secret-looking variables of forge's environment a
	// stdio server inherits all the same (Manager's WithPassEnv).
	passEnv []string
	// dial, when set, makes the transport in place of the configuration
	// (the tests' in-memory servers).
	dial func() mcp.Transport
	// authorizer, when set, has the person log in in place of the
	// manager's (see Manager.Login); guarded by connMu.
	authorizer Authorizer

	connMu sync.Mutex // serialises connection attempts

	// progress routes the server's progress notifications to its calls;
	// askers are the running calls' ways to ask the person (elicitation).
	progress progressCalls
	askers   askers

	mu        sync.Mutex
	session   *mcp.ClientSession
	state     State
	err       error
	tools     []*mcp.Tool
	prompts   []*mcp.Prompt
	resources []*mcp.Resource
	stderr    *tail
	gen       int // bumped at every connection, so a stale death notice is ignored
}

// newRemoteServer returns the unconnected server of cfg. A stdio server inherits
// forge's environment without the variables whose names look secret
// (proc.Environ), plus cfg.Env.
func newRemoteServer(cfg ServerConfig, env *clientEnv) *Server {
	s := &Server{cfg: cfg, state: StateNotStarted, env: env}
	s.client = newClient(s, env)
	return s
}

// Config returns the server's configuration.
func (s *Server) Config() ServerConfig { return s.cfg }

// Status returns the state, the tools last listed and the reason of a
// failure.
func (s *Server) Status() (State, []*mcp.Tool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state, s.tools, s.err
}

// Session returns the live session, connecting when there is none. listed
// reports whether a connection was made (and the tool list refreshed).
func (s *Server) Session(ctx context.Context) (cs *mcp.ClientSession, listed bool, err error) {
	s.mu.Lock()
	cs = s.session
	s.mu.Unlock()
	if cs != nil {
		return cs, false, nil
	}
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.mu.Lock()
	cs = s.session
	s.mu.Unlock()
	if cs != nil {
		return cs, false, nil // someone else connected while we waited
	}
	cs, err = s.connect(ctx)
	return cs, err == nil, err
}

// Reconnect closes the session, if any, and connects again.
func (s *Server) Reconnect(ctx context.Context) error {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.drop(nil)
	_, err := s.connect(ctx)
	return err
}

// connect starts the server (or opens the HTTP session), lists its tools
// and keeps the session; s.connMu must be held.
func (s *Server) connect(ctx context.Context) (*mcp.ClientSession, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, connectTimeout)
		defer cancel()
	}
	transport, stderr, err := s.transport()
	if err != nil {
		return nil, s.fail(err)
	}
	// The session must outlive ctx (a call's context): Connect only uses
	// ctx for the handshake, so a cancelled call does not close it.
	cs, err := s.client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		return nil, s.fail(withStderr(fmt.Errorf("connect: %w", err), stderr))
	}
	lists, err := listAll(ctx, cs)
	if err != nil {
		_ = cs.Close()
		return nil, s.fail(withStderr(err, stderr))
	}
	s.mu.Lock()
	s.gen++
	gen := s.gen
	s.session, s.state, s.err, s.stderr = cs, StateConnected, nil, stderr
	s.tools, s.prompts, s.resources = lists.tools, lists.prompts, lists.resources
	s.mu.Unlock()
	if r := cs.InitializeResult(); r != nil && r.Capabilities != nil && r.Capabilities.Logging != nil {
		// Only what forge's log keeps is worth the server's sending.
		_ = cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: logLevel(s.env.log)})
	}
	go func() {
		// Wait returns when the server goes away (it exited, or we closed).
		err := cs.Wait()
		s.died(gen, cs, err)
	}()
	return cs, nil
}

// refresh lists what again, after the server said it changed. A session
// replaced meanwhile has listed it anew already.
func (s *Server) refresh(ctx context.Context, what listKind) error {
	s.mu.Lock()
	cs, gen := s.session, s.gen
	s.mu.Unlock()
	if cs == nil {
		return nil
	}
	var (
		t   []*mcp.Tool
		p   []*mcp.Prompt
		r   []*mcp.Resource
		err error
	)
	switch what {
	case kindTools:
		t, err = listTools(ctx, cs)
	case kindPrompts:
		p, err = listPrompts(ctx, cs)
	case kindResources:
		r, err = listResources(ctx, cs)
	}
	if err != nil {
		return fmt.Errorf("MCP server %s: list again: %w", s.cfg.Name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen != gen {
		return nil
	}
	switch what {
	case kindTools:
		s.tools = t
	case kindPrompts:
		s.prompts = p
	case kindResources:
		s.resources = r
	}
	return nil
}

// offersResources reports whether the connected server declares resources.
func (s *Server) offersResources() bool {
	s.mu.Lock()
	cs := s.session
	s.mu.Unlock()
	if cs == nil {
		return false
	}
	r := cs.InitializeResult()
	return r != nil && r.Capabilities != nil && r.Capabilities.Resources != nil
}

// Offers returns the prompts and resources the server listed last.
func (s *Server) Offers() ([]*mcp.Prompt, []*mcp.Resource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prompts, s.resources
}

// transport builds the transport of the configuration.
func (s *Server) transport() (mcp.Transport, *tail, error) {
	if s.dial != nil {
		return s.dial(), nil, nil
	}
	if s.cfg.URL != "" {
		t, err := httpTransport(s.cfg, s.env, s.authorizer)
		return t, nil, err
	}
	if s.cfg.Command == "" {
		return nil, nil, errors.New("no command and no url configured")
	}
	if s.env.nested {
		return nil, nil, nestedRefusal()
	}
	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	cmd.Dir = s.cfg.Cwd
	// forge's secrets stay with forge; the server's own env is given
	// whatever its names, and wins over forge's values (exec keeps the last).
	cmd.Env = proc.Environ(os.Environ(), s.passEnv)
	for k, v := range s.cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	// Last, so that no configured env hides from a forge that it was
	// started by forge.
	cmd.Env = append(cmd.Env, NestedEnv+"=1")
	// Standard error is the server's log: keep its end for failure reasons,
	// never mix it into forge's output.
	stderr := &tail{max: 4096}
	cmd.Stderr = stderr
	// A group and session of its own: Ctrl-C in the shell, meant to cancel a
	// call, must not kill the servers too.
	cmd.SysProcAttr = proc.GroupAttr()
	return &mcp.CommandTransport{Command: cmd, TerminateDuration: terminateWait}, stderr, nil
}

// fail records a failed connection attempt.
func (s *Server) fail(err error) error {
	err = fmt.Errorf("MCP server %s: %w", s.cfg.Name, err)
	s.mu.Lock()
	s.session, s.state, s.err = nil, StateFailed, err
	s.mu.Unlock()
	return err
}

// died records that the session of generation gen ended.
func (s *Server) died(gen int, cs *mcp.ClientSession, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.gen != gen || s.session != cs {
		return // closed on purpose, or already replaced
	}
	reason := "the server exited"
	if err != nil {
		reason += ": " + err.Error()
	}
	if s.stderr != nil {
		if t := s.stderr.String(); t != "" {
			reason += ": " + t
		}
	}
	s.session, s.state, s.err = nil, StateFailed, errors.New(reason)
}

// drop closes the current session; a non-nil reason marks the server
// failed (a call saw it die), nil means a deliberate close.
func (s *Server) drop(reason error) {
	s.mu.Lock()
	cs := s.session
	s.session = nil
	s.gen++
	if reason != nil {
		s.state, s.err = StateFailed, reason
	}
	s.mu.Unlock()
	if cs != nil {
		go cs.Close() // a dead stdio server can take terminateWait to reap
	}
}

// Close ends the session and stops the server.
func (s *Server) Close() error {
	s.connMu.Lock()
	defer s.connMu.Unlock()
	s.mu.Lock()
	cs := s.session
	s.session, s.state, s.err = nil, StateClosed, nil
	s.gen++
	s.mu.Unlock()
	if cs == nil {
		return nil
	}
	err := cs.Close()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return nil // the server's exit status on the way out is not our concern
	}
	return err
}

func withStderr(err error, t *tail) error {
	if t == nil {
		return err
	}
	if s := t.String(); s != "" {
		return fmt.Errorf("%w: %s", err, s)
	}
	return err
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(b), nil
}

// String returns the kept text, trimmed, on one line.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(string(t.buf)), " ")
}
