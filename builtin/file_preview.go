package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// writePreviewMax bounds the file a Write's preview reads to show what the
// write replaces: what Edit itself would load.
const writePreviewMax = editMaxFileSize

// PreviewChange works out an Edit as Execute does (plan), writing nothing.
func (t *editTool) PreviewChange(ec tools.ExecutionContext, args tools.Args) (tools.Change, error) {
	target, err := fsutil.PreviewTarget(ec.WorkingDir, allowedRoots(ec, t.roots), args.String("file_path"))
	if err != nil {
		return tools.Change{}, errors.New(pathError(err))
	}
	defer target.Close()
	o, fail := t.plan(context.Background(), ec, target, args)
	if fail != nil {
		return tools.Change{}, errors.New(fail.Error)
	}
	return tools.Change{Path: target.Path, Created: o.created, Old: o.before, New: o.content}, nil
}

// PreviewChange works out a NotebookEdit as Execute does, writing nothing.
func (t notebookEditTool) PreviewChange(ec tools.ExecutionContext, args tools.Args) (tools.Change, error) {
	target, data, err := loadNotebook(ec, args.String("notebook_path"), fsutil.PreviewTarget)
	if err != nil {
		return tools.Change{}, err
	}
	defer target.Close()
	out, _, err := applyNotebookEdit(data, editFromArgs(args))
	if err != nil {
		return tools.Change{}, err
	}
	return tools.Change{Path: target.Path, Old: data, New: out}, nil
}

// PreviewChange is what a Write would replace, and with what. Write itself
// never reads the file: a file too large or binary to show says so.
func (t *writeTool) PreviewChange(ec tools.ExecutionContext, args tools.Args) (tools.Change, error) {
	target, err := fsutil.PreviewTarget(ec.WorkingDir, allowedRoots(ec, t.roots), args.String("file_path"))
	if err != nil {
		return tools.Change{}, errors.New(pathError(err))
	}
	defer target.Close()
	content := []byte(args.String("content"))
	c := tools.Change{Path: target.Path, New: content}
	old, unshown, err := readReplaced(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.Created = true
	case err != nil:
		return tools.Change{}, err
	case unshown != "":
		return tools.Change{Path: target.Path, Unshown: fmt.Sprintf("%s; Write would replace it with %d bytes", unshown, len(content))}, nil
	default:
		c.Old = old
		if files := editorFiles(ec, t.shells); files != nil {
			// What the editor holds is what the write replaces.
			text, err := files.ReadText(context.Background(), target.Path)
			if err != nil {
				return tools.Change{}, fmt.Errorf("Cannot read %s through the editor: %w", target.Path, err)
			}
			c.Old = []byte(text)
		}
	}
	if fsutil.LooksBinary(content[:min(len(content), fsutil.SniffLen)], len(content) > fsutil.SniffLen) {
		return tools.Change{Path: target.Path, Created: c.Created,
			Unshown: fmt.Sprintf("the new content is binary (%d bytes)", len(content))}, nil
	}
	return c, nil
}

// readReplaced reads the file a Write would replace. A missing file's error
// satisfies errors.Is(err, fs.ErrNotExist); a path Write would refuse is
// an error in Write's words; a file that cannot be shown (too large,
// binary, unreadable) gives the reason in unshown.
func readReplaced(target *fsutil.Target) (content []byte, unshown string, err error) {
	f, err := target.OpenRegular("")
	var notFile *fsutil.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, "", err
	case errors.As(err, &notFile) && notFile.IsDir():
		return nil, "", fmt.Errorf("Path is a directory: %s", target.Path)
	case errors.As(err, &notFile):
		return nil, "", fmt.Errorf("Refusing to write %s: not a regular file", target.Path)
	case errors.Is(err, fsutil.ErrOutsideRoots):
		return nil, "", err
	case err != nil:
		// Write replaces the file without reading it: it may well succeed.
		return nil, "it cannot be read: " + fsutil.Describe(target.Path, err), nil
	}
	defer f.Close()
	if size := f.Info().Size(); size > writePreviewMax {
		return nil, fmt.Sprintf("the file is %d bytes, more than the %d forge reads to show a change", size, writePreviewMax), nil
	}
	content, ok, err := f.ReadAll(writePreviewMax)
	switch {
	case err != nil:
		return nil, "it cannot be read: " + fsutil.Describe(target.Path, err), nil
	case !ok:
		return nil, fmt.Sprintf("the file grew past the %d bytes forge reads to show a change", writePreviewMax), nil
	case fsutil.LooksBinary(content[:min(len(content), fsutil.SniffLen)], len(content) > fsutil.SniffLen):
		return nil, fmt.Sprintf("the file is binary (%d bytes)", len(content)), nil
	}
	return content, "", nil
}
