package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// editMaxFileSize bounds the files Edit loads whole.
const editMaxFileSize = 64 << 20

// editDescriptor is Edit's identity and schema.
var editDescriptor = tools.Descriptor{
	Name: "Edit",
	Description: "Edit a file with find/replace. Replaces old_string, which must occur exactly once unless replace_all " +
		"is set, with new_string. Matching is exact; when it fails, the closest lines of the file are shown with " +
		"whitespace made visible. CRLF line endings and the final newline are kept. An empty old_string creates a " +
		"missing file with new_string as its content. The write is atomic.",
	Category: tools.CategoryFile,
	Parameters: []tools.Parameter{
		{Name: "file_path", Type: tools.TypeString, Description: "Absolute path to the file to edit (a relative path is taken from the working directory)", Required: true},
		{Name: "old_string", Type: tools.TypeString, Description: "The exact text to replace", Required: true},
		{Name: "new_string", Type: tools.TypeString, Description: "The text to replace it with (must differ from old_string)", Required: true},
		{Name: "replace_all", Type: tools.TypeBoolean, Description: "Replace every occurrence of old_string", Default: false},
	},
}

// editTool applies exact find/replace edits, atomically, inside the allowed
// roots.
type editTool struct {
	described
	roots  []string
	shells *shellHolder // the agent's background processes: see editorFiles
}

// newEdit builds Edit from its tools.Edit configuration: allowed_roots.
func newEdit(h *shellHolder) tools.Factory {
	return func(_ context.Context, deps tools.Deps) (tools.Tool, error) {
		roots, err := allowedRootsKey.Get(deps.Config)
		if err != nil {
			return nil, err
		}
		return &editTool{described: described{editDescriptor}, roots: roots, shells: h}, nil
	}
}

// editOutcome is an edit worked out but not yet written.
type editOutcome struct {
	before       []byte // the file's content now
	content      []byte
	replacements int
	created      bool
}

// plan reads the target through its root and works out the edit, or the
// failure to report.
func (t *editTool) plan(ctx context.Context, ec tools.ExecutionContext, target *fsutil.Target, args tools.Args) (editOutcome, *tools.Result) {
	old, new := args.String("old_string"), args.String("new_string")
	fail := func(msg string, kv ...any) (editOutcome, *tools.Result) {
		r := tools.Fail(msg, append([]any{"file_path", target.Path}, kv...)...)
		return editOutcome{}, &r
	}
	if old == new {
		return fail(fmt.Sprintf("old_string and new_string are identical: there is nothing to change in %s", target.Path))
	}
	content, err := readForEdit(ctx, editorFiles(ec, t.shells), target)
	switch {
	case errors.Is(err, fs.ErrNotExist) && old == "":
		return editOutcome{content: []byte(new), created: true, replacements: 1}, nil
	case errors.Is(err, fs.ErrNotExist):
		return fail(fsutil.Describe(target.Path, err))
	case err != nil:
		return fail(err.Error())
	}
	if old == "" {
		if len(content) > 0 {
			return fail(fmt.Sprintf("old_string is empty but %s already has content: give the exact text to replace, or use Write to replace the whole file", target.Path))
		}
		return editOutcome{before: content, content: []byte(new), replacements: 1}, nil
	}
	p, err := applyEdit(content, old, new, boolArg(args, "replace_all", false))
	var amb errAmbiguous
	switch {
	case errors.As(err, &amb):
		return fail(fmt.Sprintf("old_string appears %d times in %s. Provide more surrounding context to make it unique, or set replace_all=true.", amb.count, target.Path), "matches", amb.count)
	case errors.Is(err, errEditNotFound):
		return fail(notFoundMessage(target.Path, content, old))
	case err != nil:
		return fail(err.Error() + " in " + target.Path)
	}
	return editOutcome{before: content, content: p.content, replacements: p.replacements}, nil
}

// readForEdit reads the text file Edit is to change. A missing file's error
// satisfies errors.Is(err, fs.ErrNotExist); every other error's text is the
// message for the user.
func readForEdit(ctx context.Context, files tools.Files, target *fsutil.Target) ([]byte, error) {
	f, err := target.OpenRegular("")
	var notFile *fsutil.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, err
	case errors.As(err, &notFile) && notFile.IsDir():
		return nil, fmt.Errorf("Path is a directory: %s", target.Path)
	case errors.As(err, &notFile):
		return nil, fmt.Errorf("Cannot edit %s: not a regular file (it is a %s)", target.Path, notFile.Kind())
	case errors.Is(err, fsutil.ErrOutsideRoots):
		return nil, err
	case errors.Is(err, fsutil.ErrChanged):
		return nil, errors.New(changedSinceChecked(target.Path))
	case err != nil:
		return nil, errors.New(fsutil.Describe(target.Path, err))
	}
	defer f.Close()
	if size := f.Info().Size(); size > editMaxFileSize {
		return nil, fmt.Errorf("Cannot edit %s: the file is %d bytes, more than the %d that Edit loads; use Bash tools for it", target.Path, size, editMaxFileSize)
	}
	content, ok, err := f.ReadAll(editMaxFileSize)
	switch {
	case err != nil:
		return nil, errors.New(fsutil.Describe(target.Path, err))
	case !ok:
		return nil, fmt.Errorf("Cannot edit %s: the file grew past the %d bytes that Edit loads while it was read", target.Path, editMaxFileSize)
	case fsutil.LooksBinary(content[:min(len(content), fsutil.SniffLen)], len(content) > fsutil.SniffLen):
		return nil, fmt.Errorf("Cannot edit binary file: %s (%d bytes)", target.Path, len(content))
	}
	if files != nil {
		// Edit the editor's text of the file, unsaved changes included.
		text, err := files.ReadText(ctx, target.Path)
		if err != nil {
			return nil, fmt.Errorf("Cannot read %s through the editor: %w", target.Path, err)
		}
		return []byte(text), nil
	}
	return content, nil
}

// DryRun says what the edit would change, or why it would fail.
func (t *editTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	target, err := fsutil.WriteTarget(ec.WorkingDir, allowedRoots(ec, t.roots), args.String("file_path"))
	if err != nil {
		return "Would fail: " + pathError(err)
	}
	defer target.Close()
	o, fail := t.plan(context.Background(), ec, target, args)
	if fail != nil {
		return "Would fail: " + fail.Error
	}
	if o.created {
		return fmt.Sprintf("Would create %s with %d bytes", target.Path, len(o.content))
	}
	return fmt.Sprintf("Would make %s in %s", plural(o.replacements, "replacement"), target.Path)
}

// Execute applies the edit and writes the file atomically, reading and
// writing through the same root.
func (t *editTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	raw := args.String("file_path")
	target, err := fsutil.WriteTarget(ec.WorkingDir, allowedRoots(ec, t.roots), raw)
	if err != nil {
		return tools.Fail(pathError(err), "file_path", raw)
	}
	defer target.Close()
	target.Judge(ec.Judged)
	o, fail := t.plan(ctx, ec, target, args)
	if fail != nil {
		return *fail
	}
	if err := ctx.Err(); err != nil {
		return tools.Fail("Edit cancelled: "+err.Error(), "file_path", target.Path)
	}
	if _, err := writeFile(ctx, editorFiles(ec, t.shells), target, o.content); err != nil {
		return tools.Fail(err.Error(), "file_path", target.Path)
	}
	msg := fmt.Sprintf("Made %s in %s", plural(o.replacements, "replacement"), target.Path)
	if o.created {
		msg = fmt.Sprintf("Created %s (%d bytes)", target.Path, len(o.content))
	}
	return tools.OK(msg, "file_path", target.Path, "replacements", o.replacements, "bytes", len(o.content), "created", o.created)
}

// plural returns "1 replacement", "3 replacements".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
