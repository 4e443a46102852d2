package repl

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// fixedTime is what history shows for every execution in deterministic
// mode (DeterministicEnv).
var fixedTime = time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC)

// Shell runs command lines (/run, /tools, ...) against an App's tool
// system. The interactive loop, the scripted loop, forge -c and the
// subcommands all go through it, so every way in behaves the same.
type Shell struct {
	app    *App
	ec     tools.ExecutionContext
	output string // "text" or "json"
	out    io.Writer
	errOut io.Writer
	r      *render.Renderer

	// ask, when set, puts a question to the person (the line editor, or the
	// next input line of a script); the Shell is then the tools' Asker.
	ask func(ctx context.Context, question string) (string, error)
	// noSignals turns off Ctrl-C handling (tests).
	noSignals bool
	// While a session watches for Ctrl-C (watchInterrupts), runMu guards
	// cancelRun, the cancel function of the tool running now, if any.
	watching    bool
	runMu       sync.Mutex
	cancelRun   context.CancelFunc
	interrupted atomic.Bool // Ctrl-C came while no tool was running

	quit bool
}

// watchInterrupts turns Ctrl-C (SIGINT) into cancellation of the running
// tool for a whole session: one signal handler instead of one per command,
// which a 10,000-line script would feel. A Ctrl-C while no tool runs sets
// interrupted. The returned function stops watching.
func (s *Shell) watchInterrupts() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	done := make(chan struct{})
	s.watching = true
	go func() {
		for {
			select {
			case <-ch:
				s.runMu.Lock()
				if s.cancelRun != nil {
					s.cancelRun()
				} else {
					s.interrupted.Store(true)
				}
				s.runMu.Unlock()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
		s.watching = false
	}
}

// newShell returns a shell over a (set up) App.
func newShell(a *App) *Shell {
	return &Shell{app: a, ec: a.executionContext(), output: a.cfg.Output, out: a.Stdout, errOut: a.Stderr, r: a.renderer()}
}

// Ask implements tools.Asker through the shell's input.
func (s *Shell) Ask(ctx context.Context, question string) (string, error) {
	if s.ask == nil {
		return "", fmt.Errorf("cannot ask %q: no one is reading forge's input", question)
	}
	return s.ask(ctx, question)
}

// jsonMode reports whether output is JSON.
func (s *Shell) jsonMode() bool { return s.output == "json" }

// prompt is the REPL prompt; dry-run mode is visible in it.
func (s *Shell) prompt() string {
	if s.ec.DryRun {
		return "forge [dry-run]> "
	}
	return "forge> "
}

// Exec runs one line and returns its status: 0 when it succeeded, else the
// status forge run would exit with (1, 2, 124, 130). Blank lines and
// comments succeed without output.
func (s *Shell) Exec(ctx context.Context, line string) int {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return ExitOK
	}
	name, rest := cutWord(line)
	if !strings.HasPrefix(name, "/") {
		if s.app.reg.Exists(name) {
			return s.runTool(ctx, name, rest)
		}
		return s.unknownCommand(name)
	}
	cmd, ok := s.lookup(name)
	if !ok {
		return s.unknownCommand(name)
	}
	return cmd.Run(ctx, s, rest)
}

// cutWord splits a line at its first blank.
func cutWord(line string) (string, string) {
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i+1:])
}

// lookup finds a command by name or alias.
func (s *Shell) lookup(name string) (Command, bool) {
	for _, c := range s.commands() {
		if c.Name == name {
			return c, true
		}
		for _, a := range c.Aliases {
			if a == name {
				return c, true
			}
		}
	}
	return Command{}, false
}

// unknownCommand names the closest command (or tool) and points to /help.
func (s *Shell) unknownCommand(name string) int {
	var cands []string
	for _, c := range s.commands() {
		cands = append(cands, c.Name)
	}
	if !strings.HasPrefix(name, "/") {
		cands = append(cands, s.app.reg.ListNames()...)
	}
	msg := "Unknown command: " + name + "."
	sugg := tools.Suggest(name, cands, 1)
	if len(sugg) > 0 {
		msg += " Did you mean " + sugg[0] + "?"
	}
	msg += " Type /help for the list."
	if s.jsonMode() {
		o := errorJSON("unknown_command", msg)
		o.Error.Suggestions = sugg
		writeJSONLine(s.out, o)
		return ExitUsage
	}
	fmt.Fprintln(s.errOut, msg)
	return ExitUsage
}

// fail reports an error that is not a tool result and returns code.
func (s *Shell) fail(code int, kind, msg string) int {
	writeError(s.jsonMode(), s.out, s.errOut, kind, msg)
	return code
}

// usage reports a usage error of cmd.
func (s *Shell) usage(cmd, msg string) int {
	c, _ := s.lookup(cmd)
	if c.Usage != "" {
		msg += " (usage: " + c.Usage + ")"
	}
	return s.fail(ExitUsage, "usage", msg)
}

// print writes a panel or other text, ending it with a newline.
func (s *Shell) print(text string) {
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	_, _ = io.WriteString(s.out, text)
}

// runTool parses an argument line, runs the tool and shows the result.
// Ctrl-C while the tool runs cancels only the tool.
func (s *Shell) runTool(ctx context.Context, name, argLine string) int {
	var params []tools.Parameter
	if t, known := s.app.lookupTool(ctx, name); known {
		params = t.Parameters()
	}
	args, err := ParseArgLine(argLine, params, s.readArgFile)
	if err != nil {
		return s.fail(ExitUsage, "usage", err.Error())
	}
	return s.runArgs(ctx, name, args)
}

// runArgs runs a tool with parsed arguments and shows the result.
func (s *Shell) runArgs(ctx context.Context, name string, args tools.Args) int {
	ec := s.ec
	if s.ask != nil {
		ec.Asker = s
	}
	switch {
	case s.noSignals:
	case s.watching:
		var cancel context.CancelFunc
		ctx, cancel = context.WithCancel(ctx)
		s.runMu.Lock()
		s.cancelRun = cancel
		s.runMu.Unlock()
		defer func() {
			s.runMu.Lock()
			s.cancelRun = nil
			s.runMu.Unlock()
			cancel()
		}()
	default:
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt)
		defer stop()
	}
	res := s.app.exec.Execute(ctx, name, ec, args)
	if res.Status == tools.StatusCancelled && s.app.stdoutTTY && !s.jsonMode() {
		// The terminal echoed ^C where the cursor was: start the panel at
		// column 0 over it, or its top border would wrap.
		_, _ = io.WriteString(s.out, "\r")
	}
	s.showResult(name, args, res)
	return resultStatus(res)
}

// showResult renders a result as the panel its kind calls for, or as JSON.
func (s *Shell) showResult(name string, args tools.Args, res tools.Result) {
	if s.app.deterministic {
		res.DurationMS = 0
	}
	if s.jsonMode() {
		rj := newResultJSON(name, res)
		if res.ErrorKind == tools.KindUnknownTool {
			rj.Suggestions = tools.Suggest(name, s.app.reg.ListNames(), 3)
		}
		writeJSONLine(s.out, rj)
		return
	}
	switch {
	case res.ErrorKind == tools.KindUnknownTool:
		s.print(s.r.ToolNotFound(name, tools.Suggest(name, s.app.reg.ListNames(), 3)))
	case res.ErrorKind == tools.KindValidation:
		d := tools.Descriptor{Name: name}
		if t, ok := s.app.reg.Get(name); ok {
			d = tools.Describe(t)
		}
		s.print(s.r.ValidationError(d, res))
	default:
		var pres tools.Presentation
		if t, ok := s.app.reg.Get(name); ok {
			pres = tools.Present(t, args, res)
		}
		if res.Status == tools.StatusFailed && pres.Failure != nil {
			s.print(s.r.ExecutionFailed(name, res, pres))
			return
		}
		s.print(s.r.Result(name, res, pres))
	}
}

// readArgFile reads key=@path, relative to the working directory, at most
// maxArgFileSize bytes.
func (s *Shell) readArgFile(path string) ([]byte, error) {
	if !filepath.IsAbs(path) && s.ec.WorkingDir != "" {
		path = filepath.Join(s.ec.WorkingDir, path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxArgFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxArgFileSize {
		return nil, fmt.Errorf("file is larger than %d MiB", maxArgFileSize>>20)
	}
	return b, nil
}

// displayExecutions prepares history entries for display: deterministic
// mode fixes their times.
func (s *Shell) displayExecutions(xs []tools.Execution) []tools.Execution {
	if !s.app.deterministic {
		return xs
	}
	out := make([]tools.Execution, len(xs))
	for i, x := range xs {
		x.StartedAt, x.CompletedAt = fixedTime, fixedTime
		x.DurationMS, x.Result.DurationMS = 0, 0
		out[i] = x
	}
	return out
}
