package app

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/session"
)

// addSessionFlags adds --continue and --resume: they choose the
// conversation the shell and forge ask go on from.
func addSessionFlags(fs *pflag.FlagSet) {
	fs.Bool("continue", false, "go on from the latest conversation of this working directory")
	fs.StringP("resume", "r", "", "go on from the conversation with this session id (forge sessions lists them)")
}

// openSessions sets up the session store, unless sessions_dir is "".
func (a *App) openSessions() {
	if a.cfg.SessionsDir == "" {
		return
	}
	a.env.Sessions = &commands.Sessions{Store: session.NewStore(a.cfg.SessionsDir, a.opts.Clock),
		NewID: func() string { return a.newID("sess_") }}
}

// resumeIfAsked loads the conversation --continue or --resume names, for
// the shell and forge ask; the other commands have no conversation.
func (a *App) resumeIfAsked(cmd *cobra.Command) error {
	cont, _ := cmd.Flags().GetBool("continue")
	id, _ := cmd.Flags().GetString("resume")
	switch {
	case !cont && id == "":
		return nil
	case cont && id != "":
		return usageErr(errors.New("--continue and --resume: choose one"))
	case cmd.Parent() != nil && cmd.Name() != "ask":
		return usageErr(errors.New("--continue and --resume apply to the shell and forge ask"))
	}
	warnings, err := a.env.Resume(id, cont)
	if err != nil {
		return &exitError{code: commands.ExitFailed, err: err}
	}
	for _, w := range warnings {
		a.log.Warn().Str("component", "session").Msg(w)
	}
	a.resumed = true
	return nil
}

// resumedLine tells the person which conversation the shell goes on from.
func (a *App) resumedLine() string {
	sp := a.env.Spending
	return fmt.Sprintf("Continuing session %s: %d prompt(s), %d messages.", a.env.Exec.SessionID, sp.Prompts, len(a.env.Conversation.Messages))
}
