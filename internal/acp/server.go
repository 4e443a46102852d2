package acp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/permission"
)

// Options configure Serve.
type Options struct {
	Host Host
	// Log receives the server's log lines (never standard output).
	Log zerolog.Logger
	// Version is forge's, for the editor's display.
	Version string
	// CommandsDelay is how long after answering session/new or
	// session/load the session's commands are announced: the editor must
	// know the session by then. 0 is 100 ms.
	CommandsDelay time.Duration
}

// Serve serves one editor on in and out until in ends or ctx is done; the
// prompts still running are cancelled and waited for, and every session
// closed, before it returns.
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	if o.CommandsDelay <= 0 {
		o.CommandsDelay = 100 * time.Millisecond
	}
	w := &lineWriter{w: out}
	pr, pw := io.Pipe()
	s := &server{opts: o, log: o.Log, sessions: map[sdk.SessionId]*live{}}
	conn := sdk.NewAgentSideConnection(s, w, pr)
	conn.SetLogger(slog.New(slogHandler{log: o.Log.With().Str("component", "acp").Logger()}))
	s.conn = conn
	// Messages flow only now: a handler must find the connection whole.
	go filter(in, pw, w)
	select {
	case <-conn.Done():
	case <-ctx.Done():
		_ = pr.CloseWithError(ctx.Err())
		<-conn.Done()
	}
	s.closeAll()
	return nil
}

// server is forge's side of one connection.
type server struct {
	opts Options
	log  zerolog.Logger
	conn *sdk.AgentSideConnection

	mu       sync.Mutex
	client   sdk.ClientCapabilities
	sessions map[sdk.SessionId]*live
	closed   bool
	running  sync.WaitGroup
}

// live is a session the editor has open.
type live struct {
	id   sdk.SessionId
	sess Session
	// dir is the session's working directory.
	dir string
	// mode is the approval mode the editor knows of; guarded by the
	// server's mu.
	mode permission.Mode
	// turn serialises prompts: the SDK cancels a prompt that a new one
	// replaces, and the new one waits for it to end.
	turn sync.Mutex
	// cancel ends the prompt running, for session/close; guarded by the
	// server's mu.
	cancel context.CancelFunc
}

var (
	_ sdk.Agent       = (*server)(nil)
	_ sdk.AgentLoader = (*server)(nil)
)

// recovered turns a panic in a handler into an internal error: nothing
// an editor sends may take forge down.
func (s *server) recovered(method string, err *error) {
	if p := recover(); p != nil {
		s.log.Error().Str("method", method).Str("panic", fmt.Sprint(p)).Str("stack", string(debug.Stack())).Msg("handler panicked")
		*err = internalError(fmt.Sprintf("forge failed on %s: %v", method, p))
	}
}

// Initialize answers with forge's capabilities.
func (s *server) Initialize(_ context.Context, p sdk.InitializeRequest) (r sdk.InitializeResponse, err error) {
	defer s.recovered("initialize", &err)
	s.mu.Lock()
	s.client = p.ClientCapabilities
	s.mu.Unlock()
	title := "forge"
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "forge", Title: &title, Version: s.opts.Version},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:         true,
			PromptCapabilities:  sdk.PromptCapabilities{EmbeddedContext: true},
			McpCapabilities:     sdk.McpCapabilities{Http: true},
			SessionCapabilities: sdk.SessionCapabilities{Close: &sdk.SessionCloseCapabilities{}},
		},
		AuthMethods: []sdk.AuthMethod{},
	}, nil
}

// Authenticate has nothing to do: forge reads its keys from its own
// configuration.
func (s *server) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

// NewSession starts a conversation.
func (s *server) NewSession(ctx context.Context, p sdk.NewSessionRequest) (r sdk.NewSessionResponse, err error) {
	defer s.recovered("session/new", &err)
	o, err := sessionOptions(p.Cwd, p.McpServers)
	if err != nil {
		return r, err
	}
	sess, err := s.opts.Host.NewSession(ctx, o)
	if err != nil {
		return r, internalError(err.Error())
	}
	l := s.add(sess, o.Dir)
	s.announceCommands(l)
	return sdk.NewSessionResponse{SessionId: l.id, Modes: modeState(sess.Mode())}, nil
}

// LoadSession goes on from a kept conversation, replaying it first.
func (s *server) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (r sdk.LoadSessionResponse, err error) {
	defer s.recovered("session/load", &err)
	o, err := sessionOptions(p.Cwd, p.McpServers)
	if err != nil {
		return r, err
	}
	if l := s.session(p.SessionId); l != nil {
		s.replay(ctx, l)
		return sdk.LoadSessionResponse{Modes: modeState(l.sess.Mode())}, nil
	}
	sess, err := s.opts.Host.LoadSession(ctx, string(p.SessionId), o)
	if err != nil {
		return r, invalidParams(err.Error())
	}
	l := s.add(sess, o.Dir)
	s.replay(ctx, l)
	s.announceCommands(l)
	return sdk.LoadSessionResponse{Modes: modeState(sess.Mode())}, nil
}

// sessionOptions checks the editor's directory and servers.
func sessionOptions(cwd string, servers []sdk.McpServer) (SessionOptions, error) {
	if !filepath.IsAbs(cwd) {
		return SessionOptions{}, invalidParams(fmt.Sprintf("cwd must be an absolute path, not %q", cwd))
	}
	mcp, err := mcpServers(servers)
	if err != nil {
		return SessionOptions{}, invalidParams(err.Error())
	}
	return SessionOptions{Dir: filepath.Clean(cwd), MCPServers: mcp}, nil
}

// add makes sess one of the connection's sessions.
func (s *server) add(sess Session, dir string) *live {
	l := &live{id: sdk.SessionId(sess.ID()), sess: sess, dir: dir, mode: sess.Mode()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.sessions[l.id]; ok {
		_ = old.sess.Close()
	}
	s.sessions[l.id] = l
	return l
}

// session is the open session id; nil when there is none.
func (s *server) session(id sdk.SessionId) *live {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[id]
}

// mustSession is the open session id, or the error for the editor.
func (s *server) mustSession(id sdk.SessionId) (*live, error) {
	if l := s.session(id); l != nil {
		return l, nil
	}
	return nil, invalidParams(fmt.Sprintf("no session %s (session/new or session/load first)", id))
}

// Cancel needs nothing of its own: the SDK has cancelled the prompt's
// context, which cancels the run, and the run answers every call it had
// not finished as cancelled.
func (s *server) Cancel(_ context.Context, p sdk.CancelNotification) error {
	s.log.Debug().Str("session", string(p.SessionId)).Msg("cancel")
	return nil
}

// CloseSession ends a session: its prompt is cancelled and waited for.
func (s *server) CloseSession(ctx context.Context, p sdk.CloseSessionRequest) (r sdk.CloseSessionResponse, err error) {
	defer s.recovered("session/close", &err)
	s.mu.Lock()
	l := s.sessions[p.SessionId]
	delete(s.sessions, p.SessionId)
	s.mu.Unlock()
	if l == nil {
		return r, invalidParams(fmt.Sprintf("no session %s", p.SessionId))
	}
	s.mu.Lock()
	if l.cancel != nil {
		l.cancel() // the SDK cancels a prompt on session/cancel only
	}
	s.mu.Unlock()
	l.turn.Lock()
	defer l.turn.Unlock()
	return r, l.sess.Close()
}

// SetSessionMode switches the approval mode from the next call on.
func (s *server) SetSessionMode(_ context.Context, p sdk.SetSessionModeRequest) (r sdk.SetSessionModeResponse, err error) {
	defer s.recovered("session/set_mode", &err)
	l, err := s.mustSession(p.SessionId)
	if err != nil {
		return r, err
	}
	m, ok := modeOf(p.ModeId)
	if !ok {
		return r, invalidParams(fmt.Sprintf("unknown mode %q: use one of ask, auto-edit, plan, yolo", p.ModeId))
	}
	s.setMode(l, m)
	return r, nil
}

// ListSessions, ResumeSession and SetSessionConfigOption are not offered
// (initialize does not advertise them).
func (s *server) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionList)
}

func (s *server) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionResume)
}

func (s *server) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, sdk.NewMethodNotFound(sdk.AgentMethodSessionSetConfigOption)
}

// announceCommands tells the editor, once it knows the session, which
// /commands it may offer.
func (s *server) announceCommands(l *live) {
	cmds := l.sess.Commands()
	go func() {
		time.Sleep(s.opts.CommandsDelay)
		s.update(context.Background(), l.id, sdk.SessionUpdate{AvailableCommandsUpdate: &sdk.SessionAvailableCommandsUpdate{
			AvailableCommands: availableCommands(cmds)}})
	}()
}

// update sends one session update; a failure (the editor gone) is only
// logged: the run goes on and ends with the connection.
func (s *server) update(ctx context.Context, id sdk.SessionId, u sdk.SessionUpdate) {
	if err := s.conn.SessionUpdate(ctx, sdk.SessionNotification{SessionId: id, Update: u}); err != nil {
		s.log.Debug().Err(err).Msg("session/update not sent")
	}
}

// closeAll closes every session once the connection is over, after the
// prompts still running have ended (their contexts are cancelled with
// the connection).
func (s *server) closeAll() {
	s.mu.Lock()
	s.closed = true // no prompt begins from now on
	s.mu.Unlock()
	s.running.Wait()
	s.mu.Lock()
	ls := make([]*live, 0, len(s.sessions))
	for _, l := range s.sessions {
		ls = append(ls, l)
	}
	s.sessions = map[sdk.SessionId]*live{}
	s.mu.Unlock()
	for _, l := range ls {
		if err := l.sess.Close(); err != nil {
			s.log.Warn().Err(err).Str("session", string(l.id)).Msg("closing the session")
		}
	}
}

// capabilities are what the editor said it offers.
func (s *server) capabilities() sdk.ClientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.client
}
