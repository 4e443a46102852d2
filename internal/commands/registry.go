package commands

import "context"

func registryCommand() Command {
	return Command{
		Name: "registry", Usage: "/registry", Summary: "Show the registry's state",
		Help: "The registry's identity, how many tools it holds in each category, and their names.",
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(registryCommand(), inv, "/registry takes no arguments")
			}
			env.Printer().Registry(env.Registry.Stats())
			return ExitOK
		},
	}
}
