package app

import (
	"context"
	"errors"
	"fmt"
	"github.com/forgehq/forge/internal/agent"
	"os"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/logging"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// setup loads the configuration and builds the tool system and the
// command environment. lenient replaces a broken configuration by the
// defaults and starts no extension, so that Tab completion keeps working,
// fast and offline, while the config file is being fixed.
func (a *App) setup(ctx context.Context, cmd *cobra.Command, lenient bool) error {
	if a.ready {
		return nil
	}
	trust, err := a.loadConfig(cmd, lenient)
	if err != nil {
		return err
	}
	cfg := a.cfg
	if asksVersion(cmd) {
		// The version needs the output format and nothing more: no tool
		// is registered, no extension looked for.
		a.env = &commands.Env{IO: a.ios, Config: cfg, Log: a.log, Clock: a.opts.Clock, Output: cfg.Output,
			Renderer: a.renderer, Cols: a.width, LookupEnv: a.opts.LookupEnv, Trust: trust}
		a.ready = true
		return nil
	}
	var loads customLoads
	if !lenient {
		loads = a.startCustomLoads()
		a.loadCustomAgents(loads.agents)
		a.loadSkills(loads.skills)
	}
	reg := a.opts.Registry
	if reg == nil {
		reg = tools.NewRegistry(tools.WithDeps(a.deps), tools.WithID(a.newID("0x")))
		if err := builtin.Register(reg); err != nil {
			return fmt.Errorf("register built-in tools: %w", err)
		}
		if err := reg.Register(agent.NewTaskTool(a.spawnAgent, a.taskProfiles()...)); err != nil {
			return fmt.Errorf("register the Task tool: %w", err)
		}
		if defs := a.skillDefs(); len(defs) > 0 {
			if err := reg.Register(builtin.NewSkillTool(defs)); err != nil {
				return fmt.Errorf("register the Skill tool: %w", err)
			}
		}
	}
	exec := tools.NewExecutor(reg, tools.WithLogger(a.executorLogger(cmd)),
		tools.WithHistoryCapacity(cfg.HistoryCapacity), tools.WithClock(a.opts.Clock))
	a.env = &commands.Env{IO: a.ios, Config: cfg, Registry: reg, Executor: exec, Log: a.log, Clock: a.opts.Clock,
		Exec: a.executionContext(), Output: cfg.Output, Renderer: a.renderer, Cols: a.width, LookupEnv: a.opts.LookupEnv,
		Trust: trust}
	if !lenient {
		if a.env.Policy, err = a.newPolicy(); err != nil {
			return usageErr(err)
		}
		if a.env.Hooks, err = a.newHooks(); err != nil {
			return usageErr(err)
		}
		a.env.Agent = a.newAgent
		a.env.Caller = a.callAgent
		a.env.Models = appModels{a}
		a.env.Sandbox = sandboxControl{a}
		a.env.ContextWindow = a.contextWindow
		a.env.Memory = a.memory
		a.env.Skills = a.skillViews
	}
	if a.opts.Registry == nil && !lenient {
		a.loadExtensions(ctx)
	}
	if !lenient {
		// After the plugins, whose tools custom definitions may name.
		a.loadCustomCommands(loads.commands)
		a.checkAgentTools()
	}
	a.ready = true
	if !lenient {
		a.openSessions()
		return a.resumeIfAsked(cmd)
	}
	return nil
}

// loadConfig loads the configuration into a.cfg, asking on a terminal
// whether to trust a project that asks for more (and loading again on
// yes), sets up the logger and logs the warnings. It returns the person's
// trusted projects, for forge trust.
func (a *App) loadConfig(cmd *cobra.Command, lenient bool) (*config.Trust, error) {
	trust, trustWarning := a.loadTrust()
	src := config.Source{Flags: cmd.Flags(), Env: a.opts.LookupEnv, Getwd: a.opts.Getwd, Trusted: trust.Hash,
		ToolSettings: builtin.Settings}
	cfg, err := config.Load(src)
	if repairs(cmd) {
		cfg, err = a.loadSkippingBroken(src, cfg, err)
	}
	asked := false
	if err == nil && !lenient && a.mayAskTrust(cmd, cfg) {
		asked = true
		yes, aerr := a.askTrust(cmd.Context(), cfg)
		if aerr != nil {
			return nil, &exitError{code: commands.ExitCancelled, err: aerr, reported: true}
		}
		if yes {
			if terr := trust.Add(cfg.ProjectDir, cfg.Project.Hash, a.opts.Clock()); terr != nil {
				trustWarning = terr.Error()
			} else {
				cfg, err = config.Load(src)
			}
		}
	}
	if err != nil {
		if !lenient {
			return nil, usageErr(err)
		}
		wd, _ := a.opts.Getwd()
		cfg = config.Config{WorkingDir: wd, Output: "text", LogLevel: "off", HistoryCapacity: tools.DefaultHistoryCapacity,
			Read: config.Read{AllowOutside: true}}
	}
	a.cfg = cfg
	if err := a.setupLogger(lenient); err != nil {
		return nil, err
	}
	for _, w := range cfg.Warnings {
		a.warn(w)
	}
	if w := cfg.Project.Warning(); w != "" && !asked && !lenient && !showsTrust(cmd) {
		a.warn(w)
	}
	if trustWarning != "" && !lenient {
		a.warn(trustWarning)
	}
	return trust, nil
}

// loadSkippingBroken is the configuration without the files that stop
// forge (a project file, or the person's Claude Code settings, that
// cannot be used), for the commands that repair things: each file skipped
// is a warning. cfg and err are what loading with them gave.
func (a *App) loadSkippingBroken(src config.Source, cfg config.Config, err error) (config.Config, error) {
	var skipped []string
	for range 2 { // each kind of file once
		var perr *config.ProjectError
		var cerr *config.ClaudeSettingsError
		switch {
		case errors.As(err, &perr) && !src.SkipProject:
			src.SkipProject = true
			skipped = append(skipped, perr.Error()+"; the project file is ignored")
		case errors.As(err, &cerr) && !src.SkipClaudeUser:
			src.SkipClaudeUser = true
			skipped = append(skipped, cerr.Error()+"; the file is ignored")
		default:
			continue
		}
		cfg, err = config.Load(src)
	}
	if err == nil {
		cfg.Warnings = append(cfg.Warnings, skipped...)
	}
	return cfg, err
}

// setupLogger sends logs to --log-file or standard error.
func (a *App) setupLogger(lenient bool) error {
	if lenient {
		// Completion must never write anything but candidates.
		a.log, a.quiet = zerolog.Nop(), true
		return nil
	}
	w := a.ios.Err
	color := a.errTTY && a.colorAllowed()
	if a.cfg.LogFile != "" {
		f, err := logging.Open(a.cfg.LogFile)
		if err != nil {
			return usageErr(err) // logging.Open names the file
		}
		w, a.logClose, color = f, f, false
	}
	l, err := logging.New(w, a.cfg.LogLevel, color, a.opts.Clock)
	if err != nil {
		return usageErr(err)
	}
	a.log = l
	return nil
}

// executorLogger is the executor's logger. Its warnings ("Tool Read
// failed: ...") repeat the failure panel just above them, so on the
// terminal, at the default level, only errors are shown; an explicit
// --log-level or FORGE_LOG_LEVEL, or a --log-file, keeps every line.
func (a *App) executorLogger(cmd *cobra.Command) zerolog.Logger {
	if a.cfg.LogFile != "" || a.cfg.LogLevel != "warn" {
		return a.log
	}
	if f := cmd.Flags().Lookup("log-level"); f != nil && f.Changed {
		return a.log
	}
	if _, ok := a.opts.LookupEnv("FORGE_LOG_LEVEL"); ok {
		return a.log
	}
	return a.log.Level(zerolog.ErrorLevel)
}

// deps gives each lazily built tool its configuration section and logger.
func (a *App) deps(name string) tools.Deps {
	return tools.Deps{Config: a.cfg.ToolSection(name), Logger: a.log.With().Str("tool", name).Logger()}
}

// executionContext is the context every call of this run starts from.
func (a *App) executionContext() tools.ExecutionContext {
	ec := tools.NewExecutionContext(a.cfg.WorkingDir)
	if a.cfg.Timeout > 0 {
		ec.Timeout = a.cfg.Timeout
	}
	if a.cfg.MaxOutputSize > 0 {
		ec.MaxOutputSize = a.cfg.MaxOutputSize
	}
	ec.DryRun = a.cfg.DryRun
	ec.AllowedRoots = a.cfg.AllowedRoots
	ec.ConfineReads = !a.cfg.Read.AllowOutside
	ec.PassEnv = a.cfg.PassEnv
	ec.Env = a.configEnv()
	ec.SessionID = a.newID("sess_")
	return ec
}

// colorAllowed applies NO_COLOR and --no-color; CLICOLOR_FORCE (in
// useColor) wins over a missing terminal but never over NO_COLOR.
func (a *App) colorAllowed() bool {
	return !a.cfg.NoColor && a.getenv("NO_COLOR") == "" // no-color.org: present and not empty
}

// useColor says whether panels on standard output get colour.
func (a *App) useColor() bool {
	if !a.colorAllowed() {
		return false
	}
	if v := a.getenv("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	return a.ios.OutTerminal
}

// width is the panel width: --width, else the terminal's, else render's
// default (71).
func (a *App) width() int {
	if a.cfg.Width > 0 {
		return a.cfg.Width
	}
	if f, ok := a.ios.Out.(*os.File); ok && a.ios.OutTerminal {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 20 {
			return w
		}
	}
	return 0
}

// renderer returns a panel renderer for the current width and colour.
func (a *App) renderer() *render.Renderer {
	var order func(string) []string
	if a.env != nil {
		order = commands.ParamOrder(a.env.Registry)
	}
	return render.New(render.Options{Width: a.width(), Color: a.useColor(), ParamOrder: order, CommandLine: a.commandLine})
}
