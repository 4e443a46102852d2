package app

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/custom/customtest"
)

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
			customtest.WriteClaudeSetup(b, dir, n.agents, n.commands, n.skills)
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
