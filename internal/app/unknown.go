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
// may have meant: a first word close to a command's name is that command
// mistyped, whatever follows it (forge sesions rm ID).
func unknownSubcommand(parent *cobra.Command, args []string) (string, []string) {
	path, word := parent.CommandPath(), args[0]
	if sugg, ok := mistypedSubcommand(parent, word); ok {
		return "Unknown command: " + path + " " + word + ". Did you mean " + path + " " + sugg + "? Run " + path +
			" --help for the list.", []string{sugg}
	}
	oneWord := len(args) == 1 && !strings.ContainsAny(word, " \t\n")
	if parent.HasParent() {
		return "Unknown command: " + path + " " + strings.Join(args, " ") + ". Run " + path + " --help for the list.", nil
	}
	if oneWord {
		return "Unknown command: forge " + word + ". Run forge --help for the list; forge ask \"...\" gives the agent a prompt.", nil
	}
	return "forge takes no prompt on its command line: forge ask \"" + strings.Join(args, " ") +
		"\" gives it to the agent, and forge alone opens the shell.", nil
}

// mistypedSubcommand is the subcommand of parent closest to word, when
// word is one word that names none but is close to one.
func mistypedSubcommand(parent *cobra.Command, word string) (string, bool) {
	if word == "" || strings.ContainsAny(word, " \t\n") {
		return "", false
	}
	var names []string
	for _, c := range parent.Commands() {
		if c.Name() == word || c.HasAlias(word) {
			return "", false
		}
		if c.IsAvailableCommand() || c.Name() == "help" {
			names = append(names, c.Name())
		}
	}
	sugg := tools.Suggest(word, names, 1)
	if len(sugg) == 0 {
		return "", false
	}
	return sugg[0], true
}

// flagError is the error of flags cobra could not parse for cmd. When the
// command line's first word is a mistyped subcommand (forge sesions
// --all), the flags were meant for that command: the mistake to name is
// the word, not the flag.
func (a *App) flagError(cmd *cobra.Command, err error) error {
	if !cmd.HasAvailableSubCommands() {
		return usageErr(err)
	}
	word := firstWord(cmd, a.args)
	sugg, ok := mistypedSubcommand(cmd, word)
	if !ok {
		return usageErr(err)
	}
	path := cmd.CommandPath()
	a.printer().UnknownCommand("Unknown command: "+path+" "+word+". Did you mean "+path+" "+sugg+"? Run "+path+
		" --help for the list.", []string{sugg})
	return &exitError{code: commands.ExitUsage, reported: true}
}

// firstWord is the first word of args after cmd's own path that is no
// flag nor a flag's value: where a subcommand of cmd would be named.
func firstWord(cmd *cobra.Command, args []string) string {
	path := strings.Fields(cmd.CommandPath())[1:] // without "forge"
	fs := cmd.Flags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return ""
		case strings.HasPrefix(a, "--"):
			name, _, hasValue := strings.Cut(a[2:], "=")
			if f := fs.Lookup(name); f != nil && !hasValue && f.NoOptDefVal == "" {
				i++ // its value is the next word
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			short := a[len(a)-1:]
			if f := fs.ShorthandLookup(short); f != nil && len(a) == 2 && f.NoOptDefVal == "" {
				i++
			}
		case len(path) > 0 && a == path[0]:
			path = path[1:]
		default:
			return a
		}
	}
	return ""
}
