package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/spf13/cobra"

	"github.com/forgehq/forge/internal/acp"
	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/mcp"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
	"github.com/forgehq/forge/internal/version"
)

// acpCommand is forge acp: forge as an editor's agent, over standard
// input and output.
func (a *App) acpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "acp",
		Short: "Serve forge to an editor over the Agent Client Protocol (JSON-RPC on standard input and output)",
		Long: render.WrapText(`Runs forge as an agent of the Agent Client Protocol, for editors that host agents (Zed, JetBrains IDEs, Neovim, Emacs): the editor starts forge acp and speaks JSON-RPC on its standard input and output.

Each editor session is a forge conversation, kept like the shell's (forge -r ID resumes it, and the editor may load it again). Calls are decided by the same approval mode and rules as in the shell; where the shell would ask, the editor asks (allow once, always for this session, reject), and its modes are forge's (ask, auto-edit, plan, yolo). When the editor offers terminals, Bash runs in them; forge reads and writes files itself, never through the editor's file methods, which would follow a link swapped in after forge checked the path (the editor sees each change as the call's diff). Logs go to standard error or --log-file; nothing but protocol messages is written to standard output. Closing standard input ends forge and everything it started.`, 80),
		Example: `  forge acp
  forge acp --approval auto-edit --log-file /tmp/forge-acp.log`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h := &acpHost{a: a}
			defer h.close()
			err := acp.Serve(cmd.Context(), a.ios.In, a.ios.Out, acp.Options{Host: h, Log: a.log, Version: version.Version})
			if err != nil {
				return &exitError{code: commands.ExitFailed, err: err}
			}
			return nil
		},
	}
}

// acpHost is forge's conversations for the editor: each one an
// environment forked from the app's, with a policy of its own.
type acpHost struct {
	a *App
	// agentMu puts the making of agents one at a time: the model is
	// chosen on the first prompt of any session, and kept.
	agentMu sync.Mutex
	// mcpMu guards servers: the editor's MCP servers, by name, started
	// for the first session that names them and kept for the connection.
	mcpMu   sync.Mutex
	servers map[string]*mcp.Manager
}

func (h *acpHost) Lookup(name string) (tools.Tool, bool) { return h.a.env.Registry.Get(name) }

func (h *acpHost) NewSession(ctx context.Context, o acp.SessionOptions) (acp.Session, error) {
	return h.open(ctx, o)
}

func (h *acpHost) LoadSession(ctx context.Context, id string, o acp.SessionOptions) (acp.Session, error) {
	s, err := h.open(ctx, o)
	if err != nil {
		return nil, err
	}
	warnings, err := s.env.Load(id)
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		h.a.log.Warn().Str("component", "acp").Str("session", id).Msg(w)
	}
	return s, nil
}

// open makes a conversation that works in o.Dir, with the editor's MCP
// servers started.
func (h *acpHost) open(ctx context.Context, o acp.SessionOptions) (*acpSession, error) {
	a := h.a
	if a.env.Policy == nil || a.env.Agent == nil {
		return nil, fmt.Errorf("this forge has no agent")
	}
	p, err := a.newPolicy()
	if err != nil {
		return nil, err
	}
	if o.Dir != a.cfg.WorkingDir {
		if p, err = p.InDir(o.Dir); err != nil {
			return nil, err
		}
	}
	h.startMCP(ctx, o.MCPServers)
	env := a.env.Fork(o.Dir, p, a.ios.Err)
	env.Agent = func(ctx context.Context, opts commands.AgentOptions) (*agent.Agent, render.RunInfo, error) {
		h.agentMu.Lock()
		defer h.agentMu.Unlock()
		return a.newAgent(ctx, opts)
	}
	return &acpSession{env: env, host: h}, nil
}

// startMCP starts the editor's MCP servers that are new: a name forge's
// configuration already has keeps forge's server.
func (h *acpHost) startMCP(ctx context.Context, servers []acp.MCPServer) {
	h.mcpMu.Lock()
	defer h.mcpMu.Unlock()
	for _, s := range servers {
		if _, ok := h.a.cfg.MCP.Servers[s.Name]; ok {
			h.a.log.Warn().Str("component", "acp").Msgf("the editor's MCP server %q has the name of one of forge's: forge's is used", s.Name)
			continue
		}
		if _, ok := h.servers[s.Name]; ok {
			continue
		}
		if h.servers == nil {
			h.servers = map[string]*mcp.Manager{}
		}
		m := mcp.NewManager(h.a.env.Registry, []mcp.ServerConfig{{Name: s.Name, Command: s.Command, Args: s.Args, Env: s.Env,
			URL: s.URL, Headers: s.Headers, Start: true}}, mcp.WithPassEnv(h.a.cfg.PassEnv...), mcp.WithRoot(h.a.projectRoot()), mcp.WithLogger(h.a.log))
		h.servers[s.Name] = m
		if err := m.Start(ctx); err != nil {
			h.a.log.Warn().Str("component", "acp").Msgf("the editor's MCP server %q: %v", s.Name, err)
		}
	}
}

// close stops the editor's MCP servers.
func (h *acpHost) close() {
	h.mcpMu.Lock()
	defer h.mcpMu.Unlock()
	for _, m := range h.servers {
		_ = m.Close()
	}
}

// acpSession is one editor session: a forge conversation.
type acpSession struct {
	env  *commands.Env
	host *acpHost
}

func (s *acpSession) ID() string                { return s.env.Exec.SessionID }
func (s *acpSession) Mode() permission.Mode     { return s.env.Policy.Mode() }
func (s *acpSession) SetMode(m permission.Mode) { s.env.Policy.SetMode(m) }
func (s *acpSession) Messages() []llm.Message   { return s.env.Conversation.Messages }
func (s *acpSession) Todos() agent.Todos        { return s.env.Conversation.Todos }
func (s *acpSession) Typed(prompt string) string {
	return s.env.Shown().Typed[prompt]
}

func (s *acpSession) Commands() []acp.Command {
	var out []acp.Command
	for _, c := range s.env.Custom() {
		desc := c.Description
		if desc == "" {
			desc = "Custom command"
		}
		out = append(out, acp.Command{Name: c.Name, Description: desc, Hint: c.ArgumentHint})
	}
	return out
}

// ContextWindow reads the model the first prompt of any session chose,
// under the lock that choice is made with.
func (s *acpSession) ContextWindow() int {
	if s.env.ContextWindow == nil {
		return 0
	}
	s.host.agentMu.Lock()
	defer s.host.agentMu.Unlock()
	return s.env.ContextWindow()
}

func (s *acpSession) Spent() (float64, bool) { return s.env.Spending.Cost, s.env.Spending.Priced }

func (s *acpSession) Run(ctx context.Context, prompt string, f acp.Front, emit func(agent.Event)) (agent.Done, error) {
	d, err := s.env.RunFront(ctx, prompt, commands.Front{Approver: f.Approver, Terminals: f.Terminals}, emit)
	var bad *commands.PromptError
	if errors.As(err, &bad) {
		return d, fmt.Errorf("%w: %w", acp.ErrBadPrompt, bad)
	}
	return d, err
}

func (s *acpSession) Close() error {
	s.env.CloseSession()
	return nil
}
