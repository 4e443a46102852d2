package commands

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// ModelControl is the session's model, as /model sees it.
type ModelControl interface {
	// Current is the provider and model the next prompt goes to.
	Current(ctx context.Context) (provider, name string, err error)
	// Models are the models forge knows of the current provider, and
	// those its server lists (with the error when it could not say).
	Models(ctx context.Context) (known, served []string, err error)
	// Switch makes spec (NAME, or PROVIDER/NAME) the model of the next
	// prompts.
	Switch(ctx context.Context, spec string) (provider, name string, err error)
}

func modelCommand() Command {
	return Command{
		Name: "model", Usage: "/model [NAME | PROVIDER/NAME]", Summary: "Show the models, or switch the model for the next prompts",
		Help: "Without a name, the model prompts go to, the models forge knows of its provider (with their window and price) " +
			"and the ones its server lists. With one, the next prompts go to that model, the conversation kept: NAME of the same " +
			"provider, or anthropic/NAME, openai/NAME, ollama/NAME for another (its own endpoint and key). What one provider " +
			"cannot take from another (Claude's signed thinking, another server's reasoning) is left out of what the new model is sent.",
		Example: "/model\n/model claude-opus-4-5\n/model openai/gpt-5", Where: ShellOnly, Args: AtMost(1),
		Complete: func(env *Env, words []string, _ string) []string {
			if len(words) > 0 || env.Models == nil {
				return nil
			}
			var out []string
			for _, p := range []string{"openai", "anthropic"} {
				for _, n := range llm.KnownModels(p) {
					out = append(out, n, p+"/"+n)
				}
			}
			return withSpace(out)
		},
		Run: runModel,
	}
}

func runModel(ctx context.Context, env *Env, inv Invocation) int {
	if env.Models == nil {
		return env.Fail(ExitFailed, "model", "this forge has no agent")
	}
	if len(inv.Args) > 1 {
		return env.Usage(modelCommand(), inv, "/model takes one model name")
	}
	if len(inv.Args) == 1 {
		return switchModel(ctx, env, inv.Args[0])
	}
	provider, name, err := env.Models.Current(ctx)
	if err != nil {
		return env.failModel(err)
	}
	known, served, err := env.Models.Models(ctx)
	var b strings.Builder
	fmt.Fprintf(&b, "Model: %s (%s)\n", name, provider)
	if len(known) > 0 {
		fmt.Fprintf(&b, "\nKnown to forge:\n")
		w := 0
		for _, k := range known {
			w = max(w, len(k))
		}
		for _, k := range known {
			fmt.Fprintf(&b, "  %s%s\n", mark(k, name), strings.TrimRight(fmt.Sprintf("%-*s  %s", w, k, modelFacts(k)), " "))
		}
	}
	var others []string
	for _, s := range served {
		if !slices.Contains(known, s) {
			others = append(others, s)
		}
	}
	switch {
	case err != nil:
		fmt.Fprintf(&b, "\nThe server did not list its models: %v\n", err)
	case len(others) > 0:
		fmt.Fprintf(&b, "\nServed by %s:\n", provider)
		for _, s := range others {
			fmt.Fprintf(&b, "  %s%s\n", mark(s, name), s)
		}
	}
	b.WriteString("\n/model NAME switches, for the next prompts; /model PROVIDER/NAME to another provider.")
	v := map[string]any{"provider": provider, "model": name, "known": known, "served": served}
	if err != nil {
		v["served_error"] = err.Error()
	}
	env.Printer().Verbatim(b.String(), v)
	return ExitOK
}

// modelFacts is what forge knows of a model, for the list: its window
// and its list price, "" for neither.
func modelFacts(name string) string {
	info, _ := llm.LookupModel(name)
	var facts []string
	switch n := info.ContextWindow; {
	case n >= 1_000_000:
		facts = append(facts, fmt.Sprintf("%.2gM window", float64(n)/1e6))
	case n > 0:
		facts = append(facts, fmt.Sprintf("%dk window", n/1000))
	}
	if p := info.Price; p != nil {
		usd := func(f float64) string { return "$" + strconv.FormatFloat(f, 'f', -1, 64) }
		facts = append(facts, usd(p.Input)+" in, "+usd(p.Output)+" out per million tokens")
	}
	return strings.Join(facts, " · ")
}

// mark marks the current model in a list.
func mark(m, current string) string {
	if m == current {
		return "* "
	}
	return "  "
}

// switchModel switches to spec, saying what the conversation keeps.
func switchModel(ctx context.Context, env *Env, spec string) int {
	before, _, _ := env.Models.Current(ctx)
	provider, name, err := env.Models.Switch(ctx, spec)
	if err != nil {
		return env.failModel(err)
	}
	text := fmt.Sprintf("Model: %s (%s), from the next prompt; the conversation goes on.", name, provider)
	v := map[string]any{"provider": provider, "model": name}
	if maker := foreignThinking(env.Conversation.Messages, provider); provider != before && maker != "" {
		text += " The conversation's earlier thinking was made for " + maker + " and is left out of what " + provider + " is sent."
		v["thinking_dropped"] = true
	}
	env.Printer().Value(text, v)
	return ExitOK
}

// foreignThinking names who made the thinking of msgs that provider
// cannot be sent: Claude's signed thinking goes to Anthropic alone, and
// Anthropic takes no other server's reasoning. "" when there is none, as
// when the conversation goes back to the provider that made it.
func foreignThinking(msgs []llm.Message, provider string) string {
	toAnthropic := provider == "anthropic"
	foreign := slices.ContainsFunc(msgs, func(m llm.Message) bool {
		return slices.ContainsFunc(m.Reasoning, func(r llm.Reasoning) bool {
			return (r.Provider == llm.ReasoningAnthropic) != toAnthropic
		})
	})
	switch {
	case !foreign:
		return ""
	case toAnthropic:
		return "another provider"
	}
	return "anthropic"
}
