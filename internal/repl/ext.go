package repl

import (
	"context"

	"github.com/spf13/cobra"
)

// The extension seam: MCP servers and plugins (issue 5) add slash commands,
// cobra subcommands and start-up work here; the work itself is in
// ext_*.go.

// extCommands returns the slash commands extensions add (/mcp, /plugins).
func extCommands() []Command {
	return []Command{mcpCommand(), pluginsCommand()}
}

// extSubcommands returns the cobra subcommands extensions add (forge mcp).
func extSubcommands(app *App) []*cobra.Command {
	return []*cobra.Command{app.mcpSubcommand()}
}

// loadExtensions runs once at start-up, after the built-in tools are
// registered: rate limits, plugins, then the MCP servers marked start.
// Nothing here stops forge from starting: a bad manifest or a server that
// does not answer is reported on standard error (and by /plugins, /mcp),
// and the rest of forge works.
func loadExtensions(ctx context.Context, app *App) {
	x := app.extensions()
	x.limits = app.rateLimits()
	x.loadPlugins(ctx, app)
	x.startMCP(ctx, app)
	app.applyRateLimits(x.limits)
}
