package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/forgehq/forge/internal/plugin"
	"github.com/forgehq/forge/internal/tools"
)

// loadPlugins registers the plugins of the configured plugin directories.
// Failures go to standard error: a name already taken as the
// registration-failed panel, a bad manifest as a warning naming the file
// and the field.
func (x *extState) loadPlugins(ctx context.Context, a *App) {
	var opts []plugin.Option
	if x.limits != nil {
		opts = append(opts, plugin.WithWrap(x.limits.Wrap))
	}
	x.plugins = plugin.NewManager(a.reg, a.cfg.PluginDirs, opts...)
	if err := x.plugins.Load(ctx); err != nil {
		a.reportPluginErrors(a.Stderr, x.plugins.List())
	}
}

// reportPluginErrors writes what went wrong with each refused plugin at
// start-up: the registration-failed panel on w, any other refusal as a
// warning.
func (a *App) reportPluginErrors(w io.Writer, infos []plugin.Info) {
	r := a.renderer()
	eachRefused(infos, func(te *tools.ToolError) {
		fmt.Fprintln(w, r.RegistrationFailed(te.ToolName, te))
	}, func(err error) {
		a.log.Warn().Str("component", "plugin").Msg("Plugin refused: " + err.Error())
	})
}

// eachRefused calls panel for each plugin refused because its tool could not
// be registered (a name already taken), and other for each plugin refused for
// any other reason (a bad manifest).
func eachRefused(infos []plugin.Info, panel func(*tools.ToolError), other func(error)) {
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

// pluginsCommand is /plugins: list the plugins, or reload them.
func pluginsCommand() Command {
	return Command{
		Name:    "/plugins",
		Usage:   "/plugins [reload]",
		Summary: "List the plugin tools, or load the plugin directories again",
		Help: `Plugins are executables described by YAML manifests in the plugin directories
($XDG_CONFIG_HOME/forge/plugins and each --plugins-dir). /plugins lists every
manifest found, loaded or refused (with the reason). /plugins reload
deregisters the plugins and registers them again, so that edited, added and
removed manifests take effect. See docs/extending.md.`,
		Example: "/plugins reload",
		Run:     cmdPlugins,
		Complete: func(_ *Shell, words []string, partial string) []string {
			if len(words) == 0 {
				return filterPrefix([]string{"list", "reload"}, partial)
			}
			return nil
		},
	}
}

func cmdPlugins(ctx context.Context, s *Shell, rest string) int {
	x := s.app.extensions()
	if x.plugins == nil {
		return s.fail(ExitFailed, "error", "Plugins are not loaded in this session")
	}
	switch strings.TrimSpace(rest) {
	case "", "list":
		return s.showPlugins(x.plugins, ExitOK)
	case "reload":
		code := ExitOK
		if err := x.plugins.Reload(ctx); err != nil {
			code = ExitFailed
			if !s.jsonMode() {
				s.reportReloadErrors(x.plugins.List())
			}
		}
		if x.limits != nil {
			_ = x.limits.Apply(s.app.reg)
		}
		return s.showPlugins(x.plugins, code)
	default:
		return s.usage("/plugins", "Unknown /plugins argument: "+strings.TrimSpace(rest))
	}
}

// reportReloadErrors shows the refused plugins of a reload: panels on the
// shell's output, manifest errors on its error output.
func (s *Shell) reportReloadErrors(infos []plugin.Info) {
	eachRefused(infos, func(te *tools.ToolError) {
		s.print(s.r.RegistrationFailed(te.ToolName, te))
	}, func(err error) {
		fmt.Fprintln(s.errOut, "Error: "+err.Error())
	})
}

type pluginJSON struct {
	Name        string   `json:"name,omitempty"`
	Path        string   `json:"path"`
	Category    string   `json:"category,omitempty"`
	Description string   `json:"description,omitempty"`
	Command     []string `json:"command,omitempty"`
	Loaded      bool     `json:"loaded"`
	Error       string   `json:"error,omitempty"`
}

func (s *Shell) showPlugins(m *plugin.Manager, code int) int {
	infos := m.List()
	if s.jsonMode() {
		out := struct {
			Dirs    []string     `json:"dirs"`
			Plugins []pluginJSON `json:"plugins"`
		}{Dirs: m.Dirs(), Plugins: []pluginJSON{}}
		for _, in := range infos {
			p := pluginJSON{Name: in.Name, Path: in.Path, Category: string(in.Category), Description: in.Description, Command: in.Command, Loaded: in.Loaded()}
			if in.Err != nil {
				p.Error = in.Err.Error()
			}
			out.Plugins = append(out.Plugins, p)
		}
		writeJSONLine(s.out, out)
		return code
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Plugins: %d found in %s\n", len(infos), orNone(m.Dirs()))
	for _, in := range infos {
		if in.Err != nil {
			fmt.Fprintf(&b, "  ✗ %s\n      %s\n", orPath(in), in.Err.Error())
			continue
		}
		fmt.Fprintf(&b, "  ✓ %-20s %-10s %s\n      %s\n", in.Name, in.Category, in.Path, in.Description)
	}
	if len(infos) == 0 {
		b.WriteString("  (no manifests: see docs/extending.md)\n")
	}
	s.print(b.String())
	return code
}

func orPath(in plugin.Info) string {
	if in.Name != "" {
		return in.Name + " (" + in.Path + ")"
	}
	return in.Path
}

func orNone(dirs []string) string {
	if len(dirs) == 0 {
		return "(no plugin directories)"
	}
	return strings.Join(dirs, ", ")
}
