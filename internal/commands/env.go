package commands

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/custom"
	"github.com/forgehq/forge/internal/hooks"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/mcp"
	"github.com/forgehq/forge/internal/memory"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/plugin"
	"github.com/forgehq/forge/internal/ratelimit"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/session"
	"github.com/forgehq/forge/internal/tools"
)

// IOStreams are the process's streams and what is known about them.
type IOStreams struct {
	In       io.Reader
	Out, Err io.Writer
	// InTerminal and OutTerminal say the streams are terminals.
	InTerminal, OutTerminal bool
}

// Asker puts a question to the person (or the script) and returns the
// answer; the input loop provides it. A question that ends with a space
// is answered on its last line, as a shell's read -p does; any other
// after it.
type Asker func(ctx context.Context, question string) (string, error)

// Env is what a command works with: the streams and configuration, the tool
// system the app built, the printer, and the state of this session (its
// execution context and output mode, which /set changes).
type Env struct {
	IO       IOStreams
	Config   config.Config
	Registry *tools.Registry
	Executor *tools.Executor
	Log      zerolog.Logger
	// Clock is the time commands show (the executor records with it too).
	Clock func() time.Time

	// The extensions; nil when not loaded (completion runs without them).
	MCP     *mcp.Manager
	Plugins *plugin.Manager
	Limits  *ratelimit.Set

	// Exec is the context every call of this session starts from.
	Exec tools.ExecutionContext
	// Output is "text" or "json".
	Output string
	// Renderer makes the panel renderer for the current terminal width.
	Renderer func() *render.Renderer
	// Cols measures the terminal's width now (0: unknown), for what a
	// run redraws while the terminal may be resized.
	Cols func() int
	// Ask, when set, answers a tool's question (ask_question).
	Ask Asker
	// AskKey, when set, puts a question answered by a single key of keys
	// (an approval): it returns the key, or "" for Enter. Only the
	// interactive shell sets it; elsewhere such questions take lines.
	AskKey func(ctx context.Context, question, keys string) (string, error)
	// LookupEnv reads the environment (for the few values that come only
	// from it, such as FORGE_MCP_TOKEN).
	LookupEnv func(string) (string, bool)

	// Agent makes the agent for one prompt; nil when this forge has none.
	Agent AgentFactory
	// Caller makes the agent that runs an MCP client's calls; nil when
	// this forge has no agent.
	Caller CallerFactory
	// Models lists and switches the model of the prompts; nil when this
	// forge has no agent.
	Models ModelControl
	// Conversation is this session's conversation with the agent.
	Conversation agent.Conversation
	// Spending is what this session's prompts have used.
	Spending Spending
	// Sessions keep conversations; nil keeps none.
	Sessions *Sessions
	// Trust is the person's trusted project directories; nil when unknown.
	Trust *config.Trust
	// Sandbox is the sandbox of the agent's commands, for /sandbox; nil
	// without an agent.
	Sandbox SandboxControl
	// Policy decides the agent's calls, remembering the person's "always"
	// answers for the session; nil without an agent.
	Policy *permission.Policy
	// Hooks runs the configured hooks, for the agent's calls and /run's;
	// nil when none are configured.
	Hooks *hooks.Runner
	// Memory reads the instructions files an agent of this session gets,
	// for /memory; nil without an agent.
	Memory func() memory.Memory
	// Skills are the skills loaded at start, for /skills; nil when none
	// were loaded.
	Skills func() []custom.Skill
	// ContextWindow is the window of the model prompts go to, in tokens;
	// nil or 0 when unknown. The shell's prompt shows how full it is.
	ContextWindow func() int

	printer render.Printer
	quit    bool
	// shellOutput is what the person's !commands printed since the last
	// prompt, for the next one.
	shellOutput []string
	// shellOutputSaid: the person was told where that output goes.
	shellOutputSaid bool
	// custom are the custom commands (SetCustom).
	custom []custom.Command
	// files are the file checkpoints of a conversation no session log
	// keeps (see History).
	files *session.History
	// calls are the agent's last finished calls, for /last.
	calls recentCalls
	// typedLine is the shell's line being run as the person typed it
	// (pastes as their marks), for its prompt to be kept and shown so;
	// "" outside a shell's line.
	typedLine string
	// resumed is how the person saw the conversation a resume loaded,
	// for its recap.
	resumed session.Shown
}

// AgentFactory builds the agent for one prompt, with what the front end
// provides; its RunInfo describes the run for its first event. It fails
// when no model can answer, saying how to connect one.
type AgentFactory func(ctx context.Context, opts AgentOptions) (*agent.Agent, render.RunInfo, error)

// AgentOptions are what a front end gives the agent.
type AgentOptions struct {
	// Approver asks the person about calls; nil when nobody can answer.
	Approver agent.Approver
	// Asker lets ask_question reach the person; nil when nobody can.
	Asker tools.Asker
	// Unasked says why nobody can answer when Approver is nil; "" is "no
	// terminal".
	Unasked string
	// Exec is the context the agent's calls start from.
	Exec tools.ExecutionContext
	// Tools, when not nil, narrow the tools of this prompt (a custom
	// command's allowed-tools: names or rules such as Bash(git diff:*)).
	Tools []string
	// Model, when set, is the model of this prompt, of the same provider;
	// ModelFrom is the file that asks for it, for messages.
	Model     string
	ModelFrom string
	// Effort is how hard a model that reasons thinks; "" its default.
	Effort llm.Effort
	// Checkpointer keeps the files the agent's calls change, for /undo.
	Checkpointer agent.Checkpointer
	// ShowChanges has the agent work out the change of each edit made
	// without a question, for the view to show it (agent.Config).
	ShowChanges bool
	// Policy, when set, decides this prompt's calls instead of the
	// session's (a conversation of its own, as an editor's are).
	Policy *permission.Policy
	// command says the prompt is a custom command's: its @files are
	// attached and its !`commands` run before it is sent.
	command bool
	// images is the prompt as the person gave it, whose paths to image
	// files attach those images to it; "" attaches none (a custom
	// command's prompt, standard input piped as context).
	images string
	// shellLine says the prompt is a line typed in the shell: the files
	// it @mentions and the output of the !commands before it go with it.
	shellLine bool
}

// Printer returns the printer of the current output mode.
func (e *Env) Printer() render.Printer {
	if e.printer == nil {
		e.printer = e.newPrinter(e.Output)
	}
	return e.printer
}

// newPrinter makes the printer of an output mode.
func (e *Env) newPrinter(output string) render.Printer {
	if output == "json" {
		return render.NewJSON(e.IO.Out)
	}
	var r *render.Renderer
	if e.Renderer != nil {
		r = e.Renderer()
	}
	return render.NewText(render.TextOptions{Out: e.IO.Out, Err: e.IO.Err, Renderer: r, Terminal: e.IO.OutTerminal, Cols: e.Cols})
}

// TermWidth is the width forge's own lines are laid out to: the
// terminal's, or 0 when the output is no terminal (a pipe gets its lines
// whole).
func (e *Env) TermWidth() int {
	if !e.IO.OutTerminal || e.Renderer == nil || e.JSON() {
		return 0
	}
	return e.Renderer().Cols()
}

// RefreshPrinter makes the printer anew, for a terminal that may have been
// resized or an output mode that changed.
func (e *Env) RefreshPrinter() { e.printer = nil }

// JSON reports whether the output is JSON.
func (e *Env) JSON() bool { return e.Output == "json" }

// Quit reports whether a command asked the shell to end.
func (e *Env) Quit() bool { return e.quit }

// Fail reports an error that is not a tool result and returns code.
func (e *Env) Fail(code int, kind, msg string) int {
	e.Printer().Error(kind, msg)
	return code
}

// Usage reports a usage error of c and returns ExitUsage.
func (e *Env) Usage(c Command, inv Invocation, msg string) int {
	if c.Usage != "" {
		usage := c.Usage
		if !inv.Shell {
			usage = "forge " + c.CLIUsage()
		}
		msg += " (usage: " + usage + ")"
	}
	return e.Fail(ExitUsage, "usage", msg)
}

// LookupTool returns the named tool, connecting the MCP server it belongs
// to when that server has not been started yet (its lazy first use).
func (e *Env) LookupTool(ctx context.Context, name string) (tools.Tool, bool) {
	if t, ok := e.Registry.Get(name); ok {
		return t, true
	}
	if e.MCP == nil {
		return nil, false
	}
	ok, err := e.MCP.ConnectFor(ctx, name)
	if err != nil {
		e.Log.Warn().Str("component", "mcp").Msg(err.Error())
	}
	if !ok {
		return nil, false
	}
	return e.Registry.Get(name)
}

// ReadArgFile reads key=@path, relative to the working directory, at most
// maxArgFileSize bytes.
func (e *Env) ReadArgFile(path string) ([]byte, error) {
	if !filepath.IsAbs(path) && e.Exec.WorkingDir != "" {
		path = filepath.Join(e.Exec.WorkingDir, path)
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

// RunTool runs a tool with parsed arguments and shows the result. ctx ends
// the call: the input loop cancels it on Ctrl-C.
func (e *Env) RunTool(ctx context.Context, name string, args tools.Args) int {
	return ResultStatus(e.runTool(ctx, name, args))
}

// runTool is RunTool, returning the result it showed.
func (e *Env) runTool(ctx context.Context, name string, args tools.Args) tools.Result {
	ec := e.Exec
	if e.Ask != nil {
		ec.Asker = askerFunc(e.Ask)
	}
	res, args := e.callTool(ctx, name, ec, args)
	e.ShowResult(name, args, res)
	return res
}

// callTool runs one call the way /run and forge mcp serve run them: the
// PreToolUse hooks (which may refuse it or rewrite its arguments), the
// executor, the PostToolUse hooks. It returns the result and the
// arguments the call ran with.
func (e *Env) callTool(ctx context.Context, name string, ec tools.ExecutionContext, args tools.Args) (tools.Result, tools.Args) {
	t, hooked := e.hookedTool(ctx, name, args)
	if hooked {
		var refused *tools.Result
		if args, refused = e.preToolUse(ctx, t, args); refused != nil {
			return *refused, args
		}
	}
	res := e.Executor.Execute(ctx, name, ec, args)
	if hooked {
		e.postToolUse(ctx, name, args, res)
	}
	return res, args
}

// ShowResult prints one call's result with what the printer needs to draw
// it: the tool's declaration and presentation, or suggestions when the tool
// is unknown.
func (e *Env) ShowResult(name string, args tools.Args, res tools.Result) {
	c := render.Call{Tool: name, Args: args, Result: res}
	if t, ok := e.Registry.Get(name); ok {
		c.Descriptor = tools.Describe(t)
		c.Presentation = tools.Present(t, args, res)
	} else if res.ErrorKind == tools.KindUnknownTool {
		c.Suggestions = tools.Suggest(name, e.Registry.ListNames(), 3)
	}
	e.Printer().Result(c)
}

// askerFunc makes an Asker a tools.Asker.
type askerFunc Asker

func (f askerFunc) Ask(ctx context.Context, question string) (string, error) { return f(ctx, question) }
