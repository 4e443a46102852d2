package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/mcp"
	"github.com/forgehq/forge/internal/plugin"
	"github.com/forgehq/forge/internal/ratelimit"
	"github.com/forgehq/forge/internal/tools"
)

// loadExtensions runs once at start-up, after the built-in tools are
// registered: rate limits, plugins, then the MCP servers marked start.
// Nothing here stops forge from starting: a bad manifest or a server that
// does not answer is reported on standard error (and by /plugins, /mcp),
// and the rest of forge works.
func (a *App) loadExtensions(ctx context.Context) {
	a.env.Limits = a.rateLimits()
	a.loadPlugins(ctx)
	a.startMCP(ctx)
	a.applyRateLimits()
}

// rateLimits builds the limiters of every tools.<Name>.rate in the
// configuration. Bad entries are warned about and skipped.
func (a *App) rateLimits() *ratelimit.Set {
	limits := map[string]ratelimit.Limit{}
	for _, name := range slices.Sorted(maps.Keys(a.cfg.Tools)) {
		if rl, ok := a.cfg.Rate(name); ok {
			limits[name] = ratelimit.Limit{PerSecond: rl.PerSecond, Burst: rl.Burst}
		}
	}
	set, err := ratelimit.NewSet(limits)
	if err != nil {
		a.log.Warn().Str("component", "ratelimit").Msg(err.Error())
	}
	return set
}

// applyRateLimits wraps the registered tools that have a limit. Plugins
// and MCP tools registered later are wrapped as they are registered; a
// limit that names no tool at all is worth a warning (a misspelt name).
func (a *App) applyRateLimits() {
	if err := a.env.Limits.Apply(a.env.Registry); err != nil {
		msg := err.Error()
		if errors.Is(err, ratelimit.ErrNotRegistered) {
			msg += " (MCP tools of servers not started yet get their limit when they connect)"
		}
		a.log.Warn().Str("component", "ratelimit").Msg(msg)
	}
}

// loadPlugins registers the plugins of the configured plugin directories.
// Failures go to standard error: a name already taken as the
// registration-failed panel, a bad manifest as a warning naming the file
// and the field.
func (a *App) loadPlugins(ctx context.Context) {
	opts := []plugin.Option{plugin.WithPassEnv(a.cfg.PassEnv...)}
	if a.env.Limits != nil {
		opts = append(opts, plugin.WithWrap(a.env.Limits.Wrap))
	}
	a.env.Plugins = plugin.NewManager(a.env.Registry, a.cfg.PluginDirs, opts...)
	if err := a.env.Plugins.Load(ctx); err != nil {
		r := a.renderer()
		commands.EachRefused(a.env.Plugins.List(), func(te *tools.ToolError) {
			fmt.Fprintln(a.ios.Err, r.RegistrationFailed(te.ToolName, te))
		}, func(err error) {
			a.log.Warn().Str("component", "plugin").Msg("Plugin refused: " + err.Error())
		})
	}
}

// startMCP makes the manager of the configured MCP servers and connects
// those marked start. The others connect on first use.
func (a *App) startMCP(ctx context.Context) {
	var cfgs []mcp.ServerConfig
	for _, name := range slices.Sorted(maps.Keys(a.cfg.MCP.Servers)) {
		s := a.cfg.MCP.Servers[name]
		cfgs = append(cfgs, mcp.ServerConfig{Name: name, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd,
			URL: s.URL, Headers: s.Headers, Start: s.Start, Timeout: s.Timeout,
			ResetTimeoutOnProgress: s.ResetTimeoutOnProgress, MaxTotalTimeout: s.MaxTotalTimeout,
			OAuth: mcp.OAuthConfig{ClientID: s.OAuth.ClientID, ClientSecret: s.OAuth.ClientSecret,
				ClientMetadataURL: s.OAuth.ClientMetadataURL, CallbackPort: s.OAuth.CallbackPort}})
	}
	opts := []mcp.Option{mcp.WithPassEnv(a.cfg.PassEnv...), mcp.WithRoot(a.projectRoot()),
		mcp.WithLogger(a.log), mcp.WithTokenDir(config.DefaultMCPAuthDir(a.opts.LookupEnv))}
	if v, ok := a.opts.LookupEnv(mcp.NestedEnv); ok && v != "" {
		// forge started this forge as an MCP server: starting the
		// configured servers could start forge again, level after level.
		opts = append(opts, mcp.WithNested())
	}
	if a.ios.InTerminal && a.ios.OutTerminal {
		// Only a person at a terminal can log in when a server asks;
		// headless, such a server fails saying to run forge mcp login.
		opts = append(opts, mcp.WithAuthorizer(mcp.BrowserAuthorizer{Out: a.ios.Err, Open: true}))
	}
	if a.env.Limits != nil {
		opts = append(opts, mcp.WithWrap(a.env.Limits.Wrap))
	}
	a.env.MCP = mcp.NewManager(a.env.Registry, cfgs, opts...)
	if err := a.env.MCP.Start(ctx); err != nil {
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
