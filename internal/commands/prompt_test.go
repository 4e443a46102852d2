package commands

import (
	"bytes"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/permission"
)

// The prompt shows an approval mode other than ask, dry-run mode, and how
// full the window is from half of it on, all as they are at each prompt.
func TestPromptMarks(t *testing.T) {
	var out, errOut bytes.Buffer
	s := testShell(t, &out, &errOut)
	window := 0
	s.env.ContextWindow = func() int { return window }
	prompt := func(text string) {
		t.Helper()
		s.env.Conversation = agent.Conversation{Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}}
	}
	for _, tc := range []struct {
		name   string
		mode   permission.Mode
		dry    bool
		window int
		text   string // the conversation: 4 bytes a token, 4 tokens of framing
		want   string
	}{
		{name: "ask mode, nothing else", mode: permission.ModeAsk, want: "forge> "},
		{name: "auto-edit", mode: permission.ModeAutoEdit, want: "forge [auto-edit]> "},
		{name: "yolo and dry-run", mode: permission.ModeYolo, dry: true, want: "forge [yolo, dry-run]> "},
		{name: "under half of the window", mode: permission.ModeAsk, window: 1000, text: strings.Repeat("x", 1976), want: "forge> "},
		{name: "half of the window", mode: permission.ModeAsk, window: 1000, text: strings.Repeat("x", 1984), want: "forge [50% context]> "},
		{name: "plan mode, most of the window", mode: permission.ModePlan, window: 1000, text: strings.Repeat("x", 3584),
			want: "forge [plan, 90% context]> "},
		{name: "an unknown window shows no gauge", mode: permission.ModeAsk, text: strings.Repeat("x", 1_000_000), want: "forge> "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pol, err := permission.New(permission.Config{Mode: tc.mode, WorkingDir: s.env.Exec.WorkingDir})
			if err != nil {
				t.Fatal(err)
			}
			s.env.Policy, s.env.Exec.DryRun, window = pol, tc.dry, tc.window
			prompt(tc.text)
			if got := s.Prompt(); got != tc.want {
				t.Errorf("prompt %q, want %q", got, tc.want)
			}
		})
	}
}
