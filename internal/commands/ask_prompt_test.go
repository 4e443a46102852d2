package commands

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// forge ask's prompt: its words; standard input with - or without words
// (unless it is a terminal); piped input beside words as context.
func TestCLIPrompt(t *testing.T) {
	tests := []struct {
		name     string
		words    []string
		in       io.Reader
		terminal bool
		want     string
	}{
		{"words", []string{"fix", "it"}, strings.NewReader(""), false, "fix it"},
		{"dash reads the prompt", []string{"-"}, strings.NewReader("  from stdin\n"), false, "from stdin"},
		{"no words read the prompt", nil, strings.NewReader("from a pipe\n"), false, "from a pipe"},
		{"no words, nothing piped", nil, strings.NewReader(""), false, ""},
		{"no words at a terminal", nil, strings.NewReader("not read"), true, ""},
		{"no words, no input", nil, nil, false, ""},
		{"piped input with words is context", []string{"review"}, strings.NewReader("+line\n"), false,
			"review\n\nStandard input:\n<stdin>\n+line\n</stdin>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			env := testShell(t, &out, &errOut).Env()
			env.IO.In, env.IO.InTerminal = tt.in, tt.terminal
			got, _, err := cliPrompt(env, tt.words)
			if err != nil || got != tt.want {
				t.Errorf("cliPrompt(%q) = %q, %v; want %q", tt.words, got, err, tt.want)
			}
		})
	}
}
