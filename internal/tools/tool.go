package tools

import (
	"context"
	"time"
)

// Tool is anything an agent can call. Execute receives arguments that have
// already been validated against Parameters, with defaults applied; it
// reports failure as a Result (Fail), never by panicking. The arguments are
// read-only: when validation had nothing to change they are the caller's
// own map.
type Tool interface {
	Name() string
	Description() string
	Category() Category
	Parameters() []Parameter
	Execute(ctx context.Context, ec ExecutionContext, args Args) Result
}

// LoopBreaker is implemented by tools after which an agent loop stops, such
// as task_completion, ask_question and converse: the model has finished, or
// waits for the person.
type LoopBreaker interface {
	IsLoopBreaking() bool
}

// DryRunner is implemented by tools that can say what they would do. The
// executor calls it instead of Execute when the context is a dry run and
// prefixes the answer with "[Dry Run] ".
type DryRunner interface {
	DryRun(ec ExecutionContext, args Args) string
}

// Deadliner is implemented by tools that choose their own deadline for a call
// (Bash's timeout argument). raw are the caller's arguments, validated, before
// defaults were applied. A result <= 0 means "use the context's timeout".
type Deadliner interface {
	CallTimeout(ec ExecutionContext, raw Args) time.Duration
}

// Initializer is implemented by tools that need set-up after construction.
// Init runs after each build of a lazy tool (RegisterLazy), before the
// instance is used; a failure is the build's failure. A tool given to
// Register arrives built: its Init is not called.
type Initializer interface {
	Init(ctx context.Context) error
}

// ReadOnlyTool is implemented by tools that declare whether they change
// anything outside forge (files, processes, remote state). Approval modes
// let read-only tools run without asking, and forge mcp serve offers only
// them by default. A tool that does not implement it is taken to change
// things: a wrong "no" costs a question, a wrong "yes" costs the user.
type ReadOnlyTool interface {
	IsReadOnly() bool
}

// FileChanger is implemented by tools that change files in place (Write,
// Edit, NotebookEdit): it names the files a call would change, absolute
// and with links resolved, so that the agent can keep their state first
// and undo the change later. A path the call would refuse is not named.
type FileChanger interface {
	ChangedFiles(ec ExecutionContext, args Args) []string
}

// IsReadOnly reports whether t declares that it changes nothing.
func IsReadOnly(t Tool) bool {
	ro, ok := t.(ReadOnlyTool)
	return ok && ro.IsReadOnly()
}

// IsLoopBreaking reports whether t ends an agent loop.
func IsLoopBreaking(t Tool) bool {
	lb, ok := t.(LoopBreaker)
	return ok && lb.IsLoopBreaking()
}
