package custom

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claudeSetup writes a large Claude Code setup under dir/.claude: agents
// with pages of examples, commands, and skills.
func claudeSetup(tb testing.TB, dir string, agents, commands, skills int) {
	tb.Helper()
	write := func(rel, content string) {
		p := filepath.Join(dir, ".claude", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	example := strings.Repeat("<example>\nContext: the user asks.\nuser: \"do it\"\nassistant: \"I'll use the agent\"\n</example>\n", 3)
	for i := range agents {
		write(fmt.Sprintf("agents/a%03d.md", i), fmt.Sprintf("---\nname: a%03d\ndescription: Use this agent for task %d. Examples:\n%s"+
			"tools: Read, LS, TodoWrite, Bash\nmodel: sonnet\ncolor: blue\n---\nYou are agent %d.\n%s", i, i, example, i, strings.Repeat("Do the work well.\n", 100)))
	}
	for i := range commands {
		write(fmt.Sprintf("commands/c%03d.md", i), fmt.Sprintf("---\ndescription: Command %d\nallowed-tools: Bash(git status:*), Read\n---\nDo $ARGUMENTS.\n", i))
	}
	for i := range skills {
		write(fmt.Sprintf("skills/s%03d/SKILL.md", i), fmt.Sprintf("---\nname: s%03d\ndescription: Skill %d\n---\n%s", i, i, strings.Repeat("Step.\n", 200)))
		write(fmt.Sprintf("skills/s%03d/reference.md", i), "ref")
	}
}

// BenchmarkLoadClaudeSetup is what forge's start-up spends on a project
// with 150 agents, 100 commands and 25 skills, against an empty one.
func BenchmarkLoadClaudeSetup(b *testing.B) {
	for _, n := range []struct {
		name                     string
		agents, commands, skills int
	}{{"none", 0, 0, 0}, {"150-agents-100-commands-25-skills", 150, 100, 25}} {
		b.Run(n.name, func(b *testing.B) {
			dir := b.TempDir()
			claudeSetup(b, dir, n.agents, n.commands, n.skills)
			root := filepath.Join(dir, ".claude")
			for b.Loop() {
				_, r1 := LoadAgents([]Dir{{Path: filepath.Join(root, "agents"), Scope: ScopeProject}})
				_, r2 := LoadCommands([]Dir{{Path: filepath.Join(root, "commands"), Scope: ScopeProject}})
				_, r3 := LoadSkills([]Dir{{Path: filepath.Join(root, "skills"), Scope: ScopeProject}})
				if len(r1.Warnings)+len(r2.Warnings)+len(r3.Warnings) > 0 {
					b.Fatal(r1.Warnings, r2.Warnings, r3.Warnings)
				}
			}
		})
	}
}
