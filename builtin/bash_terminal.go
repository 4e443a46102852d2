package builtin

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// terminalLine is the command line of rn for the terminals of the
// context (an editor's), confined as rn's sandbox confines it; ok is
// false when there are none, or when the sandbox cannot confine a command
// someone else starts: then forge runs it itself.
func (b *bashTool) terminalLine(ec tools.ExecutionContext, rn bashRun) ([]string, bool) {
	if ec.Terminals == nil {
		return nil, false
	}
	argv := []string{b.shell, "-c", rn.command}
	if rn.sb == nil {
		return argv, true
	}
	cl, ok := rn.sb.(tools.ConfinedCommandLine)
	if !ok {
		return nil, false
	}
	line, err := cl.CommandLine(argv, rn.dir)
	if err != nil {
		return nil, false
	}
	return line, true
}

// inTerminal runs rn in a terminal of the context's, with argv as its
// command line, and words its end as foreground does.
func (b *bashTool) inTerminal(ctx context.Context, ec tools.ExecutionContext, rn bashRun, argv []string, limit time.Duration) tools.Result {
	start := time.Now()
	out, err := ec.Terminals.Run(ctx, tools.TerminalCommand{CallID: ec.CallID, Argv: argv, Dir: rn.dir, Env: rn.env,
		OutputLimit: b.bashOutputLimit(ec)})
	text := out.Output
	if out.Truncated {
		text = "[... the start of the output was cut: the terminal keeps its end ...]\n" + text
	}
	meta := []any{"exit_code", out.ExitCode, "bytes", len(out.Output), "truncated", out.Truncated, "terminal", true,
		"duration_ms", time.Since(start).Milliseconds()}
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		r := failWithOutput(fmt.Sprintf("The command timed out after %s and was killed.", limit), text, meta)
		r.Status, r.ErrorKind = tools.StatusTimedOut, tools.KindTimeout
		return r
	case ctx.Err() != nil:
		r := failWithOutput("The command was cancelled; its terminal was killed.", text, meta)
		r.Status, r.ErrorKind = tools.StatusCancelled, tools.KindCancelled
		return r
	case err != nil:
		return tools.Fail(fmt.Sprintf("Could not run the command in the editor's terminal: %v", err))
	}
	if out.Signal != "" {
		meta = append(meta, "signal", out.Signal)
	}
	blocked := ""
	if rn.sb != nil {
		meta = append(meta, "sandboxed", true)
		if blocked = rn.sb.Explain(text, rn.dir, start); blocked != "" {
			meta = append(meta, "sandbox_blocked", blocked)
			blocked = "\n" + blocked
		}
	}
	switch {
	case out.ExitCode < 0 && out.Signal == "":
		return failWithOutput("The editor's terminal did not say how the command ended."+blocked, text, meta)
	case out.Signal != "":
		return failWithOutput(fmt.Sprintf("The command was killed by signal %s.", out.Signal)+blocked, text, meta)
	case out.ExitCode != 0:
		return failWithOutput(fmt.Sprintf("The command failed with exit code %d.", out.ExitCode)+blocked, text, meta)
	}
	if strings.TrimSpace(text) == "" {
		text = "(no output)"
	}
	return tools.OK(text+blocked, meta...)
}
