package tools

import (
	"context"
	"io"
	"time"
)

// Defaults of an ExecutionContext made by NewExecutionContext.
const (
	DefaultTimeout       = 120 * time.Second
	DefaultMaxOutputSize = 100000
)

// Asker puts a question to the person driving forge and returns the answer.
// The shell provides one that reads through its line editor; without one,
// tools that need a person fail with a clear message.
type Asker interface {
	Ask(ctx context.Context, question string) (string, error)
}

// ExecutionContext is what a tool call runs in: working directory, session
// and agent, dry run, timeout, output cap and metadata. It is a value: each
// call gets its own copy.
type ExecutionContext struct {
	WorkingDir    string         `json:"working_dir"`
	SessionID     string         `json:"session_id,omitempty"`
	AgentID       string         `json:"agent_id,omitempty"`
	DryRun        bool           `json:"dry_run"`
	Timeout       time.Duration  `json:"timeout"`
	MaxOutputSize int            `json:"max_output_size"`
	Metadata      map[string]any `json:"metadata,omitempty"`
	// AllowedRoots are directories besides WorkingDir that tools may write in
	// (the permission context prepared for later phases).
	AllowedRoots []string `json:"allowed_roots,omitempty"`
	// ConfineReads keeps the reading tools (Read, Grep, Glob) inside
	// WorkingDir and AllowedRoots as well, judged after symbolic links are
	// resolved, so that a link inside cannot reach a file outside. False,
	// the default, lets them read whatever the process can.
	ConfineReads bool `json:"confine_reads,omitempty"`
	// PassEnv names the environment variables that look like secrets (their
	// names contain KEY, TOKEN, SECRET, PASSWORD) which the commands tools
	// start (Bash) inherit all the same; the others are withheld. Entries
	// match case-insensitively and may be patterns ("AWS_*"); see
	// proc.Environ.
	PassEnv []string `json:"pass_env,omitempty"`
	// Env are variables, as KEY=VALUE, the configuration sets for the
	// commands tools start, over the inherited ones (Claude Code's env).
	Env []string `json:"env,omitempty"`
	// Asker, when set, lets a tool ask the person a question.
	Asker Asker `json:"-"`
	// Sandbox, when set, confines the commands of the tools that run
	// confined (Bash, plugin tools): the agent sets it for its calls.
	Sandbox Sandbox `json:"-"`
	// Judged, when not nil, are the places the approval policy judged the
	// call's path arguments to be, every link resolved. A tool that reads
	// the file a path names refuses a file it opens that is not at one of
	// them, reached without following any link: a link swapped in after
	// the decision (by a command running in the background) must not lead
	// the call to a file nobody judged. nil: no policy judged the call.
	Judged []string `json:"-"`
	// LiveOutput, when set, receives what a running call prints as it
	// prints it (Bash's standard output and error), so that a person can
	// watch a long command; the result still carries the whole output.
	// A tool must not wait on it or fail because of it, and it may be
	// called from a goroutine of the tool's own.
	LiveOutput io.Writer `json:"-"`
	// Progress, when set, receives how far a running call has got, as its
	// tool learns it (an MCP server's progress notifications). Like
	// LiveOutput it must not block, and may be called from any goroutine.
	Progress func(Progress) `json:"-"`
	// CallID is the id the model gave the call this context runs, when an
	// agent runs it: what a front end that shows the call's progress
	// (Terminals) knows it by.
	CallID string `json:"-"`
	// Files, when set, moves the text of the files the file tools read
	// and write (an editor's buffers); nil reads and writes the disk.
	Files Files `json:"-"`
	// Terminals, when set, runs the commands of the tools that run
	// commands (Bash) where the person watches them (an editor's
	// terminals); nil runs them in forge.
	Terminals Terminals `json:"-"`
}

// Progress is how far a running call has got.
type Progress struct {
	// Progress grows with every report; Total is where it ends, 0 when
	// unknown.
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// NewExecutionContext returns a context for workingDir with the defaults:
// timeout 120 s, output capped at 100000 bytes.
func NewExecutionContext(workingDir string) ExecutionContext {
	return ExecutionContext{WorkingDir: workingDir, Timeout: DefaultTimeout, MaxOutputSize: DefaultMaxOutputSize}
}

// withDefaults fills zero fields with the defaults, so a zero ExecutionContext
// behaves like NewExecutionContext("").
func (ec ExecutionContext) withDefaults() ExecutionContext {
	ec.setDefaults()
	return ec
}

// setDefaults is withDefaults in place, for the executor's path, where a
// copy of the context on the stack is a copy too many.
func (ec *ExecutionContext) setDefaults() {
	if ec.Timeout <= 0 {
		ec.Timeout = DefaultTimeout
	}
	if ec.MaxOutputSize <= 0 {
		ec.MaxOutputSize = DefaultMaxOutputSize
	}
}
