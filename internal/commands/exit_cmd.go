package commands

import "context"

func exitCommand() Command {
	return Command{
		Name: "exit", Aliases: []string{"quit"}, Usage: "/exit", Summary: "Leave the shell (also /quit, Ctrl-D)",
		Where: ShellOnly,
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(exitCommand(), inv, "/exit takes no arguments")
			}
			env.quit = true
			env.Printer().Exit()
			return ExitOK
		},
	}
}
