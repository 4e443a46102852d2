package app

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/tools"
)

// noSubcommand checks the arguments of forge and of a command with verbs
// (forge sessions), which take none: a word is a mistyped command (named
// with the closest one, as the shell names its own) or, to forge, a
// prompt given without forge ask (said how to give it).
func (a *App) noSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg, sugg := unknownSubcommand(cmd, args)
	a.printer().UnknownCommand(msg, sugg)
	return &exitError{code: commands.ExitUsage, reported: true}
}

// unknownSubcommand says that args name no subcommand of parent (forge,
// or a command with verbs such as forge sessions), and what the person
// may have meant.
func unknownSubcommand(parent *cobra.Command, args []string) (string, []string) {
	path, word := parent.CommandPath(), args[0]
	var names []string
	for _, c := range parent.Commands() {
		if c.IsAvailableCommand() || c.Name() == "help" {
			names = append(names, c.Name())
		}
	}
	oneWord := len(args) == 1 && !strings.ContainsAny(word, " \t\n")
	if sugg := tools.Suggest(word, names, 1); oneWord && len(sugg) > 0 {
		return "Unknown command: " + path + " " + word + ". Did you mean " + path + " " + sugg[0] + "? Run " + path +
			" --help for the list.", []string{sugg[0]}
	}
	if parent.HasParent() {
		return "Unknown command: " + path + " " + strings.Join(args, " ") + ". Run " + path + " --help for the list.", nil
	}
	if oneWord {
		return "Unknown command: forge " + word + ". Run forge --help for the list; forge ask \"...\" gives the agent a prompt.", nil
	}
	return "forge takes no prompt on its command line: forge ask \"" + strings.Join(args, " ") +
		"\" gives it to the agent, and forge alone opens the shell.", nil
}
