package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/termsafe"
)

// loadTrust reads the person's trusted project directories. A trust file
// that cannot be read trusts nothing, with a warning: forge still starts,
// and narrower is the safe way to be wrong.
func (a *App) loadTrust() (*config.Trust, string) {
	path := config.DefaultTrustFile(a.opts.LookupEnv)
	t, err := config.LoadTrust(path)
	if err != nil {
		return t, err.Error() + "; no project is trusted this run"
	}
	return t, ""
}

// mayAskTrust says whether to ask the person, at start-up, to trust the
// project whose settings were ignored: only with a person at a terminal,
// and not for the commands that show or change trust themselves.
func (a *App) mayAskTrust(cmd *cobra.Command, cfg config.Config) bool {
	if cfg.Project.Warning() == "" || !a.ios.InTerminal || !a.errTTY {
		return false
	}
	if cmd.Name() == "help" || asksVersion(cmd) {
		return false
	}
	return !showsTrust(cmd)
}

// showsTrust says the command shows or changes the project's trust itself,
// so a question or a warning about it would only repeat it.
func showsTrust(cmd *cobra.Command) bool {
	return cmd.Name() == "trust" || cmd.Name() == "config"
}

// errTrustInterrupted is Ctrl-C at the trust question: forge stops there,
// as it would at any question before it started, with nothing trusted.
var errTrustInterrupted = errors.New("interrupted at the trust question")

// askTrust puts the question on standard error and reads the answer from
// standard input; anything but yes is no, and says so. Ctrl-C is
// errTrustInterrupted.
func (a *App) askTrust(ctx context.Context, cfg config.Config) (bool, error) {
	p := cfg.Project
	what := "asks for more than forge allows by default"
	if p.Changed {
		what = "changed since you trusted it, and asks for more than forge allows by default"
	}
	// The names and commands come from the repository: sanitised, so that
	// escape sequences in them cannot redraw the question.
	// A project with only Claude Code's files has no file of forge's.
	whose := "This project's " + termsafe.Text(p.File)
	if p.File == "" {
		whose = "This project's settings"
	}
	fmt.Fprintf(a.ios.Err, "%s %s:\n  %s\n"+
		"Trust %s and apply them? Only trust a repository whose code you trust. [y/N] ",
		whose, what, termsafe.Text(strings.Join(p.Ignored, "\n  ")), termsafe.Text(cfg.ProjectDir))
	answer, err := readAnswer(ctx, a.ios.In)
	if err != nil {
		fmt.Fprintln(a.ios.Err, "\nInterrupted: nothing was trusted, and forge did not start.")
		return false, errTrustInterrupted
	}
	answer = strings.ToLower(strings.TrimSpace(answer))
	if answer == "y" || answer == "yes" {
		return true, nil
	}
	fmt.Fprintln(a.ios.Err, "Not trusted: forge goes on without the settings above. To apply them later, run: forge trust "+
		termsafe.Text(cfg.ProjectDir))
	return false, nil
}

// repairs says the command mends or inspects what a broken project file
// would otherwise keep it from running: undo the edit that broke it, look
// at the configuration, or change trust.
func repairs(cmd *cobra.Command) bool {
	name := cmd.Name()
	if p := cmd.Parent(); p != nil && p.Parent() != nil {
		name = p.Name() // forge sessions rm
	}
	switch name {
	case "undo", "trust", "config", "sessions", "version":
		return true
	}
	return asksVersion(cmd)
}
