package repl

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgehq/forge/internal/mcp"
	"github.com/forgehq/forge/internal/tools"
)

// startMCP makes the manager of the configured MCP servers and connects
// those marked start. The others connect on first use (/mcp connect,
// /mcp reload, forge mcp list).
func (x *extState) startMCP(ctx context.Context, a *App) {
	var cfgs []mcp.ServerConfig
	for _, name := range slices.Sorted(maps.Keys(a.cfg.MCP.Servers)) {
		s := a.cfg.MCP.Servers[name]
		cfgs = append(cfgs, mcp.ServerConfig{Name: name, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Start: s.Start, Timeout: s.Timeout})
	}
	var opts []mcp.Option
	if x.limits != nil {
		opts = append(opts, mcp.WithWrap(x.limits.Wrap))
	}
	x.mcp = mcp.NewManager(a.reg, cfgs, opts...)
	if err := x.mcp.Start(ctx); err != nil {
		for _, e := range unjoin(err) {
			a.log.Warn().Str("component", "mcp").Msg(e.Error())
		}
	}
}

// unjoin splits an errors.Join result.
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// mcpCommand is /mcp.
func mcpCommand() Command {
	return Command{
		Name:    "/mcp",
		Usage:   "/mcp [list | connect NAME | reload NAME]",
		Summary: "Show the MCP servers and their tools; connect or reconnect one",
		Help: `Each server configured under mcp.servers is shown with its state (connected,
failed with the reason, not started) and its tools, named mcp__SERVER__TOOL.
A server marked start: true connects when forge starts; the others stay not
started until /mcp connect NAME (or /mcp reload NAME). /mcp reload NAME
reconnects and refreshes the tools, deregistering those that disappeared.`,
		Example: "/mcp reload github",
		Run:     cmdMCP,
		Complete: func(s *Shell, words []string, partial string) []string {
			switch len(words) {
			case 0:
				return filterPrefix([]string{"list", "connect", "reload"}, partial)
			case 1:
				if x := s.app.extensions(); x.mcp != nil {
					return filterPrefix(x.mcp.Names(), partial)
				}
			}
			return nil
		},
	}
}

func cmdMCP(ctx context.Context, s *Shell, rest string) int {
	x := s.app.extensions()
	if x.mcp == nil {
		return s.fail(ExitFailed, "error", "MCP servers are not loaded in this session")
	}
	verb, name := cutWord(strings.TrimSpace(rest))
	name = strings.TrimSpace(name)
	switch verb {
	case "", "list":
		return s.showMCP(x.mcp.Status(), ExitOK)
	case "connect", "reload":
		if name == "" {
			return s.usage("/mcp", "Missing server name")
		}
		var err error
		if verb == "reload" {
			err = x.mcp.Reload(ctx, name)
		} else {
			err = x.mcp.Connect(ctx, name)
		}
		if err != nil {
			if _, ok := x.mcp.Server(name); !ok {
				return s.usage("/mcp", err.Error())
			}
			code := s.fail(ExitFailed, "error", err.Error())
			if s.jsonMode() {
				return code
			}
			return s.showMCP(only(x.mcp.Status(), name), code)
		}
		return s.showMCP(only(x.mcp.Status(), name), ExitOK)
	default:
		return s.usage("/mcp", "Unknown /mcp argument: "+verb)
	}
}

func only(st []mcp.ServerStatus, name string) []mcp.ServerStatus {
	for _, s := range st {
		if s.Name == name {
			return []mcp.ServerStatus{s}
		}
	}
	return nil
}

type mcpToolJSON struct {
	Name        string `json:"name"`
	Remote      string `json:"remote"`
	Description string `json:"description,omitempty"`
}

type mcpServerJSON struct {
	Name      string        `json:"name"`
	Transport string        `json:"transport"`
	State     string        `json:"state"`
	Error     string        `json:"error,omitempty"`
	Tools     []mcpToolJSON `json:"tools"`
}

// showMCP prints servers with their state and tools.
func (s *Shell) showMCP(st []mcp.ServerStatus, code int) int {
	if s.jsonMode() {
		out := struct {
			Servers []mcpServerJSON `json:"servers"`
		}{Servers: []mcpServerJSON{}}
		for _, sv := range st {
			j := mcpServerJSON{Name: sv.Name, Transport: sv.Transport, State: string(sv.State), Tools: []mcpToolJSON{}}
			if sv.Err != nil {
				j.Error = sv.Err.Error()
			}
			for _, t := range sv.Tools {
				j.Tools = append(j.Tools, mcpToolJSON{Name: t.Name, Remote: t.Remote, Description: t.Description})
			}
			out.Servers = append(out.Servers, j)
		}
		writeJSONLine(s.out, out)
		return code
	}
	s.print(formatMCP(st))
	return code
}

// formatMCP is the text of /mcp and forge mcp list.
func formatMCP(st []mcp.ServerStatus) string {
	var b strings.Builder
	if len(st) == 0 {
		return "MCP servers: none configured (add mcp.servers.NAME to the configuration; see docs/extending.md)\n"
	}
	fmt.Fprintf(&b, "MCP servers: %d\n", len(st))
	for _, sv := range st {
		glyph := map[mcp.State]string{mcp.StateConnected: "✓", mcp.StateFailed: "✗"}[sv.State]
		if glyph == "" {
			glyph = "○"
		}
		fmt.Fprintf(&b, "  %s %s: %s (%s)\n", glyph, sv.Name, sv.State, sv.Transport)
		if sv.Err != nil {
			fmt.Fprintf(&b, "      %s\n", sv.Err.Error())
		}
		if sv.State == mcp.StateNotStarted {
			fmt.Fprintf(&b, "      /mcp connect %s to start it\n", sv.Name)
		}
		for _, t := range sv.Tools {
			fmt.Fprintf(&b, "      %-36s %s\n", t.Name, firstLine(t.Description))
		}
	}
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// mcpSubcommand is forge mcp: list and serve.
func (a *App) mcpSubcommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "MCP: list the configured servers, or serve forge's tools to an MCP client",
		Example: `  forge mcp list                       # each configured server: state and tools
  forge mcp serve                      # forge's tools to an MCP client over stdio
  forge mcp serve --category file --dry-run`,
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "Connect every configured MCP server and list its state and tools",
		Example: `  forge mcp list
  forge mcp list -o json | jq '.servers[] | {name, state}'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s := newShell(a)
			x := a.extensions()
			if x.mcp == nil {
				return exitWith(s.fail(ExitFailed, "error", "MCP servers are not loaded in this session"))
			}
			err := x.mcp.ConnectAll(cmd.Context())
			code := ExitOK
			if err != nil {
				code = ExitFailed
			}
			return exitWith(s.showMCP(x.mcp.Status(), code))
		},
	}
	var toolList []string
	var category, httpAddr, tokenFile string
	serve := &cobra.Command{
		Use:   "serve",
		Short: "Serve forge's tools to an MCP client over standard input and output, or HTTP",
		Long: `Serve forge's registry (the built-in tools, plugins and the tools of MCP servers
started with it) to MCP clients. tools/list answers with the mcp schema format;
tools/call runs through forge's executor: validation, timeout, cancellation,
history. With --dry-run every call only says what it would do.

By default only read-only tools are served (those that change nothing);
--tools NAME,... picks tools by name, read-only or not, and --tools all serves
every tool. One line on standard error names the tools served.

Over stdio (the default) standard output is the protocol and logs go to
standard error; closing standard input stops the server, cancelling calls
still running after a second. With --http HOST:PORT forge serves the
streamable HTTP transport instead; clients must send "Authorization: Bearer
TOKEN", the token coming from --token-file FILE or FORGE_MCP_TOKEN. Without
a token only a loopback address (127.0.0.1, ::1, localhost) is accepted.`,
		Example: `  forge mcp serve
  forge mcp serve --tools Read,Grep,Glob
  forge mcp serve --tools all --category file --dry-run
  FORGE_MCP_TOKEN=$(openssl rand -hex 32) forge mcp serve --http 0.0.0.0:8765
  forge mcp serve --http 127.0.0.1:8765`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var names []string
			for _, n := range toolList {
				if n = strings.TrimSpace(n); n != "" {
					names = append(names, n)
				}
			}
			opts := mcp.ServeOptions{Context: a.executionContext(), Tools: names, Category: tools.Category(category), DryRun: a.cfg.DryRun, Log: a.Stderr}
			var err error
			if httpAddr == "" {
				if tokenFile != "" {
					return usageErr(errors.New("--token-file applies to --http only"))
				}
				err = mcp.Serve(cmd.Context(), a.exec, opts, a.Stdin, a.Stdout)
			} else {
				// The token: --token-file, else FORGE_MCP_TOKEN, else none
				// (then ListenHTTP allows loopback only).
				var token string
				if tokenFile != "" {
					token, err = mcp.ReadTokenFile(tokenFile)
				} else if v, ok := a.lookup("FORGE_MCP_TOKEN"); ok {
					token = strings.TrimSpace(v)
				}
				var ln net.Listener
				if err == nil {
					ln, err = mcp.ListenHTTP(httpAddr, token)
				}
				if err == nil {
					err = mcp.ServeHTTP(cmd.Context(), a.exec, opts, ln, token)
				}
			}
			if err != nil && !errors.Is(err, context.Canceled) {
				return usageErr(err)
			}
			return nil
		},
	}
	serve.Flags().StringSliceVar(&toolList, "tools", nil, "serve these tools, read-only or not (comma-separated; all: every tool); default: the read-only tools")
	serve.Flags().StringVar(&category, "category", "", "serve only the tools of this category: "+strings.Join(categoryNames(), ", "))
	serve.Flags().StringVar(&httpAddr, "http", "", "serve the MCP streamable HTTP transport on HOST:PORT instead of stdio")
	serve.Flags().StringVar(&tokenFile, "token-file", "", "with --http: read the bearer token clients must send from FILE (default: $FORGE_MCP_TOKEN)")
	_ = serve.RegisterFlagCompletionFunc("category", fixedCompletion(categoryNames()...))
	_ = serve.RegisterFlagCompletionFunc("tools", a.toolNameCompletion)
	cmd.AddCommand(list, serve)
	return cmd
}

// lookupTool returns the named tool, connecting the MCP server it belongs to
// when that server has not been started yet (the lazy first use).
func (a *App) lookupTool(ctx context.Context, name string) (tools.Tool, bool) {
	if t, ok := a.reg.Get(name); ok {
		return t, true
	}
	if a.extResolve(ctx, name) {
		return a.reg.Get(name)
	}
	return nil, false
}

// extResolve is the lazy first use of an MCP server: when name, not
// registered, looks like mcp__<server>__<tool> of a configured server that
// is not connected, it connects the server and reports whether the tool
// exists now. A connection failure is logged (and shown by /mcp). Its one
// caller, lookupTool, has already looked name up in the registry.
func (a *App) extResolve(ctx context.Context, name string) bool {
	x := a.extensions()
	if x.mcp == nil {
		return false
	}
	ok, err := x.mcp.ConnectFor(ctx, name)
	if err != nil {
		a.log.Warn().Str("component", "mcp").Msg(err.Error())
	}
	return ok
}
