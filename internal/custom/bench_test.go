package custom

import (
	"path/filepath"
	"testing"

	"github.com/forgehq/forge/internal/custom/customtest"
)

// BenchmarkLoadClaudeSetup is what forge's start-up spends on a project
// with 150 agents, 100 commands and 25 skills, against an empty one.
func BenchmarkLoadClaudeSetup(b *testing.B) {
	for _, n := range []struct {
		name                     string
		agents, commands, skills int
	}{{"none", 0, 0, 0}, {"150-agents-100-commands-25-skills", 150, 100, 25}} {
		b.Run(n.name, func(b *testing.B) {
			dir := b.TempDir()
			customtest.WriteClaudeSetup(b, dir, n.agents, n.commands, n.skills)
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
