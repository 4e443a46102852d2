package mcp

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/tools"
	"github.com/forgehq/forge/internal/version"
)

// clientEnv is what every server's client shares: where its log messages
// go, the root it is told about, what is told when its lists change, and
// how elicitation questions reach the person.
type clientEnv struct {
	log  zerolog.Logger
	root string // the project's root, the servers' one root; "" for none
	// changed is called, on a goroutine of its own, when a server says a
	// list changed.
	changed func(s *Server, what listKind)
	// tokens keeps the OAuth logins; authorizer has the person log in,
	// nil when nobody can (see Authorizer).
	tokens     *tokenStore
	authorizer Authorizer
	// nested: servers run as commands are not started (WithNested).
	nested bool
	// discovery fetches OAuth metadata documents for every server.
	discovery http.RoundTripper
}

// listKind names a list a server may change while connected.
type listKind int

const (
	kindTools listKind = iota
	kindPrompts
	kindResources
)

// newClient is the SDK client of s: forge's handlers for the server's
// notifications and requests, and the project's root.
func newClient(s *Server, env *clientEnv) *mcp.Client {
	opts := &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			s.listChanged(env, kindTools)
		},
		PromptListChangedHandler: func(context.Context, *mcp.PromptListChangedRequest) {
			s.listChanged(env, kindPrompts)
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			s.listChanged(env, kindResources)
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			logMessage(env.log, s.cfg.Name, req.Params)
		},
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			s.progress.deliver(req.Params)
		},
		ElicitationHandler: func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return elicit(ctx, s.askers.current(), s.cfg.Name, req.Params)
		},
		Capabilities: &mcp.ClientCapabilities{
			RootsV2:     &mcp.RootCapabilities{ListChanged: true},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}},
		},
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "forge", Version: version.Version}, opts)
	if env.root != "" {
		c.AddRoots(&mcp.Root{URI: fileURI(env.root), Name: filepath.Base(env.root)})
	}
	return c
}

// fileURI is the file:// URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// listChanged refreshes one of s's lists on a goroutine of its own: the
// SDK delivers notifications from the connection's reader, which must
// not wait for the new list's answer.
func (s *Server) listChanged(env *clientEnv, what listKind) {
	if env.changed != nil {
		go env.changed(s, what)
	}
}

// logMessage writes a server's log message to forge's log at the level
// the server gave.
func logMessage(log zerolog.Logger, server string, p *mcp.LoggingMessageParams) {
	if p == nil {
		return
	}
	var ev *zerolog.Event
	switch p.Level {
	case "debug":
		ev = log.Debug()
	case "info", "notice":
		ev = log.Info()
	case "warning":
		ev = log.Warn()
	default: // error, critical, alert, emergency, and levels unknown
		ev = log.Error()
	}
	if ev == nil {
		return
	}
	ev = ev.Str("component", "mcp").Str("server", server)
	if p.Logger != "" {
		ev = ev.Str("logger", p.Logger)
	}
	msg, ok := p.Data.(string)
	if !ok {
		msg = jsonText(p.Data)
	}
	ev.Msg(msg)
}

// logLevel is the MCP level that asks a server for what log writes.
func logLevel(log zerolog.Logger) mcp.LoggingLevel {
	switch l := log.GetLevel(); {
	case l <= zerolog.DebugLevel:
		return "debug"
	case l == zerolog.InfoLevel:
		return "info"
	case l == zerolog.WarnLevel:
		return "warning"
	default:
		return "error"
	}
}

// progressCalls routes a server's progress notifications to the calls
// that asked for them, by token.
type progressCalls struct {
	next  atomic.Int64
	mu    sync.Mutex
	calls map[string]func(tools.Progress)
}

// add registers fn for a new call and returns the call's token and the
// function that forgets it.
func (p *progressCalls) add(fn func(tools.Progress)) (token string, done func()) {
	token = "forge-" + strconv.FormatInt(p.next.Add(1), 10)
	p.mu.Lock()
	if p.calls == nil {
		p.calls = map[string]func(tools.Progress){}
	}
	p.calls[token] = fn
	p.mu.Unlock()
	return token, func() {
		p.mu.Lock()
		delete(p.calls, token)
		p.mu.Unlock()
	}
}

// deliver hands a notification to its call; one for a call that ended,
// or a token forge never gave, is dropped.
func (p *progressCalls) deliver(n *mcp.ProgressNotificationParams) {
	if n == nil {
		return
	}
	key := fmt.Sprint(n.ProgressToken)
	p.mu.Lock()
	fn := p.calls[key]
	p.mu.Unlock()
	if fn != nil {
		fn(tools.Progress{Progress: n.Progress, Total: n.Total, Message: n.Message})
	}
}

// lists are what a server offers besides its capabilities.
type lists struct {
	tools     []*mcp.Tool
	prompts   []*mcp.Prompt
	resources []*mcp.Resource
}

// listAll lists the tools of a new session, and its prompts and resources
// when the server declares them. A server that fails to list its prompts
// or resources keeps its tools: those lists are extras.
func listAll(ctx context.Context, cs *mcp.ClientSession) (lists, error) {
	var l lists
	var err error
	if l.tools, err = listTools(ctx, cs); err != nil {
		return l, fmt.Errorf("list tools: %w", err)
	}
	l.prompts, _ = listPrompts(ctx, cs)
	l.resources, _ = listResources(ctx, cs)
	return l, nil
}

func listTools(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	var out []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func listPrompts(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Prompt, error) {
	if r := cs.InitializeResult(); r == nil || r.Capabilities == nil || r.Capabilities.Prompts == nil {
		return nil, nil
	}
	var out []*mcp.Prompt
	for p, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func listResources(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Resource, error) {
	if r := cs.InitializeResult(); r == nil || r.Capabilities == nil || r.Capabilities.Resources == nil {
		return nil, nil
	}
	var out []*mcp.Resource
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
