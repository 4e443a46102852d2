package commands

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/render"
)

// maxPreviewFile bounds the file an approval's diff is computed from.
const maxPreviewFile = 1 << 20

// terminalApprover asks the person at the terminal: the call in full (the
// command, or the file and a diff of the change), then y, a or n.
type terminalApprover struct{ env *Env }

func (t terminalApprover) Approve(ctx context.Context, a agent.Approval) (agent.Answer, error) {
	q := render.ApprovalQuestion(render.Approval{Tool: a.Call.Name, Preview: preview(t.env, a.Call),
		Reason: a.Reason, Always: a.Always}, t.env.Renderer != nil && t.env.IO.OutTerminal)
	for range 3 {
		answer, err := t.env.Ask(ctx, q)
		if err != nil {
			return agent.Reject, err
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes":
			return agent.AllowOnce, nil
		case "a", "always":
			if len(a.Always) == 0 {
				return agent.AllowOnce, nil
			}
			return agent.AllowAlways, nil
		case "n", "no", "":
			return agent.Reject, nil
		}
		q = "Answer y (yes, once), a (always) or n (no)."
	}
	return agent.Reject, nil
}

// preview shows a call in full: Bash's command, an edit's diff, a new
// file's content, or the arguments.
func preview(env *Env, c agent.Call) string {
	args := c.Args
	switch c.Name {
	case "Bash":
		return "$ " + args.String("command")
	case "Write":
		path := args.String("file_path")
		return editDiff(env, path, func(string) string { return args.String("content") })
	case "Edit":
		path := args.String("file_path")
		return editDiff(env, path, func(old string) string {
			if args.Bool("replace_all") {
				return strings.ReplaceAll(old, args.String("old_string"), args.String("new_string"))
			}
			return strings.Replace(old, args.String("old_string"), args.String("new_string"), 1)
		})
	}
	if args == nil {
		return string(c.Raw)
	}
	b, err := render.EncodeJSON(args)
	if err != nil {
		return string(c.Raw)
	}
	return strings.TrimSpace(string(b))
}

// editDiff is the unified diff of the file at path before and after change.
func editDiff(env *Env, path string, change func(old string) string) string {
	abs := path
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(env.Exec.WorkingDir, path)
	}
	old, from := "", "/dev/null" // a new file, as git shows one
	if fi, err := os.Stat(abs); err == nil {
		from = "a/" + path
		if fi.Mode().IsRegular() && fi.Size() <= maxPreviewFile {
			if b, err := os.ReadFile(abs); err == nil {
				old = string(b)
			}
		}
	}
	diff := udiff.Unified(from, "b/"+path, old, change(old))
	if diff == "" {
		return path + ": no change"
	}
	return diff
}
