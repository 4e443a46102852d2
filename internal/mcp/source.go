package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/tools"
)

// Manager makes the tools of the configured MCP servers forge tools, in
// category mcp, named mcp__<server>__<tool>.
//
// When connections happen: a server with start: true is connected by Start,
// and its tools are registered then. Any other server is "not started"
// until its first use: Connect (/mcp connect or reload NAME), ConnectAll
// (`forge mcp list`), or ConnectFor (a /run of one of its tools).
// Its tools join the registry at that first connection, which also serves
// the calls: listing never connects a second time. A server that dies is
// marked failed; its tools stay registered and the next call starts it
// again (and refreshes the tool list).
type Manager struct {
	reg  *tools.Registry
	wrap func(tools.Tool) tools.Tool
	// passEnv are the secret-looking variables stdio servers inherit all
	// the same.
	passEnv []string

	servers map[string]*Server
	order   []string
	env     clientEnv
	// media is where images, audio and binary resources from tools are
	// written for the person to open.
	media string
	// onChange, when set, is told when a server's prompts or resources
	// change (the shell's commands and completion follow them).
	onChange func(server string)
	// resourceTools registers the resource tools once.
	resourceTools sync.Once

	mu    sync.Mutex
	owned map[string]owned // forge name -> what we registered under it
}

// owned is one registered MCP tool.
type owned struct {
	server, tool string
	value        tools.Tool // as registered (perhaps wrapped)
}

// Option configures a Manager.
type Option func(*Manager)

// WithWrap sets a decorator applied to every MCP tool before it is
// registered (the rate limiter: ratelimit.Set.Wrap).
func WithWrap(wrap func(tools.Tool) tools.Tool) Option { return func(m *Manager) { m.wrap = wrap } }

// WithPassEnv names environment variables that stdio servers inherit even
// though their names look secret (they contain KEY, TOKEN, SECRET or
// PASSWORD: such variables of forge's environment are otherwise withheld).
// Names match case-insensitively and may be patterns ("AWS_*"); see
// proc.Environ. A server's own configured env is always given to it.
func WithPassEnv(names ...string) Option {
	return func(m *Manager) { m.passEnv = append(m.passEnv, names...) }
}

// WithLogger sets the log that servers' log messages and list refresh
// failures go to (at the level each message gives).
func WithLogger(l zerolog.Logger) Option { return func(m *Manager) { m.env.log = l } }

// WithRoot names the project's root: the one root servers are told of
// (roots/list), as a file:// URI.
func WithRoot(dir string) Option { return func(m *Manager) { m.env.root = dir } }

// WithMediaDir sets where images, audio and binary resources that tools
// return are written, for the person to open; "" is the temporary
// directory.
func WithMediaDir(dir string) Option { return func(m *Manager) { m.media = dir } }

// WithTokenDir sets the directory of the OAuth logins (one 0600 file per
// server); "" keeps them in memory only.
func WithTokenDir(dir string) Option {
	return func(m *Manager) { m.env.tokens = &tokenStore{dir: dir} }
}

// WithAuthorizer sets how the person logs in to a server that asks for
// OAuth; without one such a server fails with ErrLoginNeeded.
func WithAuthorizer(a Authorizer) Option { return func(m *Manager) { m.env.authorizer = a } }

// WithOnChange sets a function told, on a goroutine of its own, when a
// server's prompts or resources change.
func WithOnChange(fn func(server string)) Option { return func(m *Manager) { m.onChange = fn } }

// NewManager returns a manager for the servers, none connected yet.
func NewManager(reg *tools.Registry, servers []ServerConfig, opts ...Option) *Manager {
	m := &Manager{reg: reg, servers: map[string]*Server{}, owned: map[string]owned{},
		env: clientEnv{log: zerolog.Nop(), tokens: &tokenStore{}, discovery: discoveryTransport()}}
	for _, o := range opts {
		o(m)
	}
	m.env.changed = m.changed
	for _, c := range servers {
		if _, dup := m.servers[c.Name]; dup {
			continue
		}
		s := newRemoteServer(c, &m.env)
		s.passEnv = m.passEnv
		m.servers[c.Name] = s
		m.order = append(m.order, c.Name)
	}
	slices.Sort(m.order)
	return m
}

// Names returns the configured server names, sorted.
func (m *Manager) Names() []string { return slices.Clone(m.order) }

// Server returns the named server.
func (m *Manager) Server(name string) (*Server, bool) {
	s, ok := m.servers[name]
	return s, ok
}

// Start connects the servers configured with start: true, in parallel,
// and registers their tools. Failures are joined in the error and shown by
// /mcp; the other servers are not affected.
func (m *Manager) Start(ctx context.Context) error {
	return m.connectEach(ctx, func(s *Server) bool { return s.cfg.Start })
}

// ConnectAll connects every server not connected yet (forge mcp list).
func (m *Manager) ConnectAll(ctx context.Context) error {
	return m.connectEach(ctx, func(*Server) bool { return true })
}

// connectEach connects, in parallel, the servers that want accepts.
func (m *Manager) connectEach(ctx context.Context, want func(*Server) bool) error {
	var wg sync.WaitGroup
	errs := make([]error, len(m.order))
	for i, name := range m.order {
		if !want(m.servers[name]) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = m.Connect(ctx, name)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// Connect connects the named server if it is not connected, and brings
// its tools into the registry.
func (m *Manager) Connect(ctx context.Context, name string) error {
	s, ok := m.servers[name]
	if !ok {
		return m.unknown(name)
	}
	_, listed, err := s.Session(ctx)
	if err != nil {
		return err
	}
	if listed {
		return m.sync(s)
	}
	return nil
}

// ConnectFor connects the server that a forge tool name of the form
// mcp__<server>__<tool> points at, when that server is configured and not
// connected yet, and reports whether the tool is registered afterwards.
// It is the lazy "first use" for callers that meet an unknown tool name
// (a /run of a tool whose server is not started).
func (m *Manager) ConnectFor(ctx context.Context, toolName string) (bool, error) {
	rest, ok := strings.CutPrefix(toolName, namePrefix)
	if !ok {
		return false, nil
	}
	for _, server := range m.order {
		if !strings.HasPrefix(rest, sanitize(server)+nameSep) {
			continue
		}
		if err := m.Connect(ctx, server); err != nil {
			return false, err
		}
		if m.reg.Exists(toolName) {
			return true, nil
		}
	}
	return false, nil
}

// Reload reconnects the named server and refreshes its tools: new ones are
// registered, changed ones replaced, and those that disappeared
// deregistered. On failure its tools are deregistered too.
func (m *Manager) Reload(ctx context.Context, name string) error {
	s, ok := m.servers[name]
	if !ok {
		return m.unknown(name)
	}
	if err := s.Reconnect(ctx); err != nil {
		m.deregister(name)
		return err
	}
	return m.sync(s)
}

func (m *Manager) unknown(name string) error {
	return fmt.Errorf("Unknown MCP server: %s (configured: %v)", name, m.order)
}

// sync makes the registry hold exactly the server's listed tools.
func (m *Manager) sync(s *Server) error {
	_, list, _ := s.Status()
	if s.offersResources() {
		m.registerResourceTools()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	server := s.cfg.Name
	// Forget what we registered for this server, then register the list.
	m.deregisterLocked(server)
	var errs []error
	for _, t := range list {
		name := uniqueName(server, t.Name, func(n string) bool {
			if o, ok := m.owned[n]; ok {
				return o.server != server || o.tool != t.Name
			}
			return m.reg.Exists(n)
		})
		var tool tools.Tool = newRemoteTool(m, s, name, t)
		if m.wrap != nil {
			tool = m.wrap(tool)
		}
		if err := m.reg.Register(tool); err != nil {
			errs = append(errs, fmt.Errorf("MCP server %s, tool %s: %w", server, t.Name, err))
			continue
		}
		m.owned[name] = owned{server: server, tool: t.Name, value: tool}
	}
	return errors.Join(errs...)
}

// registerResourceTools registers ReadMcpResource and ListMcpResources,
// once: when the first server that offers resources connects.
func (m *Manager) registerResourceTools() {
	m.resourceTools.Do(func() {
		for _, list := range []bool{false, true} {
			var t tools.Tool = &resourceTool{m: m, list: list}
			if m.wrap != nil {
				t = m.wrap(t)
			}
			if err := m.reg.Register(t); err != nil {
				m.env.log.Warn().Str("component", "mcp").Msg(err.Error())
			}
		}
	})
}

// changed lists again what server s says changed: new tools join the
// registry, those gone leave it, while forge runs.
func (m *Manager) changed(s *Server, what listKind) {
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	err := s.refresh(ctx, what)
	if err == nil && what == kindTools {
		err = m.sync(s)
	}
	if err != nil {
		m.env.log.Warn().Str("component", "mcp").Str("server", s.cfg.Name).Msg(err.Error())
		return
	}
	if what != kindTools && m.onChange != nil {
		m.onChange(s.cfg.Name)
	}
}

// deregister removes the tools registered for server.
func (m *Manager) deregister(server string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.deregisterLocked(server)
}

// deregisterLocked is deregister with m.mu held. A name that someone else
// has registered since is left in the registry.
func (m *Manager) deregisterLocked(server string) {
	for name, o := range m.owned {
		if o.server != server {
			continue
		}
		if cur, ok := m.reg.Get(name); ok && cur == o.value {
			m.reg.Deregister(name)
		}
		delete(m.owned, name)
	}
}

// ToolStatus is one tool of a server, for /mcp.
type ToolStatus struct {
	Name        string // forge's name
	Remote      string // the server's name
	Description string
	Registered  bool
}

// ServerStatus is one server, for /mcp and forge mcp list.
type ServerStatus struct {
	Name      string
	Transport string
	State     State
	Err       error // why it failed
	Tools     []ToolStatus
}

// Status returns every server with its state and tools, sorted by name.
func (m *Manager) Status() []ServerStatus {
	m.mu.Lock()
	byRemote := map[[2]string]string{}
	for name, o := range m.owned {
		byRemote[[2]string{o.server, o.tool}] = name
	}
	m.mu.Unlock()
	out := make([]ServerStatus, 0, len(m.order))
	for _, name := range m.order {
		s := m.servers[name]
		state, list, err := s.Status()
		st := ServerStatus{Name: name, Transport: s.cfg.Transport(), State: state, Err: err}
		for _, t := range list {
			fname, ok := byRemote[[2]string{name, t.Name}]
			if !ok {
				fname = ToolName(name, t.Name)
			}
			st.Tools = append(st.Tools, ToolStatus{Name: fname, Remote: t.Name, Description: t.Description, Registered: ok})
		}
		out = append(out, st)
	}
	return out
}

// Close stops every server. Their tools stay registered; a call after
// Close starts the server again.
func (m *Manager) Close() error {
	var errs []error
	for _, name := range m.order {
		errs = append(errs, m.servers[name].Close())
	}
	return errors.Join(errs...)
}

// remoteTool is one MCP tool as a forge tool.
type remoteTool struct {
	m      *Manager
	srv    *Server
	name   string
	remote *mcp.Tool
	schema *inputSchema
	desc   string
}

func newRemoteTool(m *Manager, s *Server, name string, t *mcp.Tool) *remoteTool {
	desc := t.Description
	if desc == "" {
		desc = t.Title
	}
	if desc == "" {
		desc = fmt.Sprintf("Tool %s of MCP server %s", t.Name, s.cfg.Name)
	}
	return &remoteTool{m: m, srv: s, name: name, remote: t, desc: desc,
		schema: compileSchema("mcp://"+s.cfg.Name+"/"+t.Name, t.InputSchema)}
}

// Name returns the forge name, mcp__server__tool.
func (t *remoteTool) Name() string { return t.name }

// Description returns the server's description of the tool.
func (t *remoteTool) Description() string { return t.desc }

// Category is always mcp.
func (t *remoteTool) Category() tools.Category { return tools.CategoryMCP }

// Parameters are the schema's top-level properties (see inputSchema).
func (t *remoteTool) Parameters() []tools.Parameter { return t.schema.params }

// InputSchema is the server's schema of the tool's arguments, which models
// get as declared (tools.SchemaTool).
func (t *remoteTool) InputSchema() json.RawMessage { return t.schema.raw }

// ValidateArgs checks args against the server's schema, so that forge
// accepts exactly what the server accepts; the arguments are sent as given.
func (t *remoteTool) ValidateArgs(args tools.Args) *tools.ValidationError {
	verr := t.schema.validate(args)
	if verr != nil {
		verr.Tool = t.name
	}
	return verr
}

// IsReadOnly reports whether the server declares that the tool changes
// nothing (annotations.readOnlyHint). Forge takes the server's word: the
// hint is what lets forge offer the tool where only readers are allowed.
func (t *remoteTool) IsReadOnly() bool {
	return t.remote.Annotations != nil && t.remote.Annotations.ReadOnlyHint
}

// Egress says that a read-only tool may send its arguments beyond the
// machine unless the server declares it closed to the world
// (annotations.openWorldHint: false): a search tool reads nothing here,
// yet its query leaves. The policy asks about such calls as it asks about
// a new host. A tool that changes things is asked about anyway.
func (t *remoteTool) Egress(tools.ExecutionContext, tools.Args) tools.Egress {
	a := t.remote.Annotations
	if !t.IsReadOnly() || a.OpenWorldHint != nil && !*a.OpenWorldHint {
		return tools.Egress{}
	}
	return tools.Egress{OpenWorld: true}
}

// CallTimeout is the server's configured timeout; 0 means the context's.
// When progress resets it, the executor's deadline is the total limit and
// Execute watches the silence between notifications itself.
func (t *remoteTool) CallTimeout(tools.ExecutionContext, tools.Args) time.Duration {
	if t.srv.cfg.ResetTimeoutOnProgress {
		if t.srv.cfg.MaxTotalTimeout > 0 {
			return t.srv.cfg.MaxTotalTimeout
		}
		return defaultMaxTotal
	}
	return t.srv.cfg.Timeout
}

// Close stops the tool's server (Registry.Close at exit). The server's
// other tools share it; closing twice is harmless, and a later call starts
// the server again.
func (t *remoteTool) Close() error { return t.srv.Close() }

// DryRun names the server and tool the call would go to.
func (t *remoteTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	return fmt.Sprintf("Would call tool %s on MCP server %s with %s", t.remote.Name, t.srv.cfg.Name, jsonText(args))
}

// Execute calls the tool with args, which the executor has checked with
// ValidateArgs. The call's context goes to the SDK, which sends
// notifications/cancelled to the server when it ends early (forge's
// timeout, Ctrl-C), so the server can stop working too.
func (t *remoteTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	cs, listed, err := t.srv.Session(ctx)
	if err != nil {
		return tools.Fail(fmt.Sprintf("MCP server %s is not available: %v", t.srv.cfg.Name, unwrapServer(err)), "server", t.srv.cfg.Name)
	}
	if listed { // restarted: its tools may have changed
		_ = t.m.sync(t.srv)
	}
	if args == nil {
		args = tools.Args{}
	}
	ctx, watch := t.watch(ctx, ec)
	defer watch.stop()
	params := &mcp.CallToolParams{Name: t.remote.Name, Arguments: map[string]any(args)}
	token, forget := t.srv.progress.add(watch.progress)
	defer forget()
	params.SetProgressToken(token)
	defer t.srv.askers.push(ec.Asker)()
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			return ended(ctx, watch.limit)
		}
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			// The server answered, with a protocol error: it is alive.
			return tools.Fail(fmt.Sprintf("MCP server %s refused the call: %v", t.srv.cfg.Name, err), "server", t.srv.cfg.Name)
		}
		// No answer (EOF, closed connection): the server is gone.
		reason := fmt.Errorf("the server stopped during a call to %s: %v", t.remote.Name, err)
		t.srv.drop(reason)
		return tools.Fail(fmt.Sprintf("MCP server %s stopped during the call (it is restarted on the next call): %v", t.srv.cfg.Name, err), "server", t.srv.cfg.Name)
	}
	return toResult(t.srv.cfg.Name, t.remote.Name, res, t.m.media)
}

// unwrapServer drops the "MCP server NAME: " prefix fail adds, which the
// callers' messages already say.
func unwrapServer(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}
