package builtin

import "github.com/forgehq/forge/internal/tools"

// editorFiles is where a call's file text goes: the editor's buffers
// (ExecutionContext.Files) while no process the agent started is still
// running, and the disk otherwise (nil). forge checks a path, links and
// all, before the call; the editor then opens it by name, following
// links. Between the two only a process of the agent's could swap a link
// in (a sandboxed command's leftovers end with it, and calls that run
// beside others are read-only), so with a background command running the
// tools do their own I/O on the file they checked.
func editorFiles(ec tools.ExecutionContext, h *shellHolder) tools.Files {
	if ec.Files == nil || h.busy() {
		return nil
	}
	return ec.Files
}
