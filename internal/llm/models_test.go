package llm

import (
	"math"
	"testing"
)

func TestLookupModel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		window int
		known  bool
	}{
		{"gpt-5-mini", 400_000, true},
		{"GPT-5-Mini", 400_000, true},
		{"gpt-5-mini-2025-08-07", 400_000, true},
		{"openai/gpt-5-mini", 400_000, true},
		{"claude-sonnet-4-5-20250929", 200_000, true},
		{"claude-sonnet-4-5-latest", 200_000, true},
		{"claude-sonnet-4-7", 0, false}, // a sibling forge does not know is not priced as another
		{"gpt-5-pro", 0, false},
		{"llama3:8b", 0, false},
		{"", 0, false},
	} {
		info, ok := LookupModel(tc.name)
		if ok != tc.known || info.ContextWindow != tc.window {
			t.Errorf("LookupModel(%q) = %d, %v; want %d, %v", tc.name, info.ContextWindow, ok, tc.window, tc.known)
		}
		if ok && info.Price == nil {
			t.Errorf("LookupModel(%q) has no price", tc.name)
		}
	}
}

func TestPriceCost(t *testing.T) {
	sonnet := Price{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}
	for _, tc := range []struct {
		name  string
		price Price
		usage Usage
		want  float64
	}{
		{"plain", sonnet, Usage{InputTokens: 1_000_000, OutputTokens: 100_000}, 3 + 1.5},
		{"cached input at its own rate", sonnet, Usage{InputTokens: 1_000_000, CacheReadTokens: 800_000}, 0.2*3 + 0.8*0.30},
		{"cache writes", sonnet, Usage{InputTokens: 100_000, CacheWriteTokens: 100_000}, 0.375},
		{"no cache rate: input's", Price{Input: 1, Output: 2}, Usage{InputTokens: 1000, CacheReadTokens: 1000, OutputTokens: 500}, 0.001 + 0.001},
		{"nothing", sonnet, Usage{}, 0},
		{"more cached than input (a provider's rounding)", sonnet, Usage{InputTokens: 10, CacheReadTokens: 20}, 20 * 0.30 / 1e6},
	} {
		if got := tc.price.Cost(tc.usage); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: Cost = %v, want %v", tc.name, got, tc.want)
		}
	}
}
