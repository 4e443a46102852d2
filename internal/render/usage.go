package render

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// UsageLine says in one line what requests used: tokens in (the cached
// part) and out, and the cost when the price is known. "" for no usage.
func UsageLine(u llm.Usage, cost float64, priced bool) string {
	return strings.Join(usageFigures(u, cost, priced), " · ")
}

// usageFigures are UsageLine's figures, one each; none for no usage.
func usageFigures(u llm.Usage, cost float64, priced bool) []string {
	if u == (llm.Usage{}) {
		return nil
	}
	in := tokenCount(u.InputTokens) + " in"
	if u.CacheReadTokens > 0 {
		in += " (" + tokenCount(u.CacheReadTokens) + " cached)"
	}
	out := []string{in, tokenCount(u.OutputTokens) + " out"}
	if priced {
		out = append(out, dollars(cost))
	}
	return out
}

// tokenCount is n tokens, shortened past ten thousand (12.3k, 1.2M).
func tokenCount(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}

// dollars shows a cost with the precision small costs need: a prompt
// often costs a fraction of a cent.
func dollars(c float64) string {
	switch {
	case c == 0:
		return "$0"
	case c < 0.01:
		return fmt.Sprintf("$%.4f", c)
	case c < 100:
		return fmt.Sprintf("$%.2f", c)
	}
	return fmt.Sprintf("$%.0f", c)
}
