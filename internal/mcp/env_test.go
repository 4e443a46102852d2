//go:build unix

package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// A stdio server does not inherit forge's secrets unless the manager passes
// them on by name; its own configured env is always given to it, secret
// names included.
func TestServerEnvironmentWithoutSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-forge")
	t.Setenv("ANTHROPIC_API_KEY", "anthropic-from-forge")
	t.Setenv("FORGE_TEST_PLAIN", "plain-value")
	cases := []struct {
		name      string
		opts      []Option
		want, not []string
	}{
		{"withheld", nil,
			[]string{"FORGE_TEST_PLAIN=plain-value", "GITHUB_TOKEN=configured", NestedEnv + "=1"}, []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY"}},
		{"passed on by name", []Option{WithPassEnv("OPENAI_API_KEY")},
			[]string{"OPENAI_API_KEY=sk-from-forge", "GITHUB_TOKEN=configured", NestedEnv + "=1"}, []string{"ANTHROPIC_API_KEY"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dump := filepath.Join(t.TempDir(), "env")
			cfg := ServerConfig{Name: "env", Command: "/bin/sh",
				Args: []string{"-c", `env > "$ENV_DUMP"; exec "$SERVER_BIN"`},
				// A configured env cannot hide from a forge that forge started it.
				Env: map[string]string{"ENV_DUMP": dump, "SERVER_BIN": serverBin, "GITHUB_TOKEN": "configured", NestedEnv: ""}}
			m := NewManager(tools.NewRegistry(), []ServerConfig{cfg}, c.opts...)
			t.Cleanup(func() { m.Close() })
			s, _ := m.Server("env")
			if _, _, err := s.Session(context.Background()); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(dump)
			if err != nil {
				t.Fatal(err)
			}
			env := string(b)
			for _, w := range c.want {
				if !strings.Contains(env, w) {
					t.Errorf("environment lacks %q", w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(env, n) {
					t.Errorf("environment has %q", n)
				}
			}
		})
	}
}
