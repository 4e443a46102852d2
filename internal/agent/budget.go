package agent

import (
	"fmt"

	"github.com/forgehq/forge/internal/llm"
)

// Budget bounds what one prompt's run may spend; a zero field is no limit.
// The run stops with ReasonBudget at the first answer that reaches it, the
// answer's calls left unrun, so one prompt overshoots by one request at
// most.
type Budget struct {
	// CostUSD needs the model's price; without one only Tokens applies.
	CostUSD float64
	// Tokens counts input (cached included) and output tokens.
	Tokens int64
}

// spent says which limit of the budget the run has reached, "" for none.
func (r *run) spent() string {
	b := r.a.cfg.Budget
	if b.Tokens > 0 {
		if used := r.done.Usage.InputTokens + r.done.Usage.OutputTokens; used >= b.Tokens {
			return fmt.Sprintf("the prompt used %d tokens, its budget is %d (--max-tokens)", used, b.Tokens)
		}
	}
	if b.CostUSD > 0 && r.done.Priced && r.done.Cost >= b.CostUSD {
		return fmt.Sprintf("the prompt cost $%.4f, its budget is $%.4f (--max-cost)", r.done.Cost, b.CostUSD)
	}
	return ""
}

// addUsage counts one request's usage, and its cost when the price is
// known.
func (r *run) addUsage(u llm.Usage) {
	r.done.Usage = r.done.Usage.Add(u)
	cost := 0.0
	if p := r.a.cfg.Price; p != nil {
		cost = p.Cost(u)
		r.done.Cost += cost
	}
	r.emit(Event{Type: EventUsage, Usage: u, Cost: cost})
}

// stopForBudget ends the run on a spent budget: the calls of the answer
// that spent it are answered without running, so the conversation stays
// valid and a later prompt can go on from it.
func (r *run) stopForBudget(why string, calls []llm.ToolCall) {
	for _, c := range calls {
		p := r.prepare(c)
		r.emit(Event{Type: EventToolCall, Call: &p.call})
		p.res = refused(StatusCancelled, "Not run: "+why+".")
		r.report(p)
		r.conv.append(toolMessage(p.llm, p.res.Output, true))
	}
	r.done.Reason, r.done.Err = ReasonBudget, fmt.Errorf("%s", why)
}
