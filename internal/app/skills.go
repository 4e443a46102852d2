package app

import (
	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/custom"
	"github.com/forgehq/forge/internal/permission"
)

// loadSkills takes the skills load reads (NAME/SKILL.md under
// ~/.claude/skills, forge's user skills directory, the project's
// .claude/skills and .forge/skills), which the Skill tool offers and
// /skills lists.
func (a *App) loadSkills(load func() ([]custom.Skill, custom.Report)) {
	defs, rep := load()
	a.reportCustom("skill", rep)
	a.skills = nil
	for _, d := range defs {
		a.noteModel(d.Source.Path, d.Model)
		if d.AllowedTools != nil {
			if _, err := a.startScope(d.AllowedTools); err != nil {
				a.warn(d.Source.Path + ": allowed-tools: " + oneLine(err) + "; skipped")
				continue
			}
		}
		a.skills = append(a.skills, d)
	}
}

// skillDefs are the skills the model may load, for the Skill tool.
func (a *App) skillDefs() []builtin.SkillDef {
	var out []builtin.SkillDef
	for _, s := range a.skills {
		if s.NoModel {
			continue
		}
		out = append(out, builtin.SkillDef{Name: s.Name, Summary: custom.Summary(s.Description, maxSummary), Body: s.Body, Dir: s.Dir})
	}
	return out
}

// skillScopes are the scopes of the skills with allowed-tools, by name,
// for an agent working in wd.
func (a *App) skillScopes(wd string) map[string]*permission.Scope {
	var out map[string]*permission.Scope
	for _, s := range a.skills {
		if s.AllowedTools == nil {
			continue
		}
		sc, err := permission.NewScope(s.AllowedTools, wd, a.getenv("HOME"))
		if err != nil {
			continue // warned about at start
		}
		if out == nil {
			out = map[string]*permission.Scope{}
		}
		out[s.Name] = sc
	}
	return out
}

// skillViews are the skills loaded, for /skills.
func (a *App) skillViews() []custom.Skill { return a.skills }
