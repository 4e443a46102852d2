package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/tools"
)

// editorTerminals runs the agent's commands in the editor's terminals,
// where the person watches them; the call shows its terminal.
type editorTerminals struct{ t *turn }

// releaseTimeout bounds the clean-up requests after a command ends.
const releaseTimeout = 5 * time.Second

func (e editorTerminals) Run(ctx context.Context, c tools.TerminalCommand) (tools.TerminalResult, error) {
	if len(c.Argv) == 0 {
		return tools.TerminalResult{}, errors.New("no command to run")
	}
	t, conn := e.t, e.t.s.conn
	req := sdk.CreateTerminalRequest{SessionId: t.l.id, Command: c.Argv[0], Args: c.Argv[1:], Env: envVars(c.Env)}
	if c.Dir != "" {
		req.Cwd = sdk.Ptr(c.Dir)
	}
	if c.OutputLimit > 0 {
		req.OutputByteLimit = sdk.Ptr(c.OutputLimit)
	}
	created, err := conn.CreateTerminal(ctx, req)
	if err != nil {
		return tools.TerminalResult{ExitCode: -1}, rpcErr(err)
	}
	id := created.TerminalId
	if c.CallID != "" {
		t.terminalFor(c.CallID, id)
		t.send(sdk.UpdateToolCall(sdk.ToolCallId(c.CallID), sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress),
			sdk.WithUpdateContent([]sdk.ToolCallContent{sdk.ToolTerminalRef(id)})))
	}
	// The clean-up runs after ctx may have ended: a cancelled command is
	// still killed and its terminal released.
	done, cancel := context.WithTimeout(t.out, releaseTimeout)
	defer cancel()
	defer func() {
		_, _ = conn.ReleaseTerminal(done, sdk.ReleaseTerminalRequest{SessionId: t.l.id, TerminalId: id})
	}()
	exit, werr := conn.WaitForTerminalExit(ctx, sdk.WaitForTerminalExitRequest{SessionId: t.l.id, TerminalId: id})
	if werr != nil && ctx.Err() != nil {
		_, _ = conn.KillTerminal(done, sdk.KillTerminalRequest{SessionId: t.l.id, TerminalId: id})
	}
	out, oerr := conn.TerminalOutput(done, sdk.TerminalOutputRequest{SessionId: t.l.id, TerminalId: id})
	res := tools.TerminalResult{Output: out.Output, Truncated: out.Truncated, ExitCode: -1}
	switch {
	case werr != nil && ctx.Err() != nil:
		return res, ctx.Err()
	case werr != nil:
		return res, rpcErr(werr)
	case oerr != nil:
		return res, rpcErr(oerr)
	}
	if exit.ExitCode != nil {
		res.ExitCode = *exit.ExitCode
	}
	if exit.Signal != nil && *exit.Signal != "" {
		res.Signal, res.ExitCode = *exit.Signal, -1
	}
	return res, nil
}

// envVars is an environment (KEY=VALUE) as the protocol sends it.
func envVars(env []string) []sdk.EnvVariable {
	out := make([]sdk.EnvVariable, 0, len(env))
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			out = append(out, sdk.EnvVariable{Name: k, Value: v})
		}
	}
	return out
}

// rpcErr is an editor's error answer as a message a person can read.
func rpcErr(err error) error {
	var re *sdk.RequestError
	if errors.As(err, &re) {
		msg := re.Message
		if d, ok := re.Data.(map[string]any); ok {
			if s, ok := d["error"].(string); ok && s != "" {
				msg += ": " + s
			}
		}
		return fmt.Errorf("the editor answered: %s", msg)
	}
	return err
}
