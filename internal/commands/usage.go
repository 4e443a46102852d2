package commands

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/render"
)

// Spending is what a session's prompts have used so far.
type Spending struct {
	Prompts int
	// Requests counts the model requests whose tokens and cost Usage and
	// Cost sum: subagents' and summaries' too.
	Requests int
	Usage    llm.Usage
	// Cost counts in US dollars only while Priced.
	Cost   float64
	Priced bool
	// Last is the latest prompt's run.
	Last *agent.Done
}

// addRequest counts a model request outside a prompt (a /compact summary).
func (s *Spending) addRequest(u llm.Usage, cost float64) {
	s.Requests++
	s.spend(u, cost)
}

// spend adds tokens and their cost.
func (s *Spending) spend(u llm.Usage, cost float64) {
	s.Usage = s.Usage.Add(u)
	s.Cost += cost
}

// add counts one prompt's run. A session is priced while every prompt's
// model was: a total that left some out would understate it.
func (s *Spending) add(d agent.Done) {
	s.Priced = d.Priced && (s.Priced || s.Prompts == 0)
	s.Prompts++
	s.Requests += d.Requests
	s.spend(d.Usage, d.Cost)
	s.Last = &d
}

func usageCommand() Command {
	return Command{
		Name: "usage", Usage: "/usage", Summary: "Show the tokens and cost of this session's prompts",
		Where: ShellOnly, Example: "/usage", Args: AtMost(0),
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if len(inv.Args) > 0 {
				return env.Usage(usageCommand(), inv, "/usage takes no arguments")
			}
			env.Printer().Value(spendingText(env.Spending), spendingJSON(env.Spending))
			return ExitOK
		},
	}
}

func spendingText(s Spending) string {
	if s.Prompts == 0 {
		return "No prompts yet in this session."
	}
	text := fmt.Sprintf("This session: %s, %s\n  %s", plural(s.Prompts, "prompt"), plural(s.Requests, "model request"),
		render.UsageLine(s.Usage, s.Cost, s.Priced))
	if s.Last != nil {
		text += "\nLast prompt: " + render.UsageLine(s.Last.Usage, s.Last.Cost, s.Last.Priced)
	}
	if !s.Priced {
		text += "\n(cost unknown: forge does not know this model's price)"
	}
	return text
}

type spendingView struct {
	Prompts  int       `json:"prompts"`
	Requests int       `json:"requests"`
	Usage    llm.Usage `json:"usage"`
	CostUSD  *float64  `json:"cost_usd"`
}

func spendingJSON(s Spending) map[string]any {
	v := spendingView{Prompts: s.Prompts, Requests: s.Requests, Usage: s.Usage}
	if s.Priced && s.Prompts > 0 {
		v.CostUSD = &s.Cost
	}
	return map[string]any{"usage": v}
}
