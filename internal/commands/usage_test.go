package commands

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
)

// /usage counts the requests whose tokens and cost it sums: a prompt's
// subagents' and a /compact summary's too, not only the agent's turns.
func TestSpendingCountsEveryRequest(t *testing.T) {
	var s Spending
	s.add(agent.Done{Turns: 2, Requests: 5, SubagentRequests: 3, Usage: llm.Usage{InputTokens: 500, OutputTokens: 50}, Cost: 0.5, Priced: true})
	s.addRequest(llm.Usage{InputTokens: 100, OutputTokens: 10}, 0.1)
	s.add(agent.Done{Turns: 1, Requests: 1, Usage: llm.Usage{InputTokens: 100, OutputTokens: 10}, Cost: 0.1, Priced: true})
	if s.Prompts != 2 || s.Requests != 7 || s.Usage.InputTokens != 700 || s.Cost < 0.69 || s.Cost > 0.71 {
		t.Errorf("spending %+v", s)
	}
	if got := spendingText(s); !strings.HasPrefix(got, "This session: 2 prompts, 7 model requests\n") {
		t.Errorf("/usage:\n%s", got)
	}
}
