package commands

import (
	"context"
	"errors"

	"github.com/forgehq/forge/internal/agent"
)

func compactCommand() Command {
	return Command{
		Name: "compact", Usage: "/compact", Summary: "Summarise the conversation so far, to free the model's window",
		Help: "Has the model summarise everything before the last exchange (your last prompt and its answer, kept as they are), " +
			"and goes on from the summary: the model's window fills up again more slowly, and each request costs less. " +
			"The session keeps the whole conversation as it was, and a resume goes on from the summary. " +
			"forge compacts by itself when a conversation nears the model's window (--context-window).",
		Where: ShellOnly, Example: "/compact", Args: AtMost(0),
		Run: func(ctx context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(compactCommand(), inv, "/compact takes no arguments")
			}
			if env.Agent == nil {
				return env.Fail(ExitFailed, "model", "this forge has no agent")
			}
			a, _, err := env.Agent(ctx, AgentOptions{Exec: env.Exec})
			if err != nil {
				return env.failModel(err)
			}
			note, err := a.Compact(ctx, &env.Conversation, func(e agent.Event) {
				if e.Type == agent.EventUsage {
					env.Spending.addRequest(e.Usage, e.Cost)
				}
			})
			var nothing *agent.NothingToCompactError
			switch {
			case errors.As(err, &nothing):
				env.Printer().Value("Nothing to compact: "+nothing.Reason+".", map[string]any{"compacted": false, "reason": nothing.Reason})
				return ExitOK
			case err != nil:
				return env.Fail(ExitFailed, "model", err.Error())
			}
			env.Printer().Value("Conversation "+note+".", map[string]any{"compacted": true, "note": note})
			return ExitOK
		},
	}
}
