// Package app is forge's composition root: it reads the configuration once,
// builds the registry (built-in tools, plugins, MCP servers, rate limits),
// the logger, the printer, the clock and the streams, turns the command
// table into cobra commands, and picks the shell or a one-shot command. It
// is the only package that knows every other one; cmd/forge only calls Main.
package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/term"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/custom"
	"github.com/forgehq/forge/internal/sandbox"
	"github.com/forgehq/forge/internal/tools"
)

// Options are the process's inputs that tests pin: the clock, the source
// of randomness (session and registry ids), the environment and the
// working directory. The zero value means the real ones.
type Options struct {
	Clock     func() time.Time
	Random    io.Reader
	LookupEnv func(string) (string, bool)
	Getwd     func() (string, error)
	// Registry, when set, replaces the built-in tools and extensions
	// (tests that need tools whose behaviour they control).
	Registry *tools.Registry
	// SandboxDial connects the sandbox's proxy to the hosts it lets
	// through; nil dials directly (tests resolve names their own way).
	SandboxDial func(ctx context.Context, network, addr string) (net.Conn, error)
	// OwnProcess says Main is the process's whole life (cmd/forge): it
	// then becomes the subreaper of its descendants, handles SIGTERM and
	// SIGHUP, and ends every process the tools started before it returns.
	// Tests that call Main inside a test binary leave it off.
	OwnProcess bool
}

// Main runs forge with the command-line arguments args on the streams in,
// out and errOut, and returns the exit status.
func Main(ctx context.Context, args []string, in io.Reader, out, errOut io.Writer, opts Options) int {
	if len(args) > 0 && args[0] == sandbox.InitArg {
		// forge as the first process of its own sandbox: before anything
		// else, since what it runs must not wait for the rest of forge.
		return sandbox.Init(args[1:])
	}
	run := func(ctx context.Context, args []string) int {
		a := newApp(in, out, errOut, opts)
		defer a.close()
		return a.run(ctx, args)
	}
	if opts.OwnProcess {
		return guarded(ctx, args, run, errOut)
	}
	return run(ctx, args)
}

// App is one run of the binary: its inputs and, once a command starts, what
// setup built from the configuration.
type App struct {
	opts   Options
	ios    commands.IOStreams
	errTTY bool

	args     []string // the command line, for errors before flags are parsed
	cfg      config.Config
	env      *commands.Env
	log      zerolog.Logger
	logClose io.Closer
	// resumed says the conversation was loaded from a kept session.
	resumed bool
	// quiet says nothing but a command's own output may be written
	// (Tab completion): no warnings.
	quiet bool
	// commandLine says a command of the command line runs (forge run),
	// not the shell: its messages name forge's commands, not /commands.
	commandLine bool
	ready       bool
	model       modelChoice // chosen on the first prompt
	// mcpForModel connects, once, the MCP servers not started with forge
	// when a model is first prompted: a model offered none of their
	// tools could not use them.
	mcpForModel sync.Once
	// agents are the custom subagents loaded at start.
	agents []custom.Agent
	// skills are the skills loaded at start.
	skills []custom.Skill
	// claudeRoot keeps claudeProject's answer.
	claudeRoot struct {
		mu       sync.Mutex
		key, dir string
		set      bool
	}
	// startScopes are the scopes of the tool lists of the definitions
	// loaded at start, by list (startScope).
	startScopes map[string]scopeMemo
	// modelFiles are the definitions loaded at start that name a model,
	// by their file, for the one line that says which are not used.
	modelFiles map[string]string
	// aliasWarned holds the reasons a definition's model: was not used
	// that were warned about (a Claude alias elsewhere, an untrusted
	// project's), so that each is said once, for all the files.
	aliasWarned sync.Map
	// noticed holds the notices about instructions files already given,
	// so that each is given once, not with every prompt.
	noticed sync.Map
	// sbox is the sandbox of the agent's commands, built on first use.
	sbox sandboxState
}

func newApp(in io.Reader, out, errOut io.Writer, opts Options) *App {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Random == nil {
		opts.Random = rand.Reader
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	if opts.Getwd == nil {
		opts.Getwd = os.Getwd
	}
	return &App{
		opts: opts,
		ios: commands.IOStreams{In: in, Out: out, Err: errOut,
			InTerminal: isTerminal(in), OutTerminal: isTerminal(out)},
		errTTY: isTerminal(errOut),
	}
}

// run executes the command line args and returns the exit status.
func (a *App) run(ctx context.Context, args []string) int {
	root := a.rootCommand()
	args = bareResume(root, args)
	a.args = args
	root.SetArgs(args)
	root.SetIn(a.ios.In)
	root.SetOut(a.ios.Out)
	root.SetErr(a.ios.Err)
	return a.exitStatus(root.ExecuteContext(ctx))
}

// getenv reads one environment variable; unset and empty read the same.
func (a *App) getenv(name string) string {
	v, _ := a.opts.LookupEnv(name)
	return v
}

// newID returns prefix and 12 hex digits from the injected randomness.
func (a *App) newID(prefix string) string {
	var b [6]byte
	_, _ = io.ReadFull(a.opts.Random, b[:])
	return prefix + hex.EncodeToString(b[:])
}

// close releases what setup opened.
func (a *App) close() {
	if a.env != nil {
		a.env.CloseSession()
	}
	if a.env != nil && a.env.Registry != nil {
		_ = a.env.Registry.Close()
	}
	if a.sbox.sb != nil {
		// The last command's sandbox may still be ending: what it
		// set aside is said here, or nowhere.
		for _, l := range a.sbox.sb.Finish(5 * time.Second) {
			fmt.Fprintln(a.ios.Err, l)
		}
		_ = a.sbox.sb.Close()
	}
	if a.logClose != nil {
		_ = a.logClose.Close()
	}
}

// isTerminal reports whether v is an *os.File on a terminal.
func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
