//go:build unix

package builtin

import (
	"context"
	"strings"
	"testing"
	"time"
)

// The commands Bash runs, in the foreground or in the background, do not
// inherit forge's secrets, unless the execution context passes them on.
func TestBashEnvironmentWithoutSecrets(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-forge")
	t.Setenv("GITHUB_TOKEN", "ghp-from-forge")
	t.Setenv("FORGE_TEST_PLAIN", "plain-value")
	cases := []struct {
		name       string
		pass       []string
		background bool
		want, not  []string
	}{
		{"foreground", nil, false,
			[]string{"FORGE_TEST_PLAIN=plain-value"}, []string{"OPENAI_API_KEY", "sk-from-forge", "GITHUB_TOKEN"}},
		{"background", nil, true,
			[]string{"FORGE_TEST_PLAIN=plain-value"}, []string{"OPENAI_API_KEY", "GITHUB_TOKEN"}},
		{"passed on by name", []string{"OPENAI_API_KEY"}, false,
			[]string{"OPENAI_API_KEY=sk-from-forge", "FORGE_TEST_PLAIN=plain-value"}, []string{"GITHUB_TOKEN"}},
		{"passed on in the background", []string{"GITHUB_TOKEN"}, true,
			[]string{"GITHUB_TOKEN=ghp-from-forge"}, []string{"OPENAI_API_KEY"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newTestBash(t)
			ec := testEC(t)
			ec.PassEnv = c.pass
			args := bashArgs("env")
			args["run_in_background"] = c.background
			r := b.Execute(context.Background(), ec, args)
			if !r.Success {
				t.Fatalf("%+v", r)
			}
			out := r.Display()
			if c.background {
				out = backgroundOutput(t, b, r.Metadata["bash_id"].(string))
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("env output lacks %q", w)
				}
			}
			for _, n := range c.not {
				if strings.Contains(out, n) {
					t.Errorf("env output has %q:\n%s", n, out)
				}
			}
		})
	}
}

// backgroundOutput waits for a background shell to exit and returns all
// it printed.
func backgroundOutput(t *testing.T, b *bashTool, id string) string {
	t.Helper()
	s, ok := b.shells.get(id)
	if !ok {
		t.Fatalf("no shell %s", id)
	}
	select {
	case <-s.drained:
	case <-time.After(20 * time.Second):
		t.Fatal("the background command did not finish")
	}
	data, _, _ := s.out.Since(0)
	return string(data)
}
