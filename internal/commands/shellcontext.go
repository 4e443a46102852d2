package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// Bounds on the !command output offered to the model: each command's
// (its beginning and its end, where errors show), and all of them, the
// oldest dropped first.
const (
	maxShellOutput     = 30 << 10
	maxShellOutputHead = 8 << 10
	maxShellOutputs    = 64 << 10
)

// keepShellOutput keeps what a !command printed for the next prompt, as
// the person saw it, and says once a session that it will go there.
func (e *Env) keepShellOutput(command string, res tools.Result) {
	out := strings.TrimRight(res.Display(), "\n")
	if n := len(out); n > maxShellOutput {
		out = out[:maxShellOutputHead] + fmt.Sprintf("\n[... %d bytes cut ...]\n", n-maxShellOutput) + out[n-(maxShellOutput-maxShellOutputHead):]
	}
	status := string(res.Status)
	if code, ok := res.Metadata["exit_code"]; ok {
		status = fmt.Sprintf("exit code %v", code)
	}
	if len(e.shellOutput) == 0 && !e.shellOutputSaid && !e.JSON() && e.IO.OutTerminal {
		e.shellOutputSaid = true
		e.note("(The output of !commands goes to the model with your next prompt.)", map[string]any{"shell_output": "offered with the next prompt"})
	}
	e.shellOutput = append(e.shellOutput, fmt.Sprintf("<shell-command>%s</shell-command>\n<shell-output status=%q>\n%s\n</shell-output>", command, status, out))
	for total := e.shellOutputSize(); total > maxShellOutputs && len(e.shellOutput) > 1; total = e.shellOutputSize() {
		e.shellOutput = e.shellOutput[1:]
	}
}

func (e *Env) shellOutputSize() int {
	n := 0
	for _, s := range e.shellOutput {
		n += len(s)
	}
	return n
}

// promptWithContext is a prompt typed in the shell with what goes with
// it: the output of the !commands run since the last prompt, before it,
// and the files it @mentions, after it, each said through show.
func (e *Env) promptWithContext(ctx context.Context, prompt string, show func(agent.Event)) string {
	prompt = e.attachMentions(ctx, prompt, show)
	if len(e.shellOutput) == 0 {
		return prompt
	}
	before := "Before this prompt the person ran these commands in forge's shell (not through you); their output:\n" +
		strings.Join(e.shellOutput, "\n") + "\n\n"
	e.shellOutput = nil
	return before + prompt
}
