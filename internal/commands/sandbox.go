package commands

import (
	"context"
	"io"
	"strings"
)

// SandboxControl is the sandbox of the agent's commands as /sandbox shows
// and tries it; the app provides it.
type SandboxControl interface {
	// Report says what the sandbox would allow a command in the session's
	// working directory, building and checking it if it was not yet.
	Report(wd string) SandboxReport
	// Run runs argv in the sandbox in wd, on the given streams, and
	// returns its exit status and, when the sandbox blocked something,
	// the line that says what.
	Run(ctx context.Context, wd string, argv []string, in io.Reader, out, errOut io.Writer) (code int, blocked string, err error)
}

// SandboxReport is what the sandbox allows, as /sandbox check shows it.
type SandboxReport struct {
	Mode string `json:"mode"`
	// Mechanism is how commands are confined; "" when they are not.
	Mechanism string `json:"mechanism,omitempty"`
	// Unavailable says why no sandbox can be built here.
	Unavailable string `json:"unavailable,omitempty"`
	// Writable are where a command may write; Scratch (read-only mode)
	// where its writes go to a private copy and vanish.
	Writable []string `json:"writable"`
	Scratch  []string `json:"scratch,omitempty"`
	// Private are the caches whose writes go to the sandbox's own copy.
	Private  []string `json:"private,omitempty"`
	ReadOnly []string `json:"read_only"`
	Hidden   []string `json:"hidden"`
	Hosts    []string `json:"allowed_hosts"`
}

func sandboxCommand() Command {
	return Command{
		Name: "sandbox", Usage: "/sandbox [check | run -- COMMAND [ARGS...]]",
		Summary: "Show what the sandbox of the agent's commands allows, or run a command in it",
		Help: `The agent's Bash commands (background ones too) and plugin tools run in an OS sandbox when the machine can build one: they may write only in the project, the temporary directory and the toolchains' caches (sandbox.writable and sandbox.caches add more); forge's settings, git's configuration and hooks and the scripts forge runs stay read-only; where credentials are kept is hidden; the network is closed but for the hosts of sandbox.network.allow, reached through forge's proxy. Such a command runs without a question unless a deny or ask rule matches it; one the model asks to run outside (sandbox: false) always asks. !COMMAND, /run, hooks and MCP servers are not sandboxed.

check shows the mode (sandbox.mode or --sandbox: workspace-write, read-only, off), how commands are confined on this machine or why they cannot be, and the places and hosts. run runs a command in the sandbox, for you to try it: forge sandbox run -- touch /etc/x.`,
		Example:    "/sandbox\n/sandbox run -- go test ./...",
		CLIExample: "forge sandbox check -o json\nforge sandbox run -- sh -c 'curl -sI https://example.com'",
		Subcommands: []Command{
			{Name: "check", Usage: "/sandbox check", Summary: "Show what the sandbox allows, and how", Run: runSandboxCheck, Args: AtMost(0)},
			{Name: "run", Usage: "/sandbox run -- COMMAND [ARGS...]", Summary: "Run a command in the sandbox", Run: runSandboxRun, Args: AtLeast(1)},
		},
	}
}

func runSandboxCheck(_ context.Context, env *Env, _ Invocation) int {
	if env.Sandbox == nil {
		return env.Fail(ExitFailed, "error", "no sandbox in this session")
	}
	r := env.Sandbox.Report(env.Exec.WorkingDir)
	var b strings.Builder
	switch {
	case r.Mode == "off":
		b.WriteString("Sandbox: off (sandbox.mode): the agent's commands run with all your rights, and Bash asks before each one.\n")
	case r.Unavailable != "":
		b.WriteString("Sandbox: none on this machine: " + r.Unavailable + ".\nThe agent's commands run with all your rights, and Bash asks before each one.\n")
	default:
		b.WriteString("Sandbox: " + r.Mode + ", by " + r.Mechanism + "\n")
	}
	list := func(title string, items []string, none string) {
		b.WriteString(title + ":")
		if len(items) == 0 {
			b.WriteString(" " + none + "\n")
			return
		}
		b.WriteString("\n")
		for _, it := range items {
			b.WriteString("  " + it + "\n")
		}
	}
	list("Writable", r.Writable, "nothing")
	if r.Mode == "read-only" {
		list("Private copies (writes vanish)", r.Scratch, "none")
	} else {
		list("Caches (writes kept in the sandbox's own copy)", r.Private, "none")
	}
	list("Read-only inside them", r.ReadOnly, "none")
	list("Hidden", r.Hidden, "none")
	list("Network (through forge's proxy)", r.Hosts, "none (sandbox.network.allow is empty)")
	env.Printer().Value(strings.TrimSuffix(b.String(), "\n"), map[string]any{"sandbox": r})
	if r.Unavailable != "" {
		return ExitFailed
	}
	return ExitOK
}

func runSandboxRun(ctx context.Context, env *Env, inv Invocation) int {
	if env.Sandbox == nil {
		return env.Fail(ExitFailed, "error", "no sandbox in this session")
	}
	argv := inv.Args
	if len(argv) > 0 && argv[0] == "--" {
		argv = argv[1:]
	}
	if len(argv) == 0 {
		return env.Usage(sandboxCommand(), inv, "missing command")
	}
	in := env.IO.In
	if inv.Shell {
		in = nil // the shell's input is its own
	}
	code, blocked, err := env.Sandbox.Run(ctx, env.Exec.WorkingDir, argv, in, env.IO.Out, env.IO.Err)
	if err != nil {
		return env.Fail(ExitFailed, "error", err.Error())
	}
	if blocked != "" {
		io.WriteString(env.IO.Err, blocked+"\n")
	}
	if code != 0 {
		return ExitFailed
	}
	return ExitOK
}
