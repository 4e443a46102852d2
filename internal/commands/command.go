// Package commands is forge's command table: every command is declared
// once, in a file of its own, and appears both as `forge NAME` on the
// command line (the app turns the table into cobra commands) and as `/NAME`
// in the shell, with one help text. It also owns Env, what a command works
// with, and the shell's key=value argument parser.
package commands

import (
	"context"
	"strings"

	"github.com/spf13/pflag"
)

// Where says in which of forge's two front ends a command appears.
type Where int

// The places a command can appear.
const (
	Everywhere Where = iota // forge NAME and /NAME
	ShellOnly               // only /NAME: it changes or reads the shell's own state
	CLIOnly                 // only forge NAME: it takes over the process (mcp serve)
)

// Run executes a command and returns its exit status (see the Exit
// constants). It writes through env's Printer.
type Run func(ctx context.Context, env *Env, inv Invocation) int

// Invocation is how a command was called.
type Invocation struct {
	// Args are the positional words after the command (and its flags).
	Args []string
	// Line is, in the shell, the text after the command word as typed,
	// for commands that parse it themselves (RawLine).
	Line string
	// Shell says the command was typed in the shell.
	Shell bool
}

// Command is one entry of the table.
type Command struct {
	Name    string   // "tools"
	Aliases []string // other names in the shell: "quit" for "exit"
	// Usage is the synopsis as the shell's /help shows it:
	// "/tools [--category C] [NAME]". The command line's is derived from it.
	Usage   string
	Summary string // one line, no final period
	Help    string // more, paragraphs separated by blank lines
	// helpFn, when set, makes Help on demand: a custom command's shows
	// its whole prompt, and a project may have a hundred of them.
	helpFn func() string
	// Example holds example lines as typed in the shell; CLIExample holds
	// lines only the command line has (pipes, standard input).
	Example, CLIExample string
	Where               Where
	// Source says where a custom command comes from, for /help; "" for
	// forge's own.
	Source string

	// Flags declares the command's flags on fs and returns the Run that
	// reads them; nil for a command without flags of its own, which
	// gives Run instead. The shell makes a fresh flag set per line.
	Flags func(fs *pflag.FlagSet) Run
	Run   Run
	// Args bounds the number of positional arguments on the command line
	// (the shell's commands check their own, with the usage line).
	Args ArgRange
	// RawLine makes the shell hand Run the rest of the line unsplit and
	// unparsed (Invocation.Line), for commands with their own syntax.
	RawLine bool
	// Subcommands are verbs of the command (mcp list, mcp serve). In the
	// shell the first word picks one, the first subcommand by default.
	Subcommands []Command

	// Complete offers completions for the word being typed, given the
	// complete words before it; FlagValues are the values flags take.
	Complete   func(env *Env, words []string, partial string) []string
	FlagValues map[string][]string
}

// ArgRange is how many positional arguments a command takes (AtMost,
// AtLeast); the zero value does not check.
type ArgRange struct {
	Min, Max int // Max < 0: no upper bound
	checked  bool
}

// Checked reports whether r bounds anything.
func (r ArgRange) Checked() bool { return r.checked }

// refuses says why n positional arguments of the command called name
// ("/mcp list") are out of r's range; "" when they are not (or r does not
// check).
func (r ArgRange) refuses(name string, n int) string {
	switch {
	case !r.checked:
		return ""
	case r.Max == 0 && n > 0:
		return name + " takes no arguments"
	case r.Max > 0 && n > r.Max:
		return name + " takes at most " + plural(r.Max, "argument")
	case n < r.Min:
		return name + " needs at least " + plural(r.Min, "argument")
	}
	return ""
}

// AtMost is at most n arguments.
func AtMost(n int) ArgRange { return ArgRange{Max: n, checked: true} }

// AtLeast is n arguments or more.
func AtLeast(n int) ArgRange { return ArgRange{Min: n, Max: -1, checked: true} }

// InShell reports whether c appears in the shell.
func (c Command) InShell() bool { return c.Where != CLIOnly }

// InCLI reports whether c appears on the command line.
func (c Command) InCLI() bool { return c.Where != ShellOnly }

// CLIUsage is Usage as the command line spells it: "tools [--category C] [NAME]".
func (c Command) CLIUsage() string {
	return strings.TrimPrefix(strings.ReplaceAll(c.Usage, "/"+c.Name, c.Name), "/")
}

// CLIExamples are the examples of forge NAME --help, indented as cobra
// prints them.
func (c Command) CLIExamples() string {
	var lines []string
	for _, l := range strings.Split(c.Example, "\n") {
		if l != "" {
			lines = append(lines, "  forge "+strings.TrimPrefix(l, "/"))
		}
	}
	for _, l := range strings.Split(c.CLIExample, "\n") {
		if l != "" {
			lines = append(lines, "  "+l)
		}
	}
	return strings.Join(lines, "\n")
}

// runner returns the Run of c for a fresh flag set fs.
func (c Command) runner(fs *pflag.FlagSet) Run {
	if c.Flags != nil {
		return c.Flags(fs)
	}
	return c.Run
}

// Bind returns the Run of c with its flags declared on fs: the app calls
// it once per cobra command.
func (c Command) Bind(fs *pflag.FlagSet) Run { return c.runner(fs) }

// Table is every command, in the order /help lists them. Adding a command
// is a file that declares it and one line here.
func Table() []Command {
	return []Command{
		helpCommand(),
		askCommand(),
		clearCommand(),
		compactCommand(),
		resumeCommand(),
		lastCommand(),
		todosCommand(),
		thinkingCommand(),
		effortCommand(),
		modelCommand(),
		undoCommand(),
		rewindCommand(),
		toolsCommand(),
		runCommand(),
		schemaCommand(),
		historyCommand(),
		contextCommand(),
		memoryCommand(),
		skillsCommand(),
		setCommand(),
		configCommand(),
		trustCommand(),
		registryCommand(),
		mcpCommand(),
		pluginsCommand(),
		permissionsCommand(),
		modeCommand(),
		planCommand(),
		sandboxCommand(),
		hooksCommand(),
		sessionsCommand(),
		usageCommand(),
		versionCommand(),
		exitCommand(),
	}
}

// help is c's longer help.
func (c Command) help() string {
	if c.helpFn != nil {
		return c.helpFn()
	}
	return c.Help
}

// lookup finds a command of table by name or alias.
func lookup(table []Command, name string) (Command, bool) {
	for _, c := range table {
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
