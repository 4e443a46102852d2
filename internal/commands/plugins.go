package commands

import (
	"context"
	"errors"

	"github.com/forgehq/forge/internal/plugin"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

func pluginsCommand() Command {
	return Command{
		Name: "plugins", Usage: "/plugins [reload]", Summary: "List the plugin tools, or load the plugin directories again",
		Help:    `Plugins are executables described by YAML manifests in the plugin directories ($XDG_CONFIG_HOME/forge/plugins and each --plugins-dir). /plugins lists every manifest found, loaded or refused (with the reason). /plugins reload deregisters the plugins and registers them again, so that edited, added and removed manifests take effect. See docs/extending.md.`,
		Example: "/plugins\n/plugins reload",
		Subcommands: []Command{
			{Name: "list", Usage: "/plugins list", Summary: "List the plugins", Run: runPluginsList},
			{Name: "reload", Usage: "/plugins reload", Summary: "Load the plugin directories again", Run: runPluginsReload},
		},
	}
}

func runPluginsList(_ context.Context, env *Env, _ Invocation) int {
	if env.Plugins == nil {
		return env.Fail(ExitFailed, "error", "Plugins are not loaded in this session")
	}
	return showPlugins(env, ExitOK)
}

func runPluginsReload(ctx context.Context, env *Env, _ Invocation) int {
	if env.Plugins == nil {
		return env.Fail(ExitFailed, "error", "Plugins are not loaded in this session")
	}
	code := ExitOK
	if err := env.Plugins.Reload(ctx); err != nil {
		code = ExitFailed
		if !env.JSON() {
			reportRefused(env, env.Plugins.List())
		}
	}
	if env.Limits != nil {
		_ = env.Limits.Apply(env.Registry)
	}
	return showPlugins(env, code)
}

// reportRefused shows the plugins a reload refused: the registration panel
// for a name already taken, an error line for a bad manifest.
func reportRefused(env *Env, infos []plugin.Info) {
	EachRefused(infos, func(te *tools.ToolError) {
		env.Printer().RegistrationFailed(te.ToolName, te)
	}, func(err error) {
		env.Printer().Error("error", err.Error())
	})
}

// EachRefused calls panel for each plugin refused because its tool could
// not be registered (a name already taken), and other for each plugin
// refused for any other reason (a bad manifest).
func EachRefused(infos []plugin.Info, panel func(*tools.ToolError), other func(error)) {
	for _, in := range infos {
		if in.Err == nil {
			continue
		}
		var te *tools.ToolError
		if errors.As(in.Err, &te) {
			panel(te)
			continue
		}
		other(in.Err)
	}
}

func showPlugins(env *Env, code int) int {
	infos := env.Plugins.List()
	views := make([]render.PluginView, len(infos))
	for i, in := range infos {
		views[i] = render.PluginView{Name: in.Name, Path: in.Path, Category: string(in.Category),
			Description: in.Description, Command: in.Command}
		if in.Err != nil {
			views[i].Error = in.Err.Error()
		}
	}
	env.Printer().Plugins(env.Plugins.Dirs(), views)
	return code
}
