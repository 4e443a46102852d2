package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/custom"
)

func skillsCommand() Command {
	return Command{
		Name: "skills", Usage: "/skills", Summary: "List the skills the model may load",
		Help:       `Lists the skills: directories holding a SKILL.md (instructions, with a name and a description in its front matter) and often scripts and references beside it, under ~/.claude/skills, $XDG_CONFIG_HOME/forge/skills, and the project's .claude/skills and .forge/skills. The model gets each skill's name and one line of its description with every request, and loads a skill's instructions with the Skill tool when a task calls for it; it reads the skill's other files with Read. A skill's allowed-tools narrows the tools of the rest of the prompt that loads it; disable-model-invocation keeps it from the model.`,
		Example:    "/skills",
		CLIExample: "forge skills -o json",
		Args:       AtMost(0),
		Run:        runSkills,
	}
}

// skillView is one skill as the list shows it in JSON.
type skillView struct {
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	File         string   `json:"file"`
	Scope        string   `json:"scope"`
	AllowedTools []string `json:"allowed_tools,omitempty"`
	Model        bool     `json:"offered_to_model"`
}

func runSkills(_ context.Context, env *Env, inv Invocation) int {
	if len(inv.Args) > 0 {
		return env.Usage(skillsCommand(), inv, "/skills takes no arguments")
	}
	var skills []custom.Skill
	if env.Skills != nil {
		skills = env.Skills()
	}
	views := []skillView{}
	var b strings.Builder
	if len(skills) == 0 {
		b.WriteString("No skills (a skill is a directory with a SKILL.md under .claude/skills or .forge/skills).\n")
	}
	for _, s := range skills {
		views = append(views, skillView{Name: s.Name, Description: s.Description, File: s.Source.Path, Scope: string(s.Source.Scope),
			AllowedTools: s.AllowedTools, Model: !s.NoModel})
		fmt.Fprintf(&b, "%s: %s\n  %s %s", s.Name, custom.Summary(s.Description, 100), s.Source.Scope, displayPath(s.Source.Path, env.Exec.WorkingDir))
		if s.AllowedTools != nil {
			b.WriteString("; allowed-tools: " + strings.Join(s.AllowedTools, ", "))
		}
		if s.NoModel {
			b.WriteString("; not offered to the model (disable-model-invocation)")
		}
		b.WriteString("\n")
	}
	env.Printer().Value(strings.TrimSuffix(b.String(), "\n"), map[string]any{"skills": views})
	return ExitOK
}
