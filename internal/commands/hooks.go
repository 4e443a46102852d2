package commands

import (
	"context"
	"fmt"
	"github.com/forgehq/forge/internal/config"
	"strings"

	"github.com/forgehq/forge/internal/hooks"
)

func hooksCommand() Command {
	return Command{
		Name: "hooks", Usage: "/hooks", Summary: "List the configured hooks",
		Help:       `Lists the hooks of the configuration's hooks section: their event, the tools they match (PreToolUse, PostToolUse), their command and timeout, and the file they come from. Hooks are commands forge runs at the agent's events, in Claude Code's format: the event as JSON on standard input; exit 0 goes on (standard output may hold a JSON answer: decision allow, deny or ask, reason, updatedInput), exit 2 blocks with standard error as the reason, any other status is an error shown to you. --debug logs each hook's input and answer.`,
		Example:    "/hooks",
		CLIExample: "forge hooks -o json",
		Args:       AtMost(0),
		Run:        runHooks,
	}
}

// hookView is one hook as the list shows it in JSON.
type hookView struct {
	Event   string  `json:"event"`
	Matcher string  `json:"matcher"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout_seconds"`
	File    string  `json:"file"`
}

func runHooks(_ context.Context, env *Env, inv Invocation) int {
	if len(inv.Args) > 0 {
		return env.Usage(hooksCommand(), inv, "/hooks takes no arguments")
	}
	views := []hookView{}
	var b strings.Builder
	for _, h := range env.Config.Hooks {
		timeout := h.Timeout
		if timeout <= 0 {
			timeout = hooks.DefaultTimeout
		}
		v := hookView{Event: h.Event, Matcher: h.Matcher, Command: h.Command, Timeout: timeout.Seconds(), File: h.File}
		views = append(views, v)
		matcher := ""
		if h.Event == string(hooks.PreToolUse) || h.Event == string(hooks.PostToolUse) {
			matcher = "*"
			if h.Matcher != "" {
				matcher = h.Matcher
			}
			matcher = " " + matcher
		}
		fmt.Fprintf(&b, "%s%s: %s (timeout %s)\n  from %s\n", h.Event, matcher, h.Command, timeout, h.File)
	}
	ignored := ignoredHooks(env.Config.Project)
	if len(views) == 0 && len(ignored) == 0 {
		b.WriteString("No hooks configured (see the hooks section of the configuration).\n")
	}
	if len(ignored) > 0 {
		fmt.Fprintf(&b, "Not run: %s of %s, which is not trusted (forge trust applies them):\n  %s\n",
			plural(len(ignored), "hook"), env.Config.Project.File, strings.Join(ignored, "\n  "))
	}
	env.Printer().Value(strings.TrimSuffix(b.String(), "\n"), map[string]any{"hooks": views, "ignored": ignored})
	return ExitOK
}

// ignoredHooks are the hooks of an untrusted project, as Config names them.
func ignoredHooks(p config.Project) []string {
	var out []string
	for _, name := range p.Ignored {
		if strings.HasPrefix(name, "hooks.") {
			out = append(out, name)
		}
	}
	return out
}
