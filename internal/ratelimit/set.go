package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"golang.org/x/time/rate"

	"github.com/forgehq/forge/internal/tools"
)

// ErrNotRegistered is wrapped by Set.Apply when a limit names a tool that
// is not registered (yet).
var ErrNotRegistered = errors.New("rate limit for a tool that is not registered")

// Set holds the limits of a process, one limiter per tool name. The limiter
// outlives the tool values: a plugin reloaded or an MCP server reconnected
// keeps the tokens it had spent, so a reload is no way around the limit.
// A Set is not changed after NewSet, so it is safe for concurrent use.
type Set struct {
	limits   map[string]Limit
	limiters map[string]*rate.Limiter
}

// NewSet checks limits (keyed by tool name) and returns their Set. The error
// names every bad entry as tools.<Name>.rate.
func NewSet(limits map[string]Limit) (*Set, error) {
	s := &Set{limits: make(map[string]Limit, len(limits)), limiters: make(map[string]*rate.Limiter, len(limits))}
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(limits)) {
		l := limits[name]
		if err := l.Check(); err != nil {
			errs = append(errs, fmt.Errorf("tools.%s.rate: %w", name, err))
			continue
		}
		s.limits[name] = l
		s.limiters[name] = l.NewLimiter()
	}
	return s, errors.Join(errs...)
}

// Limit returns the named tool's limit, if it has one.
func (s *Set) Limit(name string) (Limit, bool) {
	if s == nil {
		return Limit{}, false
	}
	l, ok := s.limits[name]
	return l, ok
}

// Names returns the limited tool names, sorted.
func (s *Set) Names() []string {
	if s == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(s.limits))
}

func (s *Set) limiter(name string) *rate.Limiter {
	if s == nil {
		return nil
	}
	return s.limiters[name]
}

// Wrap returns t limited when the Set has a limit for its name, and t itself
// otherwise. A tool already limited is returned as it is.
func (s *Set) Wrap(t tools.Tool) tools.Tool {
	if _, done := t.(*Tool); done {
		return t
	}
	lim := s.limiter(t.Name())
	if lim == nil {
		return t
	}
	return Wrap(t, lim)
}

// WrapFactory returns a factory that limits what f builds, for tools
// registered with Registry.RegisterLazy.
func (s *Set) WrapFactory(f tools.Factory) tools.Factory {
	return func(ctx context.Context, deps tools.Deps) (tools.Tool, error) {
		t, err := f(ctx, deps)
		if err != nil || t == nil {
			return t, err
		}
		return s.Wrap(t), nil
	}
}

// Apply wraps every registered tool that has a limit and is not limited yet.
// A lazy tool stays lazy: the wrapper delegates to the registered value,
// which builds the tool on first use. Limits for tools that are not
// registered are kept (a plugin or MCP server may bring them later) and
// reported in the error so that a misspelt name does not pass unnoticed.
func (s *Set) Apply(reg *tools.Registry) error {
	var missing []string
	for _, name := range s.Names() {
		t, ok := reg.Get(name)
		if !ok {
			missing = append(missing, name)
			continue
		}
		w := s.Wrap(t)
		if w == t {
			continue
		}
		// Swap the value: the registry has no replace, and a tool absent
		// for a moment at start-up costs nothing.
		reg.Deregister(name)
		if err := reg.Register(w); err != nil {
			return fmt.Errorf("rate limit for %s: %w", name, err)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%w: %s", ErrNotRegistered, strings.Join(missing, ", "))
	}
	return nil
}
