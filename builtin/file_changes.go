package builtin

import (
	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// ChangedFiles names the file a Write would change, for the agent's
// checkpoints.
func (t *writeTool) ChangedFiles(ec tools.ExecutionContext, args tools.Args) []string {
	return writtenFile(ec, t.roots, args.String("file_path"))
}

// ChangedFiles names the file an Edit would change.
func (t *editTool) ChangedFiles(ec tools.ExecutionContext, args tools.Args) []string {
	return writtenFile(ec, t.roots, args.String("file_path"))
}

// ChangedFiles names the notebook a NotebookEdit would change.
func (t notebookEditTool) ChangedFiles(ec tools.ExecutionContext, args tools.Args) []string {
	return writtenFile(ec, nil, args.String("notebook_path"))
}

// writtenFile is the path a write to raw lands on, resolved as the tools
// resolve it; none when the write would be refused.
func writtenFile(ec tools.ExecutionContext, roots []string, raw string) []string {
	target, err := fsutil.WriteTarget(ec.WorkingDir, allowedRoots(ec, roots), raw)
	if err != nil {
		return nil
	}
	defer target.Close()
	return []string{target.Path}
}
