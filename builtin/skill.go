package builtin

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// SkillToolName is the tool through which the model loads a skill.
const SkillToolName = "Skill"

// maxSkillList bounds the list of skills in the Skill tool's description,
// sent with every request: past it, skills are named without their
// descriptions, still loadable by name.
const maxSkillList = 8 << 10

// SkillDef is one skill the Skill tool offers: only its name and one line
// of description are sent with every request; its body when the model
// loads it.
type SkillDef struct {
	Name    string
	Summary string // one short line
	Body    string
	// Dir is where the skill's other files are, which the model reads with
	// Read when the body points to them.
	Dir string
}

// skillTool loads a skill's instructions into the conversation.
type skillTool struct {
	described
	skills []SkillDef
}

// NewSkillTool is the Skill tool offering skills (sorted by name).
func NewSkillTool(skills []SkillDef) tools.Tool {
	return skillTool{described{skillDescriptor(skills)}, skills}
}

// skillDescriptor lists the skills, one line each, in the description.
func skillDescriptor(skills []SkillDef) tools.Descriptor {
	var b strings.Builder
	b.WriteString("Load a skill: instructions for one kind of task, with scripts and references beside them. " +
		"When a task matches a skill's description, load it first and follow it; its result names the directory " +
		"of the skill's other files, which you read with Read when the instructions point to them. The skills:")
	names := make([]any, 0, len(skills))
	choices := make([]tools.Choice, 0, len(skills))
	for _, s := range skills {
		names = append(names, s.Name)
		choices = append(choices, tools.Choice{Name: s.Name, Summary: s.Summary})
	}
	tools.AppendChoices(&b, choices, maxSkillList)
	return tools.Descriptor{
		Name: SkillToolName, Description: b.String(), Category: tools.CategoryOther, ReadOnly: true,
		Parameters: []tools.Parameter{
			{Name: "skill", Type: tools.TypeString, Description: "The skill's name, from the list", Required: true, Enum: names},
			{Name: "args", Type: tools.TypeString, Description: "What the skill is for this time, if it takes anything"},
		},
	}
}

// IsLoopBreaking is false: a skill's instructions are a step to the task.
func (skillTool) IsLoopBreaking() bool { return false }

// Execute gives the skill's instructions, with where its files are.
func (t skillTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	if err := ctx.Err(); err != nil {
		return tools.Fail("Cancelled: " + err.Error())
	}
	name := args.String("skill")
	i := slices.IndexFunc(t.skills, func(s SkillDef) bool { return s.Name == name })
	if i < 0 { // the executor checks the name against the enum first
		return tools.Fail(fmt.Sprintf("no skill is named %q", name))
	}
	s := t.skills[i]
	out := fmt.Sprintf("Skill %s. Its directory is %s: read the files these instructions name from there.\n", s.Name, s.Dir)
	if a := strings.TrimSpace(args.String("args")); a != "" {
		out += "Asked for: " + a + "\n"
	}
	return tools.OK(out+"\n"+s.Body, "skill", s.Name, "dir", s.Dir)
}
