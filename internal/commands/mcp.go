package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/mcp"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

func mcpCommand() Command {
	servers := func(env *Env, words []string, _ string) []string {
		if len(words) > 0 || env.MCP == nil {
			return nil
		}
		return withSpace(env.MCP.Names())
	}
	return Command{
		Name: "mcp", Usage: "/mcp [list | connect NAME | reload NAME | resources [NAME] | login NAME | logout NAME]",
		Summary: "Show the MCP servers and their tools; connect or reconnect one",
		Help: `Each server configured under mcp.servers is shown with its state (connected, failed with the reason, not started) and its tools, named mcp__SERVER__TOOL. A server marked start: true connects when forge starts; the others stay not started until /mcp connect NAME (or reload, or the first call of one of its tools). forge mcp list connects every server first. reload reconnects and refreshes the tools, deregistering those that disappeared.

A server with a url that answers 401 is logged into with OAuth: on a terminal the browser opens at its authorization page (the address is printed too) and forge waits for the redirect on 127.0.0.1; the token is kept, 0600, in $XDG_STATE_HOME/forge/mcp-auth and refreshed when it expires. A headless run uses the kept token, and fails saying to run forge mcp login NAME when there is none. forge mcp logout NAME forgets it.

A server's prompts are commands of the shell, /mcp__SERVER__PROMPT ARGS (listed in /help once the server is connected); its resources are listed by /mcp resources and attached to a prompt with @SERVER:URI.

forge mcp serve serves forge's own tools to an MCP client over standard input and output.`,
		Example:    "/mcp\n/mcp connect github\n/mcp reload github",
		CLIExample: "forge mcp list -o json | jq '.servers[] | {name, state}'\nforge mcp serve --tools Read,Grep,Glob",
		Subcommands: []Command{
			{Name: "list", Usage: "/mcp list", Summary: "List the MCP servers, their state and tools", Run: runMCPList, Args: AtMost(0)},
			{Name: "connect", Usage: "/mcp connect NAME", Summary: "Connect an MCP server", Run: mcpConnect(false), Complete: servers},
			{Name: "reload", Usage: "/mcp reload NAME", Summary: "Reconnect an MCP server and refresh its tools", Run: mcpConnect(true), Complete: servers},
			{Name: "login", Usage: "/mcp login NAME", Summary: "Log in to an MCP server that asks for OAuth (the browser opens, or the address is printed)",
				Run: runMCPLogin, Complete: servers},
			{Name: "logout", Usage: "/mcp logout NAME", Summary: "Forget the OAuth login of an MCP server", Run: runMCPLogout, Complete: servers},
			{Name: "resources", Usage: "/mcp resources [NAME]", Summary: "List the resources the MCP servers offer (attach one to a prompt with @SERVER:URI)",
				Run: runMCPResources, Args: AtMost(1), Complete: servers},
			mcpServeCommand(),
		},
	}
}

func runMCPList(ctx context.Context, env *Env, inv Invocation) int {
	if env.MCP == nil {
		return env.Fail(ExitFailed, "error", "MCP servers are not loaded in this session")
	}
	code := ExitOK
	if !inv.Shell {
		// A one-shot has connected nothing yet: connect everything to list it.
		if err := env.MCP.ConnectAll(ctx); err != nil {
			code = ExitFailed
		}
	}
	env.Printer().MCPServers(mcpServers(env.MCP.Status()))
	return code
}

func runMCPLogin(ctx context.Context, env *Env, inv Invocation) int {
	if env.MCP == nil {
		return env.Fail(ExitFailed, "error", "MCP servers are not loaded in this session")
	}
	if len(inv.Args) != 1 {
		return env.Usage(mcpCommand(), inv, "Missing server name")
	}
	name := inv.Args[0]
	if _, ok := env.MCP.Server(name); !ok {
		return env.Usage(mcpCommand(), inv, "Unknown MCP server: "+name+" (configured: "+strings.Join(env.MCP.Names(), ", ")+")")
	}
	asked, err := env.MCP.Login(ctx, name, mcp.BrowserAuthorizer{Out: env.IO.Err, Open: env.IO.OutTerminal})
	if err != nil {
		return env.Fail(ExitFailed, "error", err.Error())
	}
	text := "Logged in to MCP server " + name + "."
	if !asked {
		text = "MCP server " + name + " is connected and did not ask for a login."
	}
	env.Printer().Value(text, map[string]any{"server": name, "logged_in": asked})
	return ExitOK
}

func runMCPLogout(_ context.Context, env *Env, inv Invocation) int {
	if env.MCP == nil {
		return env.Fail(ExitFailed, "error", "MCP servers are not loaded in this session")
	}
	if len(inv.Args) != 1 {
		return env.Usage(mcpCommand(), inv, "Missing server name")
	}
	name := inv.Args[0]
	had, err := env.MCP.Logout(name)
	if err != nil {
		if _, ok := env.MCP.Server(name); !ok {
			return env.Usage(mcpCommand(), inv, err.Error())
		}
		return env.Fail(ExitFailed, "error", err.Error())
	}
	text := "Forgot the login of MCP server " + name + "."
	if !had {
		text = "MCP server " + name + " had no login kept."
	}
	env.Printer().Value(text, map[string]any{"server": name, "forgotten": had})
	return ExitOK
}

func runMCPResources(ctx context.Context, env *Env, inv Invocation) int {
	if env.MCP == nil {
		return env.Fail(ExitFailed, "error", "MCP servers are not loaded in this session")
	}
	server := ""
	if len(inv.Args) == 1 {
		server = inv.Args[0]
		if _, ok := env.MCP.Server(server); !ok {
			return env.Usage(mcpCommand(), inv, "Unknown MCP server: "+server+" (configured: "+strings.Join(env.MCP.Names(), ", ")+")")
		}
	}
	list, err := env.MCP.Resources(ctx, server)
	var b strings.Builder
	for _, r := range list {
		fmt.Fprintf(&b, "@%s:%s", r.Server, r.URI)
		if r.Name != "" && r.Name != r.URI {
			b.WriteString("  " + oneLine(r.Name))
		}
		if r.MIMEType != "" {
			b.WriteString("  " + r.MIMEType)
		}
		if r.Description != "" {
			b.WriteString("  " + oneLine(r.Description))
		}
		b.WriteByte('\n')
	}
	if len(list) == 0 {
		b.WriteString("No resources.\n")
	}
	if list == nil {
		list = []mcp.ResourceInfo{}
	}
	env.Printer().Value(strings.TrimRight(b.String(), "\n"), map[string]any{"resources": list})
	if err != nil {
		return env.Fail(ExitFailed, "error", err.Error())
	}
	return ExitOK
}

// mcpConnect is the Run of connect, or of reload (reconnect and refresh).
func mcpConnect(reload bool) Run {
	return func(ctx context.Context, env *Env, inv Invocation) int {
		return connectMCP(ctx, env, inv, reload)
	}
}

func connectMCP(ctx context.Context, env *Env, inv Invocation, reload bool) int {
	if env.MCP == nil {
		return env.Fail(ExitFailed, "error", "MCP servers are not loaded in this session")
	}
	if len(inv.Args) != 1 {
		return env.Usage(mcpCommand(), inv, "Missing server name")
	}
	name := inv.Args[0]
	var err error
	if reload {
		err = env.MCP.Reload(ctx, name)
	} else {
		err = env.MCP.Connect(ctx, name)
	}
	code := ExitOK
	if err != nil {
		if _, ok := env.MCP.Server(name); !ok {
			return env.Usage(mcpCommand(), inv, err.Error())
		}
		code = env.Fail(ExitFailed, "error", err.Error())
		if env.JSON() {
			return code
		}
	}
	env.Printer().MCPServers(mcpServers(only(env.MCP.Status(), name)))
	return code
}

func only(st []mcp.ServerStatus, name string) []mcp.ServerStatus {
	for _, s := range st {
		if s.Name == name {
			return []mcp.ServerStatus{s}
		}
	}
	return nil
}

// mcpServers is the servers' status as the printer shows it.
func mcpServers(st []mcp.ServerStatus) []render.MCPServer {
	out := make([]render.MCPServer, 0, len(st))
	for _, sv := range st {
		v := render.MCPServer{Name: sv.Name, Transport: sv.Transport, State: string(sv.State)}
		if sv.Err != nil {
			v.Error = sv.Err.Error()
		}
		for _, t := range sv.Tools {
			v.Tools = append(v.Tools, render.MCPTool{Name: t.Name, Remote: t.Remote, Description: t.Description})
		}
		out = append(out, v)
	}
	return out
}

func mcpServeCommand() Command {
	return Command{
		Name: "serve", Usage: "/mcp serve [--tools A,B|all] [--category C] [--http HOST:PORT [--token-file FILE]]", Where: CLIOnly, Args: AtMost(0),
		Summary: "Serve forge's tools to MCP clients over standard input and output, or HTTP",
		Help: `Serve forge's registry (the built-in tools, plugins and the tools of MCP servers started with it) to MCP clients. tools/list answers with the mcp schema format; tools/call takes the path of the agent's calls: hooks, the approval policy, the sandbox (Bash runs in it), the executor. The server's approval mode is ask unless --approval is given here (the configured approval is for your own prompts); a call that would ask is put to the client's person when the client offers elicitation, and refused otherwise, saying how to allow it. With --dry-run every call only says what it would do.

By default only read-only tools are served (those that change nothing); --tools NAME,... picks tools by name, read-only or not, and --tools all serves every tool. One line on standard error names the tools served.

Over stdio (the default) standard output is the protocol and logs go to standard error; closing standard input stops the server, cancelling calls still running after a second. With --http HOST:PORT forge serves the streamable HTTP transport instead; clients must send "Authorization: Bearer TOKEN", the token coming from --token-file FILE or FORGE_MCP_TOKEN. Without a token only a loopback address (127.0.0.1, ::1, localhost) is accepted.`,
		CLIExample: `forge mcp serve --tools Read,Grep,Glob
forge mcp serve --tools all --approval auto-edit
forge mcp serve --tools all --category file --dry-run
FORGE_MCP_TOKEN=$(openssl rand -hex 32) forge mcp serve --http 0.0.0.0:8765
forge mcp serve --http 127.0.0.1:8765`,
		Flags: func(fs *pflag.FlagSet) Run {
			var s mcpServeFlags
			fs.StringSliceVar(&s.tools, "tools", nil, "serve these tools, read-only or not (comma-separated; all: every tool); default: the read-only tools")
			fs.StringVar(&s.category, "category", "", "serve only the tools of this category: "+strings.Join(categoryNames(), ", "))
			fs.StringVar(&s.http, "http", "", "serve the MCP streamable HTTP transport on HOST:PORT instead of stdio")
			fs.StringVar(&s.tokenFile, "token-file", "", "with --http: read the bearer token clients must send from FILE (default: $FORGE_MCP_TOKEN)")
			return s.run
		},
		FlagValues: map[string][]string{"--category": categoryNames()},
	}
}

// mcpServeFlags are forge mcp serve's flags.
type mcpServeFlags struct {
	tools          []string
	category, http string
	tokenFile      string
}

func (s *mcpServeFlags) run(ctx context.Context, env *Env, inv Invocation) int {
	var names []string
	for _, n := range s.tools {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	mode, err := serveMode(env.Config)
	if err != nil {
		return env.Usage(mcpServeCommand(), inv, err.Error())
	}
	if env.Policy == nil || env.Caller == nil {
		return env.Fail(ExitFailed, "usage", "forge mcp serve needs the approval policy, which this forge has not loaded")
	}
	env.Policy.SetMode(mode) // the server's process: its Task subagents follow the same mode
	opts := mcp.ServeOptions{Context: env.Exec, Tools: names, Category: tools.Category(s.category),
		DryRun: env.Exec.DryRun, Log: env.IO.Err, Call: env.servedCall}
	env.noteServed(opts, mode)
	if s.http == "" {
		if s.tokenFile != "" {
			return env.Usage(mcpServeCommand(), inv, "--token-file applies to --http only")
		}
		err = mcp.Serve(ctx, env.Executor, opts, env.IO.In, env.IO.Out)
	} else {
		err = serveHTTP(ctx, env, opts, s.http, s.tokenFile)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return env.Fail(ExitUsage, "usage", err.Error())
	}
	return ExitOK
}

// serveHTTP serves over HTTP with the token of --token-file, else of
// FORGE_MCP_TOKEN, else none (then only loopback is allowed).
func serveHTTP(ctx context.Context, env *Env, opts mcp.ServeOptions, addr, tokenFile string) error {
	var token string
	if tokenFile != "" {
		t, err := mcp.ReadTokenFile(tokenFile)
		if err != nil {
			return err
		}
		token = t
	} else if env.LookupEnv != nil {
		if v, ok := env.LookupEnv("FORGE_MCP_TOKEN"); ok {
			token = strings.TrimSpace(v)
		}
	}
	ln, err := mcp.ListenHTTP(addr, token)
	if err != nil {
		return err
	}
	return mcp.ServeHTTP(ctx, env.Executor, opts, ln, token)
}
