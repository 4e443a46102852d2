package agent

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

// A run stops with ReasonBudget at the first answer that spends the
// budget; that answer's calls are answered without running, so the
// conversation stays valid.
func TestBudget(t *testing.T) {
	price := &llm.Price{Input: 1, Output: 10} // $1 and $10 per million tokens
	for _, tc := range []struct {
		name     string
		budget   Budget
		price    *llm.Price
		requests int
		reason   Reason
		why      string
	}{
		// Each request reports 10,000 in and 1,000 out: 11,000 tokens, $0.02.
		{"tokens", Budget{Tokens: 30_000}, nil, 3, ReasonBudget, "used 33000 tokens, its budget is 30000"},
		{"cost", Budget{CostUSD: 0.05}, price, 3, ReasonBudget, "cost $0.0600, its budget is $0.0500"},
		{"cost without a price is not counted", Budget{CostUSD: 0.05}, nil, 5, ReasonMaxTurns, ""},
		{"no budget", Budget{}, price, 5, ReasonMaxTurns, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, wire := range wires {
				h := newHarness(t, wire, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{{
					ToolCalls: []llmtest.ToolCall{scriptCall("Glob", `{"pattern": "*"}`)},
					Usage:     &llmtest.Usage{Input: 10_000, Output: 1_000},
				}}})
				h.cfg.MaxTurns, h.cfg.LoopDetection = 5, false
				h.cfg.Budget, h.cfg.Price = tc.budget, tc.price
				d := h.run(context.Background(), "spend")
				if d.Reason != tc.reason || len(h.srv.Requests()) != tc.requests {
					t.Fatalf("%s: done %+v after %d requests, want %s after %d", wire, d, len(h.srv.Requests()), tc.reason, tc.requests)
				}
				if tc.why != "" && (d.Err == nil || !strings.Contains(d.Err.Error(), tc.why)) {
					t.Errorf("%s: why = %v, want %q", wire, d.Err, tc.why)
				}
				if d.Priced != (tc.price != nil) {
					t.Errorf("%s: priced %v", wire, d.Priced)
				}
				if want := float64(tc.requests) * 0.02; tc.price != nil && math.Abs(d.Cost-want) > 1e-9 {
					t.Errorf("%s: cost %v, want %v", wire, d.Cost, want)
				}
				if tc.reason == ReasonBudget {
					last := h.results()[len(h.results())-1]
					if last.Status != StatusCancelled || !strings.HasPrefix(last.Output, "Not run: ") {
						t.Errorf("%s: the last call was answered %+v", wire, last)
					}
					if got := h.countEvents(EventToolResult); got != tc.requests {
						t.Errorf("%s: %d results for %d calls", wire, got, tc.requests)
					}
				}
				h.assertValid()
			}
		})
	}
}

// A budget reached by the final answer does not turn a finished run into
// a stopped one.
func TestBudgetReachedByTheAnswer(t *testing.T) {
	h := newHarness(t, llmtest.OpenAI, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "done", Usage: &llmtest.Usage{Input: 50_000, Output: 100}},
	}})
	h.cfg.Budget = Budget{Tokens: 1000}
	if d := h.run(context.Background(), "hi"); d.Reason != ReasonStop || d.Text != "done" {
		t.Errorf("done %+v", d)
	}
}
