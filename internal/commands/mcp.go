package commands

import (
	"context"
	"errors"
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
		Name: "mcp", Usage: "/mcp [list | connect NAME | reload NAME]",
		Summary: "Show the MCP servers and their tools; connect or reconnect one",
		Help: `Each server configured under mcp.servers is shown with its state (connected, failed with the reason, not started) and its tools, named mcp__SERVER__TOOL. A server marked start: true connects when forge starts; the others stay not started until /mcp connect NAME (or reload, or the first call of one of its tools). forge mcp list connects every server first. reload reconnects and refreshes the tools, deregistering those that disappeared.

forge mcp serve serves forge's own tools to an MCP client over standard input and output.`,
		Example:    "/mcp\n/mcp connect github\n/mcp reload github",
		CLIExample: "forge mcp list -o json | jq '.servers[] | {name, state}'\nforge mcp serve --tools Read,Grep,Glob",
		Subcommands: []Command{
			{Name: "list", Usage: "/mcp list", Summary: "List the MCP servers, their state and tools", Run: runMCPList, Args: AtMost(0)},
			{Name: "connect", Usage: "/mcp connect NAME", Summary: "Connect an MCP server", Run: mcpConnect(false), Complete: servers},
			{Name: "reload", Usage: "/mcp reload NAME", Summary: "Reconnect an MCP server and refresh its tools", Run: mcpConnect(true), Complete: servers},
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
		Name: "serve", Usage: "/mcp serve [--tools A,B] [--category C]", Where: CLIOnly, Args: AtMost(0),
		Summary: "Serve forge's tools to an MCP client over standard input and output",
		Help:    `Serve forge's registry (the built-in tools, plugins and the tools of MCP servers started with it) to one MCP client over stdio. tools/list answers with the mcp schema format; tools/call runs through forge's executor: validation, timeout, cancellation, history. Standard output is the protocol: logs go to standard error only. With --dry-run every call only says what it would do.`,
		Flags: func(fs *pflag.FlagSet) Run {
			toolList := fs.StringSlice("tools", nil, "serve only these tools (comma-separated)")
			category := fs.String("category", "", "serve only the tools of this category: "+strings.Join(categoryNames(), ", "))
			return func(ctx context.Context, env *Env, _ Invocation) int {
				var names []string
				for _, n := range *toolList {
					if n = strings.TrimSpace(n); n != "" {
						names = append(names, n)
					}
				}
				opts := mcp.ServeOptions{Context: env.Exec, Tools: names, Category: tools.Category(*category),
					DryRun: env.Exec.DryRun, Log: env.IO.Err}
				err := mcp.Serve(ctx, env.Executor, opts, env.IO.In, env.IO.Out)
				if err != nil && !errors.Is(err, context.Canceled) {
					return env.Fail(ExitUsage, "usage", err.Error())
				}
				return ExitOK
			}
		},
		FlagValues: map[string][]string{"--category": categoryNames()},
	}
}
