package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/forgehq/forge/builtin/internal/cfg"
	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// writeDescriptor is Write's identity and schema.
var writeDescriptor = tools.Descriptor{
	Name: "Write",
	Description: "Write content to a file. It replaces the file if it exists; the write is atomic (a crash leaves the old " +
		"content or the new, never a mix), the file's permissions are kept and missing parent directories are created. " +
		"Only paths inside the working directory or the configured allowed roots may be written.",
	Category: tools.CategoryFile,
	Parameters: []tools.Parameter{
		{Name: "file_path", Type: tools.TypeString, Description: "Absolute path to the file to write (a relative path is taken from the working directory)", Required: true},
		{Name: "content", Type: tools.TypeString, Description: "File content to write", Required: true},
	},
}

// writeTool writes whole files atomically inside the allowed roots.
type writeTool struct {
	described
	roots  []string     // allowed roots from the configuration, besides the context's
	shells *shellHolder // the agent's background processes: see editorFiles
}

// allowedRootsKey is tools.Write.allowed_roots and tools.Edit.allowed_roots:
// directories besides the working directory that the tool may write in.
var allowedRootsKey = cfg.StringsKey("allowed_roots")

// newWrite builds Write from its tools.Write configuration: allowed_roots, a
// list of directories besides the working directory that may be written.
func newWrite(h *shellHolder) tools.Factory {
	return func(_ context.Context, deps tools.Deps) (tools.Tool, error) {
		roots, err := allowedRootsKey.Get(deps.Config)
		if err != nil {
			return nil, err
		}
		return &writeTool{described: described{writeDescriptor}, roots: roots, shells: h}, nil
	}
}

// allowedRoots are the roots a call may write in: the context's and the
// configuration's.
func allowedRoots(ec tools.ExecutionContext, configured []string) []string {
	return append(append([]string(nil), ec.AllowedRoots...), configured...)
}

// DryRun says how much would be written where, or why it would be refused.
func (t *writeTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	target, err := fsutil.WriteTarget(ec.WorkingDir, allowedRoots(ec, t.roots), args.String("file_path"))
	if err != nil {
		return "Would refuse: " + err.Error()
	}
	_ = target.Close()
	return fmt.Sprintf("Would write %d bytes to %s", len(args.String("content")), target.Path)
}

// Execute writes content to file_path.
func (t *writeTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	raw := args.String("file_path")
	target, err := fsutil.WriteTarget(ec.WorkingDir, allowedRoots(ec, t.roots), raw)
	if err != nil {
		return tools.Fail(pathError(err), "file_path", raw)
	}
	defer target.Close()
	target.Judge(ec.Judged)
	if err := ctx.Err(); err != nil {
		return tools.Fail("Write cancelled: "+err.Error(), "file_path", target.Path)
	}
	content := args.String("content")
	created, err := writeFile(ctx, editorFiles(ec, t.shells), target, []byte(content))
	if err != nil {
		return tools.Fail(err.Error(), "file_path", target.Path)
	}
	verb := "Updated"
	if created {
		verb = "Created"
	}
	return tools.OK(fmt.Sprintf("%s %s (%d bytes)", verb, target.Path, len(content)),
		"file_path", target.Path, "bytes", len(content), "created", created)
}

// pathError is the message for a path that could not be resolved or was
// refused: the refusal's own text, or "Invalid file_path: ..." otherwise.
func pathError(err error) string {
	var outside *fsutil.OutsideError
	if errors.As(err, &outside) {
		return err.Error()
	}
	return "Invalid file_path: " + err.Error()
}

// writeFile writes data to target: atomically through its root, or
// through the editor's files when given (editorFiles). created says the
// file did not exist.
func writeFile(ctx context.Context, files tools.Files, target *fsutil.Target, data []byte) (created bool, err error) {
	if files == nil {
		return target.WriteAtomic(data)
	}
	_, err = os.Lstat(target.Path)
	created = errors.Is(err, fs.ErrNotExist)
	if err := files.WriteText(ctx, target.Path, string(data)); err != nil {
		return false, fmt.Errorf("Cannot write %s through the editor: %w", target.Path, err)
	}
	return created, nil
}
