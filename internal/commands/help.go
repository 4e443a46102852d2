package commands

import (
	"context"
	"strings"

	"github.com/forgehq/forge/internal/render"
)

// helpFooter closes the shell's list of commands.
const helpFooter = "Other lines are prompts to the agent; !CMD runs a shell command.\nTab completes. Ctrl-C cancels what runs; Ctrl-D leaves."

func helpCommand() Command {
	return Command{
		Name: "help", Usage: "/help [COMMAND]", Summary: "List the commands, or explain one",
		Example: "/help run", Where: ShellOnly, Run: runHelp,
		Complete: func(env *Env, words []string, _ string) []string {
			if len(words) > 0 {
				return nil
			}
			var out []string
			for _, c := range env.commandTable() {
				if c.InShell() {
					out = append(out, c.Name+" ")
				}
			}
			return out
		},
	}
}

func runHelp(_ context.Context, env *Env, inv Invocation) int {
	if len(inv.Args) > 1 {
		return env.Usage(helpCommand(), inv, "too many arguments")
	}
	table := env.commandTable()
	if len(inv.Args) == 1 {
		name := strings.TrimPrefix(inv.Args[0], "/")
		c, ok := lookup(table, name)
		if !ok || !c.InShell() {
			return NewShell(env).unknownCommand("/" + name)
		}
		info := commandInfo(c)
		info.Help, info.Example = c.help(), c.Example
		env.Printer().CommandHelp(info)
		return ExitOK
	}
	var infos []render.CommandInfo
	for _, c := range table {
		if c.InShell() {
			infos = append(infos, commandInfo(c))
		}
	}
	env.Printer().CommandList(infos, helpFooter)
	return ExitOK
}

// commandInfo is c as /help lists it.
func commandInfo(c Command) render.CommandInfo {
	var aliases []string
	for _, a := range c.Aliases {
		aliases = append(aliases, "/"+a)
	}
	return render.CommandInfo{Name: "/" + c.Name, Aliases: aliases, Usage: c.Usage, Summary: c.Summary, Source: c.Source}
}
