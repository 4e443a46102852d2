package agent

import (
	"slices"
	"strings"
)

// SkillToolName is the tool through which the model loads a skill; a
// skill with allowed-tools narrows the rest of the prompt's tools once it
// is loaded (Config.SkillScopes).
const SkillToolName = "Skill"

// narrowForSkills narrows the run's tools after the skills among ps that
// loaded and have a scope: the rest of the prompt works within it, as a
// custom command's does. The run gets an agent of its own for that; the
// Agent itself is left as it was for the next prompt.
func (r *run) narrowForSkills(ps []*pending) {
	var names []string
	for _, p := range ps {
		if p.call.Name != SkillToolName || p.res == nil || p.res.Status != StatusSuccess || p.call.Args == nil {
			continue
		}
		name := p.call.Args.String("skill")
		s := r.a.cfg.SkillScopes[name]
		if s == nil || slices.Contains(names, name) {
			continue
		}
		cfg := r.a.cfg
		cfg.Scope = cfg.Scope.Narrow(s)
		r.a = &Agent{cfg: cfg, own: r.a.own}
		names = append(names, name)
	}
	if len(names) > 0 {
		r.specs = r.a.toolSpecs()
		r.notice("skill " + strings.Join(names, ", ") + ": the rest of this prompt may use only the tools its allowed-tools name")
	}
}
