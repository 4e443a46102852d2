package tools

import "context"

// Terminals runs a tool's command in a terminal that someone else owns
// and shows (an editor's), instead of in forge: the person watches it
// run there. The command line is the one forge would run, confined
// already when the call runs in the sandbox.
type Terminals interface {
	// Run runs c and waits for it to end, or for ctx to end, when it
	// kills the command and returns what it printed until then with
	// ctx's error.
	Run(ctx context.Context, c TerminalCommand) (TerminalResult, error)
}

// TerminalCommand is one command for Terminals.
type TerminalCommand struct {
	// CallID is the call the command belongs to (ExecutionContext.CallID).
	CallID string
	// Argv is the program and its arguments.
	Argv []string
	// Dir is the directory it runs in, Env its whole environment
	// (KEY=VALUE).
	Dir string
	Env []string
	// OutputLimit is how many bytes of output the terminal keeps: past
	// it, the start is dropped.
	OutputLimit int
}

// TerminalResult is how a command run by Terminals ended.
type TerminalResult struct {
	// Output is what it printed, standard output and error together; its
	// start is missing when Truncated.
	Output    string
	Truncated bool
	// ExitCode is the command's exit status; -1 when a signal (Signal)
	// ended it or the terminal did not say.
	ExitCode int
	Signal   string
}

// ConfinedCommandLine is implemented by sandboxes that can confine a
// command someone else starts (an editor's terminal): CommandLine is the
// command line that runs argv, in dir, inside the sandbox.
type ConfinedCommandLine interface {
	CommandLine(argv []string, dir string) ([]string, error)
}
