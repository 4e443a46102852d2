// Package repl is forge's shell: the cobra commands, the input loops
// (readline on a terminal, a plain line reader otherwise), the key=value
// argument parser, the command table and completion.
package repl

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"

	"github.com/rs/zerolog"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/logging"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// DeterministicEnv names the environment variable that makes forge's output
// reproducible for golden files: durations print as 0ms, history times as
// a fixed instant and the session id as sess_test. It is a testing aid only.
const DeterministicEnv = "FORGE_DETERMINISTIC"

// App is one run of the forge binary: its streams, environment and, once a
// command starts, its configuration and tool system.
type App struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// LookupEnv reads the environment (os.LookupEnv in main).
	LookupEnv func(string) (string, bool)
	// Getwd returns the current directory (os.Getwd in main).
	Getwd func() (string, error)
	// Registry, when set before Run, is used instead of a new registry
	// with the built-in tools (tests).
	Registry *tools.Registry

	args     []string // the command line, for errors before flags are parsed
	cfg      config.Config
	reg      *tools.Registry
	exec     *tools.Executor
	log      zerolog.Logger
	logClose io.Closer
	ready    bool

	ext *extState // the extensions' state (ext_state.go), made on first use

	stdinTTY, stdoutTTY bool
	deterministic       bool
}

// NewApp returns an App on the process's streams and environment.
func NewApp() *App {
	return &App{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, LookupEnv: os.LookupEnv, Getwd: os.Getwd}
}

// Main builds the root command, runs it with args and returns the exit
// status. main calls it; nothing else in cmd/forge.
func Main(ctx context.Context, args []string) int {
	app := NewApp()
	return app.Run(ctx, args)
}

// Run executes the command line args and returns the exit status.
func (a *App) Run(ctx context.Context, args []string) int {
	root := a.RootCommand()
	a.args = args
	root.SetArgs(args)
	root.SetIn(a.Stdin)
	root.SetOut(a.Stdout)
	root.SetErr(a.Stderr)
	err := root.ExecuteContext(ctx)
	defer a.close()
	return a.exitStatus(err)
}

// env reads one environment variable; unset and empty read the same.
func (a *App) env(name string) string {
	v, _ := a.lookup(name)
	return v
}

// setup loads the configuration and builds the tool system. lenient
// replaces a broken configuration by the defaults, so that Tab completion
// keeps working while the config file is being fixed.
func (a *App) setup(ctx context.Context, cmd *cobra.Command, lenient bool) error {
	if a.ready {
		return nil
	}
	getwd := a.Getwd
	if getwd == nil {
		getwd = os.Getwd
	}
	lookup := a.LookupEnv
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	cfg, err := config.Load(config.Source{Flags: cmd.Flags(), Env: lookup, Getwd: getwd})
	if err != nil {
		if !lenient {
			return usageErr(err)
		}
		// Completion with a broken config file: the defaults are enough
		// to list tools and parameters.
		wd, _ := getwd()
		cfg = config.Config{WorkingDir: wd, Output: "text", LogLevel: "off", HistoryCapacity: tools.DefaultHistoryCapacity}
	}
	a.cfg = cfg
	a.stdinTTY = isTerminal(a.Stdin)
	a.stdoutTTY = isTerminal(a.Stdout)
	a.deterministic = a.env(DeterministicEnv) == "1"

	if err := a.setupLogger(lenient); err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		a.log.Warn().Str("component", "config").Msg(w)
	}
	if a.Registry != nil {
		a.reg = a.Registry
	} else {
		a.reg = tools.NewRegistry(tools.WithDeps(a.deps))
		if err := builtin.Register(a.reg); err != nil {
			return fmt.Errorf("register built-in tools: %w", err)
		}
		// Completion must stay fast and offline: no plugin or MCP start-up.
		if !lenient {
			loadExtensions(ctx, a)
		}
	}
	a.exec = tools.NewExecutor(a.reg, tools.WithLogger(a.executorLogger(cmd)), tools.WithHistoryCapacity(a.cfg.HistoryCapacity))
	a.ready = true
	return nil
}

// setupLogger sends logs to --log-file or standard error.
func (a *App) setupLogger(lenient bool) error {
	w := a.Stderr
	color := isTerminal(a.Stderr) && a.colorAllowed()
	if a.cfg.LogFile != "" {
		f, err := logging.Open(a.cfg.LogFile)
		if err != nil {
			if !lenient {
				return usageErr(err) // logging.Open names the file
			}
		} else {
			w, a.logClose, color = f, f, false
		}
	}
	l, err := logging.New(w, a.cfg.LogLevel, color)
	if err != nil {
		if !lenient {
			return usageErr(err)
		}
		l = zerolog.Nop()
	}
	if lenient {
		// Completion must never write anything but candidates.
		l = zerolog.Nop()
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
	if _, ok := a.lookup("FORGE_LOG_LEVEL"); ok {
		return a.log
	}
	return a.log.Level(zerolog.ErrorLevel)
}

// deps gives each lazily built tool its configuration section and logger.
func (a *App) deps(name string) tools.Deps {
	return tools.Deps{Config: a.cfg.ToolSection(name), Logger: a.log.With().Str("tool", name).Logger()}
}

// close releases what setup opened.
func (a *App) close() {
	if a.reg != nil {
		_ = a.reg.Close()
	}
	if a.logClose != nil {
		_ = a.logClose.Close()
	}
}

// colorAllowed applies NO_COLOR and --no-color; CLICOLOR_FORCE (in
// useColor) wins over a missing terminal but never over NO_COLOR.
func (a *App) colorAllowed() bool {
	if a.cfg.NoColor {
		return false
	}
	if a.env("NO_COLOR") != "" { // no-color.org: present and not empty
		return false
	}
	return true
}

// lookup reads one environment variable and says whether it is set.
func (a *App) lookup(name string) (string, bool) {
	if a.LookupEnv == nil {
		return "", false
	}
	return a.LookupEnv(name)
}

// useColor says whether panels on standard output get colour.
func (a *App) useColor() bool {
	if !a.colorAllowed() {
		return false
	}
	if v := a.env("CLICOLOR_FORCE"); v != "" && v != "0" {
		return true
	}
	return a.stdoutTTY
}

// width is the panel width: --width, else the terminal's, else render's
// default (71).
func (a *App) width() int {
	if a.cfg.Width > 0 {
		return a.cfg.Width
	}
	if f, ok := a.Stdout.(*os.File); ok && a.stdoutTTY {
		if w, _, err := term.GetSize(int(f.Fd())); err == nil && w > 20 {
			return w
		}
	}
	return 0
}

// renderer returns a panel renderer for the current width and colour.
func (a *App) renderer() *render.Renderer {
	return render.New(render.Options{Width: a.width(), Color: a.useColor(), ParamOrder: a.paramOrder})
}

// paramOrder gives the declared parameter order of a tool, for history.
func (a *App) paramOrder(tool string) []string {
	t, ok := a.reg.Get(tool)
	if !ok {
		return nil
	}
	ps := t.Parameters()
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names
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
	ec.SessionID = newSessionID(a.deterministic)
	return ec
}

// newSessionID returns "sess_" and 12 random hex digits.
func newSessionID(deterministic bool) string {
	if deterministic {
		return "sess_test"
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "sess_" + hex.EncodeToString(b[:])
}

// isTerminal reports whether v is an *os.File on a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
