package builtin

import (
	"context"
	"fmt"

	"github.com/forgehq/forge/internal/tools"
)

var killShellDescriptor = tools.Descriptor{
	Name: "KillShell",
	Description: "Kill a background shell. Ends the whole process group of a command started with run_in_background " +
		"(SIGTERM, then SIGKILL after a short grace). An unknown id gets the list of background shells.",
	Category: tools.CategoryExecution,
	Parameters: []tools.Parameter{
		{Name: "shell_id", Type: tools.TypeString, Description: "The ID of the background shell to kill (e.g. bash_1)", Required: true},
	},
}

// killShellTool ends background commands.
type killShellTool struct {
	described
	shells *shellTable
}

func newKillShell(h *shellHolder) tools.Factory {
	return func(context.Context, tools.Deps) (tools.Tool, error) {
		return &killShellTool{described: described{killShellDescriptor}, shells: h.table()}, nil
	}
}

// Close ends every background command (Registry.Close, when forge exits).
func (t *killShellTool) Close() error { return t.shells.Close() }

// DryRun says which command would be ended.
func (t *killShellTool) DryRun(_ tools.ExecutionContext, args tools.Args) string {
	id := args.String("shell_id")
	if s, ok := t.shells.get(id); ok {
		return fmt.Sprintf("Would kill background shell %s (process group %d: %s)", s.id, s.pgid, oneLine(s.command, 80))
	}
	return fmt.Sprintf("Would kill background shell %s (no such shell now)", id)
}

// Execute ends the shell's process group.
func (t *killShellTool) Execute(ctx context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	id := args.String("shell_id")
	s, ok := t.shells.get(id)
	if !ok {
		return tools.Fail(t.shells.unknown(id))
	}
	if err := ctx.Err(); err != nil {
		return tools.Fail("Cancelled before killing " + s.id + ": " + err.Error())
	}
	killed, err := t.shells.kill(s)
	if err != nil {
		return tools.Fail(fmt.Sprintf("Could not kill %s: %v", s.id, err), "shell_id", s.id)
	}
	st, ex := s.status()
	if !killed {
		return tools.OK(fmt.Sprintf("Shell %s had already ended (%s, %s).", s.id, st, ex), "shell_id", s.id, "status", string(st), "exit_code", ex.Code)
	}
	return tools.OK(fmt.Sprintf("Killed shell %s (process group %d: %s).", s.id, s.pgid, oneLine(s.command, 80)),
		"shell_id", s.id, "status", string(shellKilled), "pgid", s.pgid)
}
