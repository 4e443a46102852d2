package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/forgehq/forge/internal/config"
	"github.com/forgehq/forge/internal/llm"
)

// appModels is the commands' view of the session's model: /model lists
// and switches it.
type appModels struct{ a *App }

// Current is the provider and model the next prompt goes to; both "" when
// none is chosen yet and none is configured.
func (m appModels) Current(ctx context.Context) (provider, name string, err error) {
	a := m.a
	if a.model.Model == nil {
		c, err := a.chooseModel(ctx)
		if err != nil {
			return "", "", err
		}
		a.model = c
	}
	return a.model.Provider, a.model.Name, nil
}

// Models are the models forge knows of the current provider, and those
// its server lists (nil, with the error, when it could not say).
func (m appModels) Models(ctx context.Context) (known, served []string, err error) {
	provider, _, err := m.Current(ctx)
	if err != nil {
		return nil, nil, err
	}
	known = llm.KnownModels(provider)
	if l, ok := m.a.model.Model.(llm.Lister); ok {
		served, err = l.ListModels(ctx)
	}
	return known, served, err
}

// Switch makes spec the model of the next prompts: a model of the current
// provider, or provider/model for another provider (its own endpoint and
// key). A name with a slash whose first part is no provider of forge's
// ("meta-llama/llama-3.3-70b" on OpenRouter) is a model of the current
// provider, and so is provider/model of the current provider behind a
// base URL of its own (a router that names models so).
func (m appModels) Switch(ctx context.Context, spec string) (provider, name string, err error) {
	a := m.a
	spec = strings.TrimSpace(spec)
	if spec == "" || strings.ContainsFunc(spec, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return "", "", errors.New("give a model name without spaces, or provider/name")
	}
	cur, _, err := m.Current(ctx)
	if err != nil && !errors.Is(err, errNoModel) {
		return "", "", err
	}
	c := modelChoice{Provider: cur, Name: spec, BaseURL: a.model.BaseURL}
	if p, rest, ok := strings.Cut(spec, "/"); ok && slices.Contains(config.Providers(), p) {
		switch {
		case rest == "":
			return "", "", fmt.Errorf("%s/: give the model's name after the slash", p)
		case p != cur:
			c = modelChoice{Provider: p, Name: rest}
			if p == a.cfg.Provider {
				c.BaseURL = a.cfg.BaseURL
			}
		case a.model.BaseURL == "":
			c.Name = rest
		}
	}
	if c.Provider == "" {
		return "", "", errNoModel
	}
	if c.Provider == a.model.Provider && c.BaseURL == a.model.BaseURL && a.model.Model != nil {
		// The same client serves any of its server's models.
		a.model.Name, a.model.Switched = c.Name, true
		return c.Provider, c.Name, nil
	}
	next, err := a.connect(ctx, c)
	if err != nil {
		return "", "", err
	}
	next.Switched = true
	a.model = next
	return next.Provider, next.Name, nil
}
