// Package hooks runs the person's hooks, in Claude Code's format: shell
// commands configured for an event (SessionStart, UserPromptSubmit,
// PreToolUse, PostToolUse, Stop), the tool events' filtered by a matcher
// over the tool's name. Each gets the event as one JSON object on its
// standard input and answers with its exit status, its standard error and,
// optionally, a JSON object on its standard output:
//
//   - exit 0: go on; standard output may hold {"decision": "allow"|"deny"|
//     "ask", "reason": "...", "updatedInput": {...}} or Claude Code's
//     {"hookSpecificOutput": {"permissionDecision": ..., "updatedInput":
//     ...}}; any other output is context for the model (SessionStart,
//     UserPromptSubmit; its first 16 KB) or ignored;
//   - exit 2: block; standard error says why;
//   - anything else, or no answer within the timeout: the hook failed,
//     which the person is told, and things go on.
//
// The hooks matching one event run side by side; their answers are
// combined in the order they are configured, a deny winning over an ask,
// an ask over an allow. Each runs in a process group and session of its
// own with no terminal, and is killed with everything it started when its
// time is up.
package hooks

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/proc"
)

// Event names the point a hook runs at.
type Event string

// The events.
const (
	SessionStart     Event = "SessionStart"
	UserPromptSubmit Event = "UserPromptSubmit"
	PreToolUse       Event = "PreToolUse"
	PostToolUse      Event = "PostToolUse"
	Stop             Event = "Stop"
)

// Events are every event, in the order a session meets them.
var Events = []Event{SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop}

// DefaultTimeout is a hook's time when its configuration gives none, as
// in Claude Code.
const DefaultTimeout = 60 * time.Second

// Hook is one configured command.
type Hook struct {
	Event Event
	// Matcher is a regular expression that must match the whole tool name
	// (PreToolUse, PostToolUse); "" or "*" matches every tool.
	Matcher string
	Command string
	// Timeout bounds the command; 0 is DefaultTimeout.
	Timeout time.Duration
	// Source is the file the hook was configured in.
	Source string
	// Dir is the directory the command runs in; "" is Options.Dir. A
	// project's hooks run at the project's root, where their relative
	// paths were written from, wherever forge was started below it.
	Dir string
	// Project says Source is the project's file, not the person's: the
	// model is told whose hook refused a call.
	Project bool
}

// Options say where and how the hooks run.
type Options struct {
	// Dir is the directory the commands run in.
	Dir string
	// ProjectDir is FORGE_PROJECT_DIR (and CLAUDE_PROJECT_DIR) in the
	// commands' environment; "" means Dir.
	ProjectDir string
	// Env is the commands' environment before those two; nil means
	// forge's own without its secrets (proc.Environ).
	Env []string
	// Shell runs each command with -c; "" is /bin/sh. Hooks written for
	// Claude Code assume bash ([[ ]]), so forge gives bash when it has one.
	Shell string
	// Log receives, at debug level, each hook's input, answer and time.
	Log zerolog.Logger
	// Now is the clock the times are measured with; nil means time.Now.
	Now func() time.Time
	// Verify, when set, is asked before each run of a hook: an error keeps
	// the hook from running, and is its answer (a hook whose files changed
	// behind the person's back must not run what is there now).
	Verify func(Hook) error
}

// Runner runs the configured hooks. It is safe for concurrent use.
type Runner struct {
	hooks []compiled
	opts  Options
	env   []string
	// start runs one hook's process: exec, or a stand-in in benchmarks
	// that measure what forge adds around it.
	start func(ctx context.Context, h Hook, input []byte) runResult
}

// compiled is a hook with its matcher compiled.
type compiled struct {
	Hook
	match matcher
}

// New checks hooks and returns their runner; a matcher that is not a
// regular expression is an error naming it.
func New(hooks []Hook, opts Options) (*Runner, error) {
	r := &Runner{opts: opts}
	r.start = r.exec
	for _, h := range hooks {
		if !slices.Contains(Events, h.Event) {
			return nil, fmt.Errorf("hook %q: unknown event %q", h.Command, h.Event)
		}
		m, err := compileMatcher(h.Matcher)
		if err != nil {
			return nil, fmt.Errorf("%s hook %q: matcher %q: %w", h.Event, h.Command, h.Matcher, err)
		}
		if h.Timeout <= 0 {
			h.Timeout = DefaultTimeout
		}
		r.hooks = append(r.hooks, compiled{Hook: h, match: m})
	}
	if r.opts.Now == nil {
		r.opts.Now = time.Now
	}
	env := opts.Env
	if env == nil {
		env = proc.Environ(os.Environ(), nil)
	}
	project := opts.ProjectDir
	if project == "" {
		project = opts.Dir
	}
	r.env = append(slices.Clip(env), "FORGE_PROJECT_DIR="+project, "CLAUDE_PROJECT_DIR="+project)
	return r, nil
}

// Hooks are the configured hooks, as given (timeouts filled in).
func (r *Runner) Hooks() []Hook {
	if r == nil {
		return nil
	}
	out := make([]Hook, len(r.hooks))
	for i, h := range r.hooks {
		out[i] = h.Hook
	}
	return out
}

// Has reports whether a hook would run for event (and tool, for the tool
// events): callers skip building an input nobody reads.
func (r *Runner) Has(event Event, tool string) bool {
	if r == nil {
		return false
	}
	for _, h := range r.hooks {
		if h.Event == event && h.applies(tool) {
			return true
		}
	}
	return false
}

// matching are the hooks of event for tool, in configured order.
func (r *Runner) matching(event Event, tool string) []compiled {
	var out []compiled
	for _, h := range r.hooks {
		if h.Event == event && h.applies(tool) {
			out = append(out, h)
		}
	}
	return out
}

// applies says the hook runs for tool: always for events without tools.
func (h compiled) applies(tool string) bool {
	if h.Event != PreToolUse && h.Event != PostToolUse {
		return true
	}
	return h.match.match(tool)
}

// Run runs the hooks of in.Event (those matching in.ToolName, for the tool
// events) side by side and combines their answers in configured order.
// With none to run it returns the zero Outcome at once.
func (r *Runner) Run(ctx context.Context, in Input) Outcome {
	if r == nil {
		return Outcome{}
	}
	hs := r.matching(in.Event, in.ToolName)
	if len(hs) == 0 {
		return Outcome{}
	}
	input, err := in.encode()
	if err != nil {
		return Outcome{Notes: []Note{{Event: in.Event, Tool: in.ToolName, Kind: NoteError,
			Text: "the hooks' input could not be encoded: " + err.Error()}}}
	}
	answers := make([]Answer, len(hs))
	if len(hs) == 1 {
		answers[0] = r.runOne(ctx, hs[0], in, input)
	} else {
		var wg sync.WaitGroup
		for i, h := range hs {
			wg.Go(func() { answers[i] = r.runOne(ctx, h, in, input) })
		}
		wg.Wait()
	}
	return combine(in, hs, answers)
}

// runOne runs one hook and decodes its answer.
func (r *Runner) runOne(ctx context.Context, h compiled, in Input, input []byte) Answer {
	if r.opts.Verify != nil {
		if err := r.opts.Verify(h.Hook); err != nil {
			return Answer{Err: fmt.Errorf("not run: %w", err)}
		}
	}
	start := r.opts.Now()
	res := r.start(ctx, h.Hook, input)
	took := r.opts.Now().Sub(start)
	a := decodeRun(in.Event, res)
	if e := r.opts.Log.Debug(); e.Enabled() {
		e.Str("component", "hooks").Str("event", string(in.Event)).Str("command", h.Command).
			Str("input", trim(string(input), logLimit)).Str("exit", res.status()).
			Str("stdout", trim(string(res.stdout), logLimit)).Str("stderr", trim(string(res.stderr), logLimit)).
			Dur("took", took).Msg("hook ran")
	}
	return a
}

// logLimit bounds each text a debug line carries.
const logLimit = 2000

// trim cuts s to n bytes, saying so.
func trim(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... [%d more bytes]", len(s)-n)
}
