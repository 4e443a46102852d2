package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/render"
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
			// The banner's lines break between words at the terminal's edge.
			t.Banner = render.Fit("forge "+version.Version+". Type /help for the commands, Tab to complete, Ctrl-D to leave.\n"+
				a.placeLine()+"\n"+a.modelLine(ctx), a.env.TermWidth())
			if a.resumed {
				t.Banner += "\n" + a.env.ResumedText()
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

// placeLine says where the agent works and how much it may do there
// without asking: the working directory and the approval mode.
func (a *App) placeLine() string {
	mode := permission.ModeAsk
	if a.env.Policy != nil {
		mode = a.env.Policy.Mode()
	}
	what := map[permission.Mode]string{
		permission.ModeAsk:      "edits and commands are put to you first",
		permission.ModeAutoEdit: "edits in it run without asking, commands are put to you first",
		permission.ModeYolo:     "every call runs without asking (deny rules still hold)",
		permission.ModePlan:     "read-only, nothing is changed",
	}[mode]
	line := "Working in " + homeShort(a.env.Exec.WorkingDir, a.getenv("HOME")) + "; approval mode " + mode.String() + ": " + what + "."
	if a.env.Exec.DryRun {
		line += " Dry run: tools only say what they would do."
	}
	return line
}

// homeShort writes a path under home with ~, as a person reads it.
func homeShort(path, home string) string {
	if home != "" && home != "/" {
		if rest, ok := strings.CutPrefix(path, home); ok && (rest == "" || rest[0] == filepath.Separator) {
			return "~" + rest
		}
	}
	return path
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
