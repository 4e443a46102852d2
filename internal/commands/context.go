package commands

import (
	"context"

	"github.com/forgehq/forge/internal/render"
)

func contextCommand() Command {
	return Command{
		Name: "context", Usage: "/context", Summary: "Show the execution context",
		Help: "The context every tool call of this session starts from: working directory, session id, dry run, timeout, output cap, allowed roots. /set changes it.",
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(contextCommand(), inv, "/context takes no arguments")
			}
			env.Printer().Context(render.ContextView{Context: env.Exec, Output: env.Output})
			return ExitOK
		},
	}
}
