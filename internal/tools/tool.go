package tools

import (
	"context"
	"encoding/json"
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

// SchemaTool is implemented by tools whose arguments a JSON Schema of
// their own describes in full (an MCP server's tools): models and exports
// get that schema as it is, nested shapes, unions and references kept,
// and ValidateArgs takes the place of the parameter checks. Such a tool
// receives its arguments exactly as the caller sent them: nulls kept, no
// defaults added, no numbers retyped. Parameters still summarise the
// top-level properties, for listings and the argument-line parser.
type SchemaTool interface {
	// InputSchema is the schema; nil means the tool has none of its own
	// (a wrapper around a tool that is not a SchemaTool).
	InputSchema() json.RawMessage
	// ValidateArgs checks args against the schema.
	ValidateArgs(args Args) *ValidationError
}

// InputSchemaOf returns the schema a SchemaTool declares, nil for others.
func InputSchemaOf(t Tool) json.RawMessage {
	if st, ok := t.(SchemaTool); ok {
		return st.InputSchema()
	}
	return nil
}

// ValidateFor checks args as the executor does before calling t: against
// t's own schema for a SchemaTool (args then go through unchanged, an
// absent object as an empty one), else with Validate against its
// parameters. Every caller that judges a call before it runs (approval,
// hooks, previews) uses it, so that all of them agree with the executor.
func ValidateFor(t Tool, args Args) (Args, *ValidationError) {
	st, ok := t.(SchemaTool)
	if !ok || st.InputSchema() == nil {
		return Validate(t.Parameters(), args)
	}
	if verr := st.ValidateArgs(args); verr != nil {
		if verr.Tool == "" {
			verr.Tool = t.Name()
		}
		return nil, verr
	}
	if args == nil {
		args = Args{}
	}
	return args, nil
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
