//go:build unix

package plugin

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// A plugin's command does not inherit forge's secrets unless the manager
// passes them on by name; forge's other variables and the FORGE_* ones
// are there.
func TestPluginEnvironmentWithoutSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-forge")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "aws-from-forge")
	t.Setenv("FORGE_TEST_PLAIN", "plain-value")
	cases := []struct {
		name      string
		opts      []Option
		want, not []string
	}{
		{"withheld", nil,
			[]string{"FORGE_TEST_PLAIN=plain-value", "FORGE_PLUGIN=envdump"}, []string{"OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY"}},
		{"passed on by name", []Option{WithPassEnv("openai_api_key")},
			[]string{"OPENAI_API_KEY=sk-from-forge", "FORGE_PLUGIN=envdump"}, []string{"AWS_SECRET_ACCESS_KEY"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writePlugin(t, dir, "envdump", "env\n", "")
			reg := tools.NewRegistry()
			if err := NewManager(reg, []string{dir}, c.opts...).Load(context.Background()); err != nil {
				t.Fatal(err)
			}
			r := run(t, reg, "envdump", tools.NewExecutionContext(dir), tools.Args{})
			out, _ := r.Output.(string)
			if !r.Success {
				t.Fatalf("%+v", r)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("environment lacks %q", w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(out, n) {
					t.Errorf("environment has %q", n)
				}
			}
		})
	}
}
