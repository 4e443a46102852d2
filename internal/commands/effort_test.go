package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

// /effort shows and changes the effort of the next prompts; a bad value
// is a usage error that names the good ones. /thinking shows the last
// prompt's thinking whole.
func TestEffortAndThinking(t *testing.T) {
	env, out := mentionEnv(t, nil)
	for _, c := range []struct {
		args []string
		want string
		code int
	}{
		{nil, "Effort: off (the model's own default)", ExitOK},
		{[]string{"HIGH"}, "Effort: high (from the next prompt)", ExitOK},
		{nil, "Effort: high", ExitOK},
		{[]string{"extreme"}, `unknown effort "extreme": use low, medium, high or off`, ExitUsage},
		{[]string{"off"}, "Effort: off", ExitOK},
	} {
		out.Reset()
		if code := runEffort(context.Background(), env, Invocation{Args: c.args}); code != c.code || !strings.Contains(out.String(), c.want) {
			t.Errorf("/effort %v: %d %q, want %d %q", c.args, code, out.String(), c.code, c.want)
		}
	}
	env.Config.Effort = "medium"
	out.Reset()
	thinking := thinkingCommand()
	thinking.Run(context.Background(), env, Invocation{})
	if !strings.Contains(out.String(), "No thinking in the last prompt") {
		t.Errorf("no thinking: %q", out.String())
	}
	env.Conversation.Messages = []llm.Message{
		{Role: llm.RoleUser, Text: "old"},
		{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningAnthropic, Text: "an old thought"}}},
		{Role: llm.RoleUser, Text: "new"},
		{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningAnthropic, Text: "first"}}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c"}},
		{Role: llm.RoleAssistant, Reasoning: []llm.Reasoning{{Provider: llm.ReasoningChat, Text: "second"}}},
	}
	out.Reset()
	thinking.Run(context.Background(), env, Invocation{})
	if got := out.String(); !strings.Contains(got, "first\n\nsecond") || strings.Contains(got, "old thought") {
		t.Errorf("/thinking: %q", got)
	}
}
