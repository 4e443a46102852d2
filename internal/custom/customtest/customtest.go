// Package customtest writes the Claude Code setups that the benchmarks of
// forge's start-up read.
package customtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// WriteClaudeSetup writes a large Claude Code setup under dir/.claude:
// agents whose unquoted descriptions hold pages of <example> blocks (which
// is not valid YAML, as in many published collections), commands, and
// skills with a file beside each.
func WriteClaudeSetup(tb testing.TB, dir string, agents, commands, skills int) {
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
