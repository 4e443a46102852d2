package tools

import (
	"os"
	"os/exec"
	"time"
)

// Sandbox confines the commands a tool starts for one call: the agent
// puts one in the ExecutionContext of its calls, so that what the model
// runs cannot write outside the project, read credentials or reach the
// network; the person's own commands (/run, !cmd) get none. The core does
// not know how a sandbox is built (internal/sandbox does): it only hands
// it the commands.
type Sandbox interface {
	// Wrap changes cmd, not yet started, so that what it runs is
	// confined. status, when not nil, is the write end of a pipe on which
	// the sandbox's first process reports the command's own exit
	// (proc.WriteExit) before it waits for what the command left running.
	// release is called once cmd has started, or failed to.
	Wrap(cmd *exec.Cmd, status *os.File) (release func(), err error)
	// ReadOnly says the sandbox allows no writes at all.
	ReadOnly() bool
	// Explain says, in one line for the model, what the sandbox blocked
	// of a command that ran in dir, started at since and printed output,
	// and how to ask for more; "" when it sees nothing the sandbox did.
	Explain(output, dir string, since time.Time) string
}

// Confined is implemented by tools whose commands run in the sandbox of
// the call's ExecutionContext when it has one (Bash, plugin tools). A
// call may ask to run outside it with a boolean sandbox argument set to
// false (LeavesSandbox), which the approval policy always puts to the
// person.
type Confined interface {
	RunsConfined() bool
}

// RunsConfined reports whether t's commands run in the call's sandbox.
func RunsConfined(t Tool) bool {
	c, ok := t.(Confined)
	return ok && c.RunsConfined()
}

// SandboxParam is the boolean argument by which a call of a Confined
// tool asks to run outside the sandbox (false).
const SandboxParam = "sandbox"

// LeavesSandbox reports whether a call asks to run outside the sandbox:
// its sandbox argument is false.
func LeavesSandbox(args Args) bool {
	v, ok := args[SandboxParam].(bool)
	return ok && !v
}

// SandboxFor is the sandbox a call of t with args runs in: ec's, unless t
// does not run confined or the call asks to leave it; nil for none.
func SandboxFor(t Tool, ec ExecutionContext, args Args) Sandbox {
	if ec.Sandbox == nil || !RunsConfined(t) || LeavesSandbox(args) {
		return nil
	}
	return ec.Sandbox
}
