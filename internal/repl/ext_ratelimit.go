package repl

import (
	"errors"
	"maps"
	"slices"

	"github.com/forgehq/forge/internal/ratelimit"
)

// rateLimits builds the limiters of every tools.<Name>.rate in the
// configuration (seed 004). Bad entries are warned about and skipped.
func (a *App) rateLimits() *ratelimit.Set {
	limits := map[string]ratelimit.Limit{}
	for _, name := range slices.Sorted(maps.Keys(a.cfg.Tools)) {
		if rl, ok := a.cfg.Rate(name); ok {
			limits[name] = ratelimit.Limit{PerSecond: rl.PerSecond, Burst: rl.Burst}
		}
	}
	set, err := ratelimit.NewSet(limits)
	if err != nil {
		a.log.Warn().Str("component", "ratelimit").Msg(err.Error())
	}
	return set
}

// applyRateLimits wraps the registered tools that have a limit. Plugins
// and MCP tools registered later are wrapped as they are registered; a
// limit that names no tool at all is worth a warning (a misspelt name).
func (a *App) applyRateLimits(set *ratelimit.Set) {
	if err := set.Apply(a.reg); err != nil {
		if errors.Is(err, ratelimit.ErrNotRegistered) {
			a.log.Warn().Str("component", "ratelimit").Msg(err.Error() + " (MCP tools of servers not started yet get their limit when they connect)")
			return
		}
		a.log.Warn().Str("component", "ratelimit").Msg(err.Error())
	}
}
