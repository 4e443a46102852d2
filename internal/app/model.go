package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/commands"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/anthropic"
	"github.com/forgehq/forge/internal/llm/openai"
)

// Default models, for a provider chosen without --model.
const (
	defaultOpenAIModel    = "gpt-5-mini"
	defaultAnthropicModel = "claude-sonnet-4-5"
)

// connectHint is the one line, of 80 columns at most, that tells a
// person without a model how to connect one.
const connectHint = "No model: set OPENAI_API_KEY or ANTHROPIC_API_KEY, run Ollama, or use --base-url"

// errNoModel is the error of a prompt with no model to answer it.
var errNoModel error = &commands.NoModelError{Hint: connectHint}

// modelChoice is the model a prompt goes to.
type modelChoice struct {
	Provider string // openai, anthropic, ollama
	Name     string // the model's name
	BaseURL  string // "" for the provider's own
	Model    llm.Model
	// Switched says /model chose it: the configured context_window was
	// the configured model's.
	Switched bool
}

// chooseModel resolves the provider, the model and its key: the provider
// set by flag, environment or config; else the one whose key is present;
// else a local Ollama that answers, with its first model. Nothing found is
// errNoModel.
func (a *App) chooseModel(ctx context.Context) (modelChoice, error) {
	c := modelChoice{Provider: a.cfg.Provider, Name: a.cfg.Model, BaseURL: a.cfg.BaseURL}
	openaiKey, anthropicKey := a.getenv("OPENAI_API_KEY"), a.getenv("ANTHROPIC_API_KEY")
	if c.Provider == "" {
		switch {
		case openaiKey != "":
			c.Provider = "openai"
		case anthropicKey != "":
			c.Provider = "anthropic"
		default:
			name, err := openai.Discover(ctx, c.BaseURL, nil)
			if err != nil {
				return c, errNoModel
			}
			c.Provider = "ollama"
			if c.Name == "" {
				c.Name = name
			}
		}
	}
	return a.connect(ctx, c)
}

// connect builds the client of c: its provider, model and base URL, with
// the provider's key from the environment.
func (a *App) connect(ctx context.Context, c modelChoice) (modelChoice, error) {
	openaiKey, anthropicKey := a.getenv("OPENAI_API_KEY"), a.getenv("ANTHROPIC_API_KEY")
	var err error
	switch c.Provider {
	case "anthropic":
		if c.BaseURL == "" && anthropicKey == "" {
			return c, errors.New("anthropic: ANTHROPIC_API_KEY is not set (or pass --base-url for a proxy that adds it)")
		}
		c.Name = orDefault(c.Name, defaultAnthropicModel)
		c.Model, err = anthropic.New(anthropic.Config{APIKey: anthropicKey, BaseURL: c.BaseURL, Model: c.Name, Logger: a.log,
			MaxAnswerBytes: a.cfg.MaxAnswerSize, StreamIdleTimeout: a.cfg.StreamIdleTimeout, MaxAnswerTime: a.cfg.MaxAnswerTime})
	case "ollama":
		if c.Name == "" {
			if c.Name, err = openai.Discover(ctx, c.BaseURL, nil); err != nil {
				return c, ollamaError(err)
			}
		}
		c.Model, err = openai.New(openai.Config{Provider: "ollama", BaseURL: c.BaseURL, Model: c.Name, API: a.cfg.API, Logger: a.log,
			MaxAnswerBytes: a.cfg.MaxAnswerSize, StreamIdleTimeout: a.cfg.StreamIdleTimeout, MaxAnswerTime: a.cfg.MaxAnswerTime})
	case "openai":
		if c.BaseURL == "" && openaiKey == "" {
			return c, errors.New("openai: OPENAI_API_KEY is not set (or pass --base-url for a local OpenAI-compatible server)")
		}
		c.Name = orDefault(c.Name, defaultOpenAIModel)
		c.Model, err = openai.New(openai.Config{APIKey: openaiKey, BaseURL: c.BaseURL, Model: c.Name, API: a.cfg.API, Logger: a.log,
			MaxAnswerBytes: a.cfg.MaxAnswerSize, StreamIdleTimeout: a.cfg.StreamIdleTimeout, MaxAnswerTime: a.cfg.MaxAnswerTime})
	default:
		return c, fmt.Errorf("unknown provider %q: use openai, anthropic or ollama", c.Provider)
	}
	if err != nil {
		return c, fmt.Errorf("%s: %w", c.Provider, err)
	}
	return c, nil
}

// ollamaError is why no Ollama model could be found: a server that does
// not answer is said to be started, and how; any other failure is named.
func ollamaError(err error) error {
	var e *llm.Error
	if errors.As(err, &e) && e.Kind == llm.KindUnreachable {
		return fmt.Errorf("ollama: no Ollama answers at %s: start it (ollama serve, or the Ollama app) and pull a model "+
			"(ollama pull qwen3), or give --base-url where it runs", e.URL)
	}
	return fmt.Errorf("ollama: no model given and none found: %w (pass --model NAME)", err)
}

// modelConfigured says, without asking the network, whether a prompt has
// a model to go to (a provider set or a key present); false means only a
// local Ollama could answer.
func (a *App) modelConfigured() bool {
	return a.cfg.Provider != "" || a.getenv("OPENAI_API_KEY") != "" || a.getenv("ANTHROPIC_API_KEY") != ""
}

// defaultModel is a provider's model when none is given; Ollama's is the
// first it serves, found on the first prompt.
func defaultModel(provider string) string {
	switch provider {
	case "openai":
		return defaultOpenAIModel
	case "anthropic":
		return defaultAnthropicModel
	}
	return "its first model"
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
