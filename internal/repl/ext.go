package repl

import (
	"context"

	"github.com/spf13/cobra"
)

// The extension seam: MCP servers and plugins (issue 5) add slash commands,
// cobra subcommands and start-up work here, in files of their own.

// extCommands returns the slash commands extensions add (/mcp, /plugins).
func extCommands(s *Shell) []Command { return nil }

// extSubcommands returns the cobra subcommands extensions add (forge mcp).
func extSubcommands(app *App) []*cobra.Command { return nil }

// loadExtensions runs once at start-up, after the built-in tools are
// registered: it may register more tools in app's registry.
func loadExtensions(ctx context.Context, app *App) error { return nil }
