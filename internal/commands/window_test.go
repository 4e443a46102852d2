package commands

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
)

// What to do about a conversation too long for the window depends on
// where the person is and what the server said.
func TestAdviseContext(t *testing.T) {
	for _, tc := range []struct {
		name           string
		cli, continued bool
		server, fixed  int64
		want           string
	}{
		{"forge itself does not fit", true, false, 4096, 15000, "use a model (or a server setting) with a window larger than 4096 tokens"},
		{"the shell", false, true, 0, 0, "start a new conversation (/clear), or, if the model's window is larger than forge counts with, give it: --context-window N"},
		{"forge ask --continue", true, true, 16000, 0, "start afresh (forge ask without --continue or --resume), or use a model (or a server setting) with a window larger than 16000 tokens"},
		{"forge ask", true, false, 0, 0, "shorten the prompt, or, if the model's window is larger than forge counts with, give it: --context-window N"},
	} {
		ce := &agent.ContextError{Need: 20000, Server: tc.server, Fixed: tc.fixed}
		d := &agent.Done{Reason: agent.ReasonContext, Err: ce}
		adviseContext(d, tc.cli, tc.continued)
		if ce.Advice != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, ce.Advice, tc.want)
		}
		if !strings.HasSuffix(d.Err.Error(), ": "+tc.want) || strings.Contains(d.Summary(), "/clear") && tc.cli {
			t.Errorf("%s: %s", tc.name, d.Summary())
		}
	}
	adviseContext(&agent.Done{Reason: agent.ReasonStop}, true, true) // nothing to advise on
}
