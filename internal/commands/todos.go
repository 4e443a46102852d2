package commands

import (
	"context"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/render"
)

func todosCommand() Command {
	return Command{
		Name: "todos", Usage: "/todos", Summary: "Show the agent's task list", Where: ShellOnly, Args: AtMost(0),
		Help: "Shows the task list the model keeps with TodoWrite in this conversation: how far along it is, and a line per " +
			"step, the one under way marked. A resumed conversation has its list again; /clear starts without one.",
		Run: func(_ context.Context, env *Env, _ Invocation) int {
			ts := env.Conversation.Todos
			text := "No task list in this conversation."
			if len(ts) > 0 {
				// Plain: the printer's lines are forge's own text, fitted and
				// without styles.
				text = render.New(render.Options{Width: env.TermWidth()}).TodoList(ts)
			}
			env.Printer().Value(text, map[string]any{"todos": todosValue(ts)})
			return ExitOK
		},
	}
}

// todosValue is a task list for JSON: [] rather than null when empty.
func todosValue(ts agent.Todos) agent.Todos {
	if ts == nil {
		return agent.Todos{}
	}
	return ts
}
