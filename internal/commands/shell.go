package commands

import (
	"context"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// Shell runs the shell's lines against an Env: /NAME runs a command of the
// table, !COMMAND runs a shell command with Bash, and any other line is a
// prompt to the agent. The input loop (internal/repl) reads the lines and
// hands them to Dispatch.
type Shell struct {
	env   *Env
	table []Command
}

// NewShell returns the shell of env with the whole command table, the
// custom commands included.
func NewShell(env *Env) *Shell {
	return &Shell{env: env, table: env.baseTable()}
}

// Env returns the shell's environment.
func (s *Shell) Env() *Env { return s.env }

// Dispatch runs one line with ask answering a tool's questions, and
// returns its exit status and whether the shell should end.
func (s *Shell) Dispatch(ctx context.Context, line string, ask func(context.Context, string) (string, error)) (int, bool) {
	return s.DispatchTyped(ctx, line, line, ask)
}

// DispatchTyped is Dispatch of a line the person typed as typed (long
// pastes as their marks): a prompt is kept and shown so.
func (s *Shell) DispatchTyped(ctx context.Context, line, typed string, ask func(context.Context, string) (string, error)) (int, bool) {
	prev := s.env.Ask
	if ask != nil {
		s.env.Ask = ask
	}
	s.env.typedLine = strings.TrimSpace(typed)
	defer func() { s.env.Ask, s.env.typedLine = prev, "" }()
	if s.env.IO.OutTerminal {
		s.env.RefreshPrinter() // the terminal may have been resized
	}
	code := s.Exec(ctx, line)
	return code, s.env.quit
}

// SetAskKey is given the interactive shell's single-key question.
func (s *Shell) SetAskKey(askKey func(ctx context.Context, question, keys string) (string, error)) {
	s.env.AskKey = askKey
}

// ReportError reports a problem of the input itself (a line too long, a
// read error) the way commands report theirs.
func (s *Shell) ReportError(kind, msg string) { s.env.Printer().Error(kind, msg) }

// Prompt is the prompt of the interactive shell. It shows what differs
// from a fresh start: an approval mode other than ask, dry-run mode, and
// how full the model's window is once the conversation passes half of it
// (at 80% it is compacted).
func (s *Shell) Prompt() string {
	var marks []string
	if p := s.env.Policy; p != nil && p.Mode() != permission.ModeAsk {
		marks = append(marks, string(p.Mode()))
	}
	if s.env.Exec.DryRun {
		marks = append(marks, "dry-run")
	}
	if g := s.env.contextGauge(); g != "" {
		marks = append(marks, g)
	}
	if len(marks) == 0 {
		return "forge> "
	}
	return "forge [" + strings.Join(marks, ", ") + "]> "
}

// gaugeFrom is how full the window must be before the prompt says so.
const gaugeFrom = 50

// contextGauge is "62% context" when the conversation fills at least
// gaugeFrom percent of the model's window, "" otherwise or when the
// window is unknown.
func (e *Env) contextGauge() string {
	if e.ContextWindow == nil {
		return ""
	}
	w := int64(e.ContextWindow())
	if w <= 0 {
		return ""
	}
	pct := e.Conversation.Tokens() * 100 / w
	if pct < gaugeFrom {
		return ""
	}
	return strconv.FormatInt(pct, 10) + "% context"
}

// Exec runs one line and returns its status: 0 when it succeeded, else the
// status forge run would exit with (1, 2, 124, 130). Blank lines and
// comments succeed without output.
func (s *Shell) Exec(ctx context.Context, line string) int {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return ExitOK
	}
	if strings.HasPrefix(line, "!") {
		return runShellCommand(ctx, s.env, strings.TrimSpace(line[1:]))
	}
	name, rest := cutWord(line)
	if !strings.HasPrefix(name, "/") {
		return runPrompt(ctx, s.env, line, s.env.typedLine, false, AgentOptions{Exec: s.env.Exec, images: line, shellLine: true})
	}
	c, ok := s.command(name)
	if !ok {
		return s.unknownCommand(name)
	}
	return s.invoke(ctx, c, c, rest)
}

// commands is the shell's table with the MCP servers' prompts as they
// are now.
func (s *Shell) commands() []Command {
	return append(slices.Clip(s.table), s.env.mcpPromptCommands()...)
}

// command finds the shell command "/name".
func (s *Shell) command(name string) (Command, bool) {
	c, ok := lookup(s.commands(), strings.TrimPrefix(name, "/"))
	if !ok || !c.InShell() {
		return Command{}, false
	}
	return c, true
}

// invoke runs c (top, or one of top's subcommands) with the rest of its line.
func (s *Shell) invoke(ctx context.Context, top, c Command, rest string) int {
	if len(c.Subcommands) > 0 {
		verb, more := cutWord(rest)
		if strings.HasPrefix(verb, "-") {
			// A flag first is the default subcommand's: /sessions --all.
			verb, more = "", rest
		}
		sub, ok := shellSubcommand(c, verb)
		if !ok {
			return s.env.Usage(top, Invocation{Shell: true}, "Unknown /"+c.Name+" argument: "+verb)
		}
		return s.invoke(ctx, top, sub, more)
	}
	if c.RawLine {
		return c.Run(ctx, s.env, Invocation{Line: rest, Shell: true})
	}
	words, err := Fields(rest)
	if err != nil {
		return s.env.Usage(top, Invocation{Shell: true}, err.Error())
	}
	if c.Flags == nil {
		// Without flags of its own a command takes every word as it is:
		// /set max_output_size -5 is a value, not a flag.
		if msg := c.Args.refuses(shellName(top, c), len(words)); msg != "" {
			return s.env.Usage(top, Invocation{Shell: true}, msg)
		}
		return c.Run(ctx, s.env, Invocation{Args: words, Line: rest, Shell: true})
	}
	fs := newFlags(c.Name)
	run := c.Flags(fs)
	if err := fs.Parse(words); err != nil {
		return s.env.Usage(top, Invocation{Shell: true}, err.Error())
	}
	if msg := c.Args.refuses(shellName(top, c), fs.NArg()); msg != "" {
		return s.env.Usage(top, Invocation{Shell: true}, msg)
	}
	return run(ctx, s.env, Invocation{Args: fs.Args(), Line: rest, Shell: true})
}

// shellName is how the shell names c, a subcommand of top or top itself.
func shellName(top, c Command) string {
	if c.Name == top.Name {
		return "/" + top.Name
	}
	return "/" + top.Name + " " + c.Name
}

// shellSubcommand picks the subcommand verb names, the first one when verb
// is empty.
func shellSubcommand(c Command, verb string) (Command, bool) {
	for _, sub := range c.Subcommands {
		if !sub.InShell() {
			continue
		}
		if verb == "" || sub.Name == verb {
			return sub, true
		}
	}
	return Command{}, false
}

// unknownCommand names the closest command (or tool) and points to /help.
func (s *Shell) unknownCommand(name string) int {
	msg, sugg := unknownCommandMessage(s.commands(), name)
	s.env.Printer().UnknownCommand(msg, sugg)
	return ExitUsage
}

// unknownCommandMessage says that "/name" names no command of table, and
// which shell command it may have meant.
func unknownCommandMessage(table []Command, name string) (string, []string) {
	var cands []string
	for _, c := range table {
		if c.InShell() {
			cands = append(cands, "/"+c.Name)
		}
	}
	msg := "Unknown command: " + name + "."
	sugg := tools.Suggest(name, cands, 1)
	if len(sugg) > 0 {
		msg += " Did you mean " + sugg[0] + "?"
	}
	return msg + " Type /help for the list.", sugg
}

// cutWord splits a line at its first blank.
func cutWord(line string) (string, string) {
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i+1:])
}

// newFlags returns a flag set for a command's options in the shell; pflag's
// own output is discarded because the shell reports errors its way.
func newFlags(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// runShellCommand runs !COMMAND: the person's own command, through Bash,
// without asking anyone. What it printed goes to the model with the next
// prompt.
func runShellCommand(ctx context.Context, env *Env, command string) int {
	if command == "" {
		return env.Fail(ExitUsage, "usage", "! needs a command, as in !git status")
	}
	res := env.runTool(ctx, "Bash", map[string]any{"command": command})
	env.keepShellOutput(command, res)
	return ResultStatus(res)
}
