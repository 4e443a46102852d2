package commands

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/llm"
)

func effortCommand() Command {
	return Command{
		Name: "effort", Usage: "/effort [low|medium|high|off]", Summary: "Show or change how hard the model thinks before it answers",
		Help: "A model that can reason thinks first, this hard, from the next prompt on: Claude's extended thinking " +
			"(a budget of thinking tokens, or the effort itself on models that decide for themselves), OpenAI's reasoning effort. " +
			"More effort answers hard questions better and costs more tokens. off leaves the model's own default " +
			"(Claude does not think then). --effort and the config's effort set it at start.",
		Example: "/effort high\n/effort off", Where: ShellOnly, Args: AtMost(1),
		Complete: func(_ *Env, words []string, _ string) []string {
			if len(words) == 0 {
				return withSpace(config.Efforts())
			}
			return nil
		},
		Run: runEffort,
	}
}

func runEffort(_ context.Context, env *Env, inv Invocation) int {
	if len(inv.Args) > 1 {
		return env.Usage(effortCommand(), inv, "/effort takes at most one value")
	}
	if len(inv.Args) == 1 {
		e, err := llm.ParseEffort(inv.Args[0])
		if err != nil {
			return env.Usage(effortCommand(), inv, err.Error())
		}
		env.Config.Effort = string(e)
	}
	shown := env.Config.Effort
	text := "Effort: " + shown + " (from the next prompt)"
	switch {
	case shown == "":
		shown = "off"
		text = "Effort: off (the model's own default)"
	case len(inv.Args) == 0:
		text = fmt.Sprintf("Effort: %s", shown)
	}
	env.Printer().Value(text, map[string]any{"effort": shown})
	return ExitOK
}

func thinkingCommand() Command {
	return Command{
		Name: "thinking", Usage: "/thinking", Summary: "Show the model's whole thinking of its last answer",
		Help: "While a model thinks, the shell shows its last lines dimmed, then folds them to one line. " +
			"/thinking shows all of the thinking the last answer came with (and of the tool rounds before it in the same prompt).",
		Where: ShellOnly, Args: AtMost(0),
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(thinkingCommand(), inv, "/thinking takes no arguments")
			}
			text := lastThinking(env.Conversation.Messages)
			if text == "" {
				env.Printer().Value("No thinking in the last prompt: a model thinks when it can and is asked to (/effort high).", map[string]any{"thinking": ""})
				return ExitOK
			}
			env.Printer().Verbatim(text, map[string]any{"thinking": text})
			return ExitOK
		},
	}
}

// lastThinking is the readable thinking of the last prompt's assistant
// messages, in order.
func lastThinking(msgs []llm.Message) string {
	start := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser {
			start = i
			break
		}
	}
	var parts []llm.Reasoning
	for _, m := range msgs[start:] {
		parts = append(parts, m.Reasoning...)
	}
	return llm.ReasoningText(parts)
}
