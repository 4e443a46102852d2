package llm

import (
	"context"
	"slices"
	"strings"
)

// Lister is a Model whose server can say which models it serves.
type Lister interface {
	// ListModels returns the names of the server's models.
	ListModels(ctx context.Context) ([]string, error)
}

// KnownModels are the names of the models forge knows (their window and
// price) of a provider, sorted: OpenAI's GPT and o-series, Anthropic's
// Claude; none for others.
func KnownModels(provider string) []string {
	var out []string
	for name := range knownModels {
		claude := strings.HasPrefix(name, "claude-")
		if (provider == "anthropic" && claude) || (provider == "openai" && !claude) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
