package app

import (
	"context"
	"os"

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
			t.Banner = "forge " + version.Version + ". Type /help for the commands, Tab to complete, Ctrl-D to leave."
		}
		return repl.Interactive(ctx, t, sh, sh)
	}
	return repl.Script(ctx, a.ios.In, sh, repl.ScriptOptions{FailFast: a.cfg.FailFast})
}

// stdinAsker answers a tool's question (ask_question) with the next line
// of standard input, which forge run and forge -c leave unused. On a
// terminal the question is shown on standard error first.
func (a *App) stdinAsker() func(context.Context, string) (string, error) {
	return repl.LineAsker(a.ios.In, a.ios.Err, a.ios.InTerminal)
}
