package llm

import (
	"strings"
)

// Price is what a model charges, in US dollars per million tokens.
type Price struct {
	Input float64 `json:"input"`
	// CachedInput is the rate of input read from the provider's prompt
	// cache; 0 means the provider does not discount it (Input applies).
	CachedInput float64 `json:"cached_input,omitempty"`
	// CacheWrite is the rate of input written to the cache (Anthropic
	// charges more for it); 0 means Input.
	CacheWrite float64 `json:"cache_write,omitempty"`
	Output     float64 `json:"output"`
}

// Cost is what u cost at p, in US dollars.
func (p Price) Cost(u Usage) float64 {
	cached, written := p.CachedInput, p.CacheWrite
	if cached == 0 {
		cached = p.Input
	}
	if written == 0 {
		written = p.Input
	}
	plain := max(u.InputTokens-u.CacheReadTokens-u.CacheWriteTokens, 0)
	return (float64(plain)*p.Input + float64(u.CacheReadTokens)*cached +
		float64(u.CacheWriteTokens)*written + float64(u.OutputTokens)*p.Output) / 1e6
}

// ModelInfo is what forge knows of a model: how much it can read at once
// and what it costs.
type ModelInfo struct {
	// ContextWindow is the most tokens one request may hold, the answer's
	// included; 0 means unknown.
	ContextWindow int
	// Price is nil when the model's price is unknown (a local model, a
	// new one): forge then shows tokens only.
	Price *Price
	// NoReasoning marks a model known not to reason: an effort is not
	// sent to it.
	NoReasoning bool
	// NoImages marks a model known not to take images: it is told of
	// them in words instead.
	NoImages bool
}

// knownModels are the common models' windows and list prices (USD per
// million tokens). A dated or routed name ("claude-sonnet-4-5-20250929",
// "openai/gpt-5-mini") finds its family by LookupModel.
var knownModels = map[string]ModelInfo{
	"gpt-5":             {ContextWindow: 400_000, Price: &Price{Input: 1.25, CachedInput: 0.125, Output: 10}},
	"gpt-5-mini":        {ContextWindow: 400_000, Price: &Price{Input: 0.25, CachedInput: 0.025, Output: 2}},
	"gpt-5-nano":        {ContextWindow: 400_000, Price: &Price{Input: 0.05, CachedInput: 0.005, Output: 0.40}},
	"gpt-4.1":           {ContextWindow: 1_047_576, Price: &Price{Input: 2, CachedInput: 0.50, Output: 8}, NoReasoning: true},
	"gpt-4.1-mini":      {ContextWindow: 1_047_576, Price: &Price{Input: 0.40, CachedInput: 0.10, Output: 1.60}, NoReasoning: true},
	"gpt-4.1-nano":      {ContextWindow: 1_047_576, Price: &Price{Input: 0.10, CachedInput: 0.025, Output: 0.40}, NoReasoning: true},
	"gpt-4o":            {ContextWindow: 128_000, Price: &Price{Input: 2.50, CachedInput: 1.25, Output: 10}, NoReasoning: true},
	"gpt-4o-mini":       {ContextWindow: 128_000, Price: &Price{Input: 0.15, CachedInput: 0.075, Output: 0.60}, NoReasoning: true},
	"o3":                {ContextWindow: 200_000, Price: &Price{Input: 2, CachedInput: 0.50, Output: 8}},
	"o4-mini":           {ContextWindow: 200_000, Price: &Price{Input: 1.10, CachedInput: 0.275, Output: 4.40}},
	"claude-opus-4-5":   {ContextWindow: 200_000, Price: &Price{Input: 5, CachedInput: 0.50, CacheWrite: 6.25, Output: 25}},
	"claude-opus-4-1":   {ContextWindow: 200_000, Price: &Price{Input: 15, CachedInput: 1.50, CacheWrite: 18.75, Output: 75}},
	"claude-opus-4":     {ContextWindow: 200_000, Price: &Price{Input: 15, CachedInput: 1.50, CacheWrite: 18.75, Output: 75}},
	"claude-sonnet-4-5": {ContextWindow: 200_000, Price: &Price{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}},
	"claude-sonnet-4":   {ContextWindow: 200_000, Price: &Price{Input: 3, CachedInput: 0.30, CacheWrite: 3.75, Output: 15}},
	"claude-haiku-4-5":  {ContextWindow: 200_000, Price: &Price{Input: 1, CachedInput: 0.10, CacheWrite: 1.25, Output: 5}},
	"claude-3-5-haiku":  {ContextWindow: 200_000, Price: &Price{Input: 0.80, CachedInput: 0.08, CacheWrite: 1, Output: 4}, NoReasoning: true},
}

// LookupModel returns what forge knows of the model name: the entry of
// its own name, else of the longest known name it extends with a
// "-suffix" (a date, "-latest"), after dropping a router's "vendor/"
// prefix. ok is false for a model forge does not know.
func LookupModel(name string) (ModelInfo, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if info, ok := knownModels[name]; ok {
		return info, true
	}
	best := ""
	for known := range knownModels {
		if strings.HasPrefix(name, known+"-") && len(known) > len(best) && !isFamilyVariant(name[len(known)+1:]) {
			best = known
		}
	}
	if best == "" {
		return ModelInfo{}, false
	}
	return knownModels[best], true
}

// isFamilyVariant says whether the suffix after a known name names another
// model of the family ("mini" after "gpt-5", "7" after "claude-sonnet-4")
// rather than a release of the same one ("20250929", "2025-08-07",
// "latest"): an unknown model must not be priced as its sibling.
func isFamilyVariant(suffix string) bool {
	first, _, _ := strings.Cut(suffix, "-")
	if first == "latest" {
		return false
	}
	if len(first) < 4 {
		return true
	}
	for _, r := range first {
		if r < '0' || r > '9' {
			return true
		}
	}
	return false
}
