package app

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeClaudeSetup writes a large Claude Code setup under dir/.claude, as
// the custom package's benchmark does: agents with pages of examples,
// commands, and skills.
func writeClaudeSetup(tb testing.TB, dir string, agents, commands, skills int) {
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

// BenchmarkStartClaudeSetup is forge tools, start-up and all, in a project
// with 150 agents, 100 commands and 25 skills of Claude Code's, against an
// empty one.
func BenchmarkStartClaudeSetup(b *testing.B) {
	for _, n := range []struct {
		name                     string
		agents, commands, skills int
	}{{"none", 0, 0, 0}, {"150-agents-100-commands-25-skills", 150, 100, 25}} {
		b.Run(n.name, func(b *testing.B) {
			home, dir := b.TempDir(), b.TempDir()
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				b.Fatal(err)
			}
			writeClaudeSetup(b, dir, n.agents, n.commands, n.skills)
			env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": home, "XDG_STATE_HOME": home}
			opts := Options{
				Clock:     func() time.Time { return time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC) },
				LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
				Getwd:     func() (string, error) { return dir, nil },
			}
			for b.Loop() {
				if code := Main(context.Background(), []string{"tools"}, strings.NewReader(""), io.Discard, io.Discard, opts); code != 0 {
					b.Fatalf("status %d", code)
				}
			}
		})
	}
}
