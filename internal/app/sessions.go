package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/session"
)

// addSessionFlags adds --continue and --resume: they choose the
// conversation the shell and forge ask go on from.
func addSessionFlags(fs *pflag.FlagSet) {
	fs.Bool("continue", false, "go on from the latest conversation of this working directory")
	fs.StringP("resume", "r", "", "go on from the conversation with this session id; without one, pick among this directory's")
}

// bareResume rewrites a --resume (-r) given without an id (the last word,
// or one before another flag) as --resume= with an empty id, which asks
// the person to pick: pflag would take the next flag for the id, or fail.
// The value of another flag is left alone (forge -c -r is a line).
func bareResume(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil || cmd == nil {
		cmd = root
	}
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "--":
			return append(out, args[i:]...)
		case (w == "-r" || w == "--resume") && (i+1 == len(args) || strings.HasPrefix(args[i+1], "-")):
			out = append(out, "--resume=")
		case takesValue(cmd, w) && i+1 < len(args):
			out = append(out, w, args[i+1])
			i++
		default:
			out = append(out, w)
		}
	}
	return out
}

// takesValue reports whether w is a flag of cmd (or of forge) that takes
// the next word as its value: -c, --model, not --dry-run or --model=x.
func takesValue(cmd *cobra.Command, w string) bool {
	var f *pflag.Flag
	switch {
	case strings.HasPrefix(w, "--") && !strings.Contains(w, "="):
		name := w[2:]
		if f = cmd.Flags().Lookup(name); f == nil {
			f = cmd.InheritedFlags().Lookup(name)
		}
	case len(w) == 2 && w[0] == '-' && w[1] != '-':
		name := w[1:]
		if f = cmd.Flags().ShorthandLookup(name); f == nil {
			f = cmd.InheritedFlags().ShorthandLookup(name)
		}
	}
	return f != nil && f.NoOptDefVal == ""
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
// --resume without an id asks the person which one, on a terminal.
func (a *App) resumeIfAsked(cmd *cobra.Command) error {
	cont, _ := cmd.Flags().GetBool("continue")
	id, _ := cmd.Flags().GetString("resume")
	pick := id == "" && cmd.Flags().Changed("resume")
	switch {
	case !cont && id == "" && !pick:
		return nil
	case cont && (id != "" || pick):
		return usageErr(errors.New("--continue and --resume: choose one"))
	case cmd.Parent() != nil && cmd.Name() != "ask":
		return usageErr(errors.New("--continue and --resume apply to the shell and forge ask"))
	}
	if pick {
		var err error
		if id, err = a.pickSession(cmd); err != nil || id == "" {
			return err
		}
	}
	warnings, err := a.env.Resume(id, cont)
	if err != nil {
		return &exitError{code: commands.ExitFailed, err: err}
	}
	for _, w := range warnings {
		a.warn(w)
	}
	a.resumed = true
	return nil
}

// pickSession asks the person at the terminal which session to resume;
// "" when they chose none. Without a terminal it lists the sessions and
// says how to name one, a usage error.
func (a *App) pickSession(cmd *cobra.Command) (string, error) {
	var ask commands.Asker
	if a.ios.InTerminal && a.ios.OutTerminal {
		ask = func(ctx context.Context, q string) (string, error) {
			fmt.Fprint(a.ios.Out, q) // it ends with a space: answered on its line
			return readAnswer(ctx, a.ios.In)
		}
	}
	id, err := commands.PickSession(cmd.Context(), a.env, ask)
	var named *commands.NameSessionError
	switch {
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(a.ios.Err, "\nInterrupted: no conversation was resumed, and forge did not start.")
		return "", &exitError{code: commands.ExitCancelled, err: err, reported: true}
	case errors.As(err, &named):
		a.env.Printer().Value(named.List, map[string]any{"sessions": named.Sessions})
		return "", usageErr(fmt.Errorf("name the session to resume: forge %s-r ID", askWord(cmd)))
	case err != nil:
		return "", &exitError{code: commands.ExitFailed, err: err}
	case id == "" && !a.env.JSON():
		fmt.Fprintln(a.ios.Out, "None chosen: a new conversation.")
	}
	return id, nil
}

// askWord is "ask " for forge ask, "" for the shell.
func askWord(cmd *cobra.Command) string {
	if cmd.Parent() != nil {
		return cmd.Name() + " "
	}
	return ""
}
