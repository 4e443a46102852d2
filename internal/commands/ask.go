package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/render"
)

// ExitLimit is the exit status of a run a limit stopped (max turns, a loop).
const ExitLimit = 4

// maxPipedContext bounds the standard input added to a prompt as context.
const maxPipedContext = 4 << 20

func askCommand() Command {
	return Command{
		Name: "ask", Usage: "/ask PROMPT...", Summary: "Give the agent one prompt",
		Help: `Sends PROMPT to the model with forge's tools, and works until the model is done or a limit stops it. In the shell any line that does not start with / is such a prompt, and the conversation goes on from line to line (/clear starts a new one).

forge ask - (or forge ask alone, its input piped) reads the prompt from standard input; with a prompt given, piped standard input is added to it as context (git diff | forge ask "review this"). A path to an image file in the prompt attaches the picture, as in the shell (forge ask "what is wrong in shot.png?"). The final answer goes to standard output, a line per tool call to standard error; with -o json, one event per line (docs/events.schema.json).

Calls that change things are put to the person on a terminal; without one nobody can answer, so they are denied and the model is told how to allow them (--approval, or permissions.allow rules). Nothing ever waits for an answer without a terminal.

Exit status:
  0    the model finished
  1    the provider failed, or no model is configured
  2    usage error
  4    a limit stopped the run (--max-turns, --max-cost, --max-tokens, a loop, a full context window)
  130  interrupted (Ctrl-C)`,
		Example: `/ask what does internal/app do?`,
		CLIExample: `forge ask "why does go test ./internal/tools fail?"
git diff | forge ask "review this change"
forge ask --approval yolo --max-turns 20 "fix the failing test"
echo "summarise README.md" | forge ask - -o json | jq -c 'select(.type=="done")'`,
		RawLine: true,
		Run:     runAsk,
	}
}

func runAsk(ctx context.Context, env *Env, inv Invocation) int {
	prompt, opts, err := strings.TrimSpace(inv.Line), AgentOptions{Exec: env.Exec}, error(nil)
	typed := env.typedLine
	if inv.Shell {
		prompt, opts, err = env.promptOrCustom(prompt)
	} else {
		prompt, opts, err = cliPrompt(env, inv.Args)
		typed = strings.TrimSpace(strings.Join(inv.Args, " ")) // what stdin adds is not typed
		if typed == "-" {
			typed = ""
		}
	}
	var mistyped *mistypedCommandError
	if errors.As(err, &mistyped) {
		env.Printer().UnknownCommand(mistyped.msg, mistyped.suggestions)
		return ExitUsage
	}
	if err != nil {
		return env.Usage(askCommand(), inv, err.Error())
	}
	if prompt == "" {
		msg := "missing prompt"
		if !inv.Shell {
			msg += `: give it as words, or on standard input (echo "fix the test" | forge ask)`
		}
		return env.Usage(askCommand(), inv, msg)
	}
	return runPrompt(ctx, env, prompt, typed, !inv.Shell, opts)
}

// cliPrompt is forge ask's prompt: its words, or standard input with -
// or without words (when it is no terminal), a custom command's prompt
// when it names one ("/review src/"), and piped standard input added as
// context to words.
func cliPrompt(env *Env, words []string) (string, AgentOptions, error) {
	prompt := strings.TrimSpace(strings.Join(words, " "))
	if prompt == "-" || prompt == "" && !env.IO.InTerminal && env.IO.In != nil {
		b, err := readLimited(env.IO.In)
		if err != nil {
			return "", AgentOptions{}, fmt.Errorf("read the prompt from standard input: %w", err)
		}
		return env.promptOrCustom(strings.TrimSpace(b))
	}
	prompt, opts, err := env.promptOrCustom(prompt)
	if err != nil || env.IO.InTerminal || env.IO.In == nil || prompt == "" {
		return prompt, opts, err
	}
	piped, err := readLimited(env.IO.In)
	if err != nil || strings.TrimSpace(piped) == "" {
		return prompt, opts, nil
	}
	return prompt + "\n\nStandard input:\n<stdin>\n" + strings.TrimRight(piped, "\n") + "\n</stdin>", opts, nil
}

// promptOrCustom is prompt as it is, with the images it names, or, when
// it names a custom command ("/review src/"), that command's prompt and
// options. A first word that looks like a mistyped command ("/revew
// src/") is an error, as in the shell: the model would only be puzzled
// by it.
func (e *Env) promptOrCustom(prompt string) (string, AgentOptions, error) {
	if d, args, ok := e.customFor(prompt); ok {
		return expandCustom(e, d, args)
	}
	if err := e.mistypedCommand(prompt); err != nil {
		return "", AgentOptions{}, err
	}
	return prompt, AgentOptions{Exec: e.Exec, images: prompt}, nil
}

// commandWord is a first word shaped like a command's name.
var commandWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^/[A-Za-z0-9_:-]+$`) })

// mistypedCommandError is a prompt whose first word names no command but
// is close to one.
type mistypedCommandError struct {
	msg         string
	suggestions []string
}

func (e *mistypedCommandError) Error() string { return e.msg }

// mistypedCommand says whether prompt's first word looks like a command,
// is none, and is close to one; a word close to none ("/usr/bin/env")
// leaves the prompt a prompt.
func (e *Env) mistypedCommand(prompt string) error {
	name, _ := cutWord(prompt)
	if !commandWord().MatchString(name) {
		return nil
	}
	table := e.commandTable()
	if _, ok := lookup(table, name[1:]); ok {
		return nil
	}
	msg, sugg := unknownCommandMessage(table, name)
	if len(sugg) == 0 {
		return nil
	}
	return &mistypedCommandError{msg: msg, suggestions: sugg}
}

// readLimited reads r up to maxPipedContext, noting a cut.
func readLimited(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxPipedContext+1))
	if err != nil {
		return "", err
	}
	if len(b) > maxPipedContext {
		return string(b[:maxPipedContext]) + "\n[... cut: standard input is longer than 4 MiB]", nil
	}
	return string(b), nil
}

// runPrompt gives the agent one prompt, continuing the session's
// conversation, with the agent's options for this prompt (a custom
// command's tools and model), shows the run, and returns its exit status.
// typed is the prompt as the person typed it, which the session keeps
// beside what the model gets ("" when the same). toErr sends the lines
// about tool calls to standard error (forge ask).
func runPrompt(ctx context.Context, env *Env, prompt, typed string, toErr bool, opts AgentOptions) int {
	if env.Agent == nil {
		return env.Fail(ExitFailed, "model", "this forge has no agent")
	}
	opts.Checkpointer = historyOf{env}
	opts.Effort = llm.Effort(env.Config.Effort)
	opts.ShowChanges = env.IO.OutTerminal && !env.JSON()
	if env.IO.InTerminal && env.Ask != nil {
		// Only a person at a terminal can answer; a script's next line is
		// not an answer.
		opts.Approver = terminalApprover{env: env}
		opts.Asker = askerFunc(env.Ask)
		opts.Exec.Asker = opts.Asker
	}
	a, info, err := env.Agent(ctx, opts)
	if err != nil {
		return env.failModel(err)
	}
	env.record(agentInfo{provider: info.Provider, model: info.Model})
	info.SessionID = env.Exec.SessionID
	view := env.Printer().Run(info, render.RunOptions{ProgressToErr: toErr, Lookup: env.Registry.Get})
	defer view.Close()
	// What goes with the prompt is said once the view is open, so that
	// in JSON its notices come after the init event.
	if opts.images != "" {
		env.attachImages(ctx, opts.images, info.Model, view.Event)
	}
	if opts.shellLine {
		prompt = env.promptWithContext(ctx, prompt, view.Event)
	}
	if opts.command {
		prompt = env.commandContext(ctx, a, prompt, view.Event)
	}
	h := env.History()
	h.Prompt(orText(typed, prompt), env.Conversation.Messages)
	defer env.recordTyped(typed)()
	continued := len(env.Conversation.Messages) > 0
	d := a.Run(ctx, &env.Conversation, prompt, func(e agent.Event) {
		env.calls.note(e)
		env.recordOutcome(e)
		if e.Type == agent.EventDone {
			adviseContext(e.Done, toErr, continued)
		}
		view.Event(e)
	})
	if d.Reason == agent.ReasonHook {
		// A blocked prompt never reaches the log: not counted there, it
		// must not be counted here either.
		h.Withdraw()
	}
	env.Spending.add(d)
	return doneStatus(d)
}

// doneStatus is the exit status of a finished run.
func doneStatus(d agent.Done) int {
	switch d.Reason {
	case agent.ReasonStop:
		return ExitOK
	case agent.ReasonMaxTurns, agent.ReasonLoop, agent.ReasonBudget, agent.ReasonContext:
		return ExitLimit
	case agent.ReasonCancelled:
		return ExitCancelled
	}
	if errors.Is(d.Err, context.Canceled) {
		return ExitCancelled
	}
	return ExitFailed
}

func clearCommand() Command {
	return Command{
		Name: "clear", Usage: "/clear", Summary: "Start a new conversation with the agent", Where: ShellOnly,
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(clearCommand(), inv, "/clear takes no arguments")
			}
			env.NewConversation()
			env.Printer().Value("New conversation.", map[string]any{"cleared": "conversation", "session_id": env.Exec.SessionID})
			return ExitOK
		},
	}
}
