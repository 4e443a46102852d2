package commands

import (
	"context"
	"errors"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// terminalApprover asks the person at the terminal: the call in full (the
// command, or the file and the diff of the change), then y, a or n, and s
// to show what a long preview hides.
type terminalApprover struct{ env *Env }

// maxWrongAnswers is how many answers that are none of the choices a
// question takes before it counts as a no.
const maxWrongAnswers = 3

func (t terminalApprover) Approve(ctx context.Context, a agent.Approval) (agent.Answer, error) {
	color := t.env.Renderer != nil && t.env.IO.OutTerminal
	ap := render.Approval{Tool: a.Call.Name, Preview: preview(a), Reason: a.Reason, Always: a.Always}
	q := render.ApprovalQuestion(ap, color)
	for wrong := 0; wrong < maxWrongAnswers; {
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
		case "s", "show all":
			if ap.Hides() {
				ap.ShowAll = true
				q = render.ApprovalQuestion(ap, color)
				continue
			}
		}
		wrong++
		q = "Answer y (yes, once), a (always) or n (no)."
		if ap.Hides() {
			q = "Answer y (yes, once), a (always), s (show all) or n (no)."
		}
	}
	return agent.Reject, nil
}

// preview shows a call in full: Bash's command; the change a file-editing
// tool would make, worked out by the tool itself (a diff, why it cannot be
// shown, or why the call would fail); or the arguments.
func preview(a agent.Approval) string {
	c := a.Call
	if c.Name == "Bash" {
		return "$ " + c.Args.String("command")
	}
	if a.Tool != nil && c.Args != nil {
		change, err := tools.PreviewChange(a.Tool, a.Exec, c.Args)
		switch {
		case err == nil:
			return render.ChangePreview(change)
		case !errors.Is(err, tools.ErrNoPreview):
			return "This call would fail, changing nothing: " + err.Error()
		}
	}
	if c.Args == nil {
		return string(c.Raw)
	}
	b, err := render.EncodeJSON(c.Args)
	if err != nil {
		return string(c.Raw)
	}
	return strings.TrimSpace(string(b))
}
