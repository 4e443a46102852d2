package app

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/repl"
	"github.com/forgehq/forge/internal/version"
)

// runShell runs the shell: the interactive loop when standard input and
// output are both terminals, the scripted loop otherwise.
func (a *App) runShell(ctx context.Context) int {
	sh := commands.NewShell(a.env)
	in, ok := a.ios.In.(*os.File)
	if ok && a.ios.InTerminal && a.ios.OutTerminal {
		t := repl.Terminal{In: in, Out: a.ios.Out, Err: a.ios.Err, HistoryFile: a.cfg.HistoryFile,
			Warn: func(msg string) { a.log.Warn().Str("component", "repl").Msg(msg) }}
		if !a.env.JSON() {
			t.Banner = "forge " + version.Version + ". Type /help for the commands, Tab to complete, Ctrl-D to leave.\n" + a.modelLine(ctx)
			if a.resumed {
				t.Banner += "\n" + a.env.ResumedText(true)
			}
		}
		code := repl.Interactive(ctx, t, sh, sh)
		if id := a.env.KeptSession(); id != "" && code == commands.ExitOK && !a.env.JSON() {
			fmt.Fprintf(a.ios.Out, "Resume this conversation with: forge -r %s\n", id)
		}
		return code
	}
	return repl.Script(ctx, a.ios.In, sh, repl.ScriptOptions{FailFast: a.cfg.FailFast})
}

// stdinAsker answers a tool's question (ask_question) with the next line
// of standard input, which forge run and forge -c leave unused. On a
// terminal the question is shown on standard error first.
func (a *App) stdinAsker() func(context.Context, string) (string, error) {
	return repl.LineAsker(a.ios.In, a.ios.Err, a.ios.InTerminal)
}

// modelLine says which model prompts go to, or how to connect one. A
// local Ollama is looked for briefly: a person at a terminal waits for the
// banner, a script never does.
func (a *App) modelLine(ctx context.Context) string {
	if !a.modelConfigured() {
		ctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		defer cancel()
		if m, err := a.chooseModel(ctx); err == nil {
			a.model = m
		} else {
			return connectHint
		}
	}
	if a.model.Model == nil {
		provider := a.cfg.Provider
		if provider == "" {
			provider = "openai"
			if a.getenv("OPENAI_API_KEY") == "" {
				provider = "anthropic"
			}
		}
		return "Any other line is a prompt to " + provider + " (" + orDefault(a.cfg.Model, defaultModel(provider)) + ")."
	}
	return "Any other line is a prompt to " + a.model.Provider + " (" + a.model.Name + ")."
}
