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
// command, or the file and the diff of the change), then a single key: y,
// a (always, this session), A (always, saved in a settings file), n, t
// (no, with words for the model), and s to show what a long preview hides.
// Without a single-key reader it takes the same answers as lines.
type terminalApprover struct{ env *Env }

// maxWrongAnswers is how many answers that are none of the choices a
// question takes before it counts as a no.
const maxWrongAnswers = 3

func (t terminalApprover) Approve(ctx context.Context, a agent.Approval) (agent.Answer, error) {
	ans, _, err := t.ApproveWithFeedback(ctx, a)
	return ans, err
}

// ApproveWithFeedback asks, and returns the person's words with a
// refusal when they chose to give some.
func (t terminalApprover) ApproveWithFeedback(ctx context.Context, a agent.Approval) (agent.Answer, string, error) {
	color := t.env.Renderer != nil && t.env.IO.OutTerminal
	ap := render.Approval{Tool: a.Call.Name, Purpose: render.CallPurpose(a.Tool, a.Call.Args), Preview: preview(a), Reason: a.Reason, Always: a.Always,
		Save: len(t.env.settingsTargets()) > 0, Feedback: true, Width: t.env.TermWidth()}
	q := render.ApprovalQuestion(ap, color)
	for wrong := 0; wrong < maxWrongAnswers; {
		answer, err := t.env.askChoice(ctx, q, render.ApprovalKeys(ap))
		if err != nil {
			return agent.Reject, "", err
		}
		switch answer {
		case "y":
			return agent.AllowOnce, "", nil
		case "a":
			if len(a.Always) == 0 {
				return agent.AllowOnce, "", nil
			}
			t.env.Printer().Value("Allowed for this session: "+strings.Join(a.Always, ", ")+".",
				map[string]any{"allowed": a.Always, "until": "the session ends"})
			return agent.AllowAlways, "", nil
		case "A":
			if len(a.Always) > 0 && ap.Save {
				saved, err := t.env.saveAlways(ctx, a.Always)
				if err != nil {
					return agent.Reject, "", err
				}
				if saved {
					return agent.AllowAlways, "", nil
				}
				q = render.ApprovalQuestion(ap, color)
				continue
			}
		case "n", "":
			return agent.Reject, "", nil
		case "t":
			why, err := t.env.Ask(ctx, "Tell the model why (one line, Enter sends it):")
			if err != nil {
				return agent.Reject, "", err
			}
			return agent.Reject, strings.TrimSpace(why), nil
		case "s":
			if ap.Hides() {
				ap.ShowAll = true
				q = render.ApprovalQuestion(ap, color)
				continue
			}
		}
		wrong++
		q = render.Fit(wrongAnswerHint(ap), ap.Width)
	}
	return agent.Reject, "", nil
}

// askChoice puts question and returns the answer as one of the keys: the
// key pressed when the terminal reads single keys, else the line typed,
// read in any case ("Yes", "always"), but "A" apart from "a".
func (e *Env) askChoice(ctx context.Context, question, keys string) (string, error) {
	if e.AskKey != nil {
		return e.AskKey(ctx, question, keys)
	}
	line, err := e.Ask(ctx, question)
	if err != nil {
		return "", err
	}
	line = strings.TrimSpace(line)
	if line == "A" {
		return line, nil
	}
	switch line = strings.ToLower(line); line {
	case "yes":
		return "y", nil
	case "always":
		return "a", nil
	case "no":
		return "n", nil
	case "show all":
		return "s", nil
	case "tell":
		return "t", nil
	}
	return line, nil
}

// wrongAnswerHint names the answers a question takes.
func wrongAnswerHint(ap render.Approval) string {
	answers := []string{"y (yes, once)", "a (always)"}
	if ap.Save && len(ap.Always) > 0 {
		answers = append(answers, "A (always, saved)")
	}
	if ap.Hides() {
		answers = append(answers, "s (show all)")
	}
	answers = append(answers, "n (no)")
	if ap.Feedback {
		answers = append(answers, "t (no, and tell the model why)")
	}
	return "Answer " + strings.Join(answers[:len(answers)-1], ", ") + " or " + answers[len(answers)-1] + "."
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
			// The call's line names the file as the model did, relative
			// to the working directory: so does the diff's header.
			change.Path = render.RelPaths(a.Exec.WorkingDir, []string{change.Path})[0]
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
