package app

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// /model NAME and PROVIDER/NAME, as the shell runs them: a name of the
// current provider keeps its endpoint; another provider's gets its own
// (no request is made to switch); a router's vendor/model names stay
// whole, and so does provider/model behind a base URL of the provider's
// own.
func TestModelSwitch(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		lines string
		want  []string
	}{
		{"same provider", []string{"--provider", "anthropic", "--base-url", "http://127.0.0.1:9"},
			"/model claude-opus-4-5\n", []string{"Model: claude-opus-4-5 (anthropic), from the next prompt; the conversation goes on."}},
		{"another provider", []string{"--provider", "anthropic", "--base-url", "http://127.0.0.1:9"},
			"/model openai/gpt-5\n", []string{"Model: gpt-5 (openai), from the next prompt"}},
		{"a router's names", []string{"--provider", "openai", "--base-url", "http://127.0.0.1:9/v1"},
			"/model openai/gpt-5\n/model meta-llama/llama-3.3-70b\n",
			[]string{"Model: openai/gpt-5 (openai)", "Model: meta-llama/llama-3.3-70b (openai)"}},
		{"a name with a space", []string{"--provider", "anthropic", "--base-url", "http://127.0.0.1:9"},
			"/model 'a b'\n", []string{"give a model name without spaces"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			dir := t.TempDir()
			env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "XDG_STATE_HOME": dir,
				"ANTHROPIC_API_KEY": "sk-ant-test", "OPENAI_API_KEY": "sk-test"}
			opts := Options{
				Clock:     func() time.Time { return time.Date(2024, 1, 15, 10, 23, 45, 0, time.UTC) },
				LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
				Getwd:     func() (string, error) { return dir, nil },
			}
			Main(context.Background(), c.args, strings.NewReader(c.lines), &out, &errb, opts)
			got := out.String() + errb.String()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
		})
	}
}
