package commands

import (
	"context"
	"strings"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/render"
)

// modeCycle is the order /plan and Shift+Tab go through the approval
// modes. yolo is left out: it is chosen by name (/mode yolo), never
// reached by pressing a key once too often.
var modeCycle = []permission.Mode{permission.ModeAsk, permission.ModeAutoEdit, permission.ModePlan}

// nextMode is the mode after m in modeCycle; ask after yolo.
func nextMode(m permission.Mode) permission.Mode {
	for i, c := range modeCycle {
		if c == m {
			return modeCycle[(i+1)%len(modeCycle)]
		}
	}
	return permission.ModeAsk
}

// modeMeaning says in a few words what a mode lets the agent do.
func modeMeaning(m permission.Mode) string {
	switch m {
	case permission.ModeAutoEdit:
		return "file edits in the working directory run without asking"
	case permission.ModeYolo:
		return "every call runs without asking, but those a deny rule refuses"
	case permission.ModePlan:
		return "the agent only reads, then proposes a plan for you to approve"
	}
	return "reads run; every change asks"
}

func modeCommand() Command {
	return Command{
		Name: "mode", Usage: "/mode [ask|auto-edit|plan|yolo]", Summary: "Show or change the approval mode", Where: ShellOnly, Args: AtMost(1),
		Help: "Without an argument, shows the approval mode; with one, changes it from the next call on: ask (reads run, every " +
			"change asks), auto-edit (file edits in the working directory run without asking), plan (the agent only reads, then " +
			"proposes a plan for you to approve), yolo (everything runs but what a deny rule refuses). /plan and Shift+Tab go " +
			"through ask, auto-edit and plan in turn; the prompt shows the mode when it is not ask.",
		Example: "/mode plan\n/mode auto-edit",
		Run: func(_ context.Context, env *Env, inv Invocation) int {
			if env.Policy == nil {
				return env.Fail(ExitFailed, "error", "no approval policy in this session")
			}
			if len(inv.Args) == 0 {
				m := env.Policy.Mode()
				env.Printer().Value("Approval mode: "+m.String()+" ("+modeMeaning(m)+").", map[string]any{"mode": m.String()})
				return ExitOK
			}
			m, err := permission.ParseMode(inv.Args[0])
			if err != nil {
				return env.Usage(modeCommand(), inv, err.Error())
			}
			env.setMode(m)
			return ExitOK
		},
	}
}

func planCommand() Command {
	return Command{
		Name: "plan", Usage: "/plan", Summary: "Go to the next approval mode: ask, auto-edit, plan", Where: ShellOnly, Args: AtMost(0),
		Help: "Changes the approval mode to the next of ask, auto-edit and plan (from yolo, to ask), as Shift+Tab does on a " +
			"terminal that sends it. In plan mode the agent reads and searches only, then puts a plan to you: approve it " +
			"(and let its edits run, or keep approving each change), or send it back with what to change.",
		Run: func(_ context.Context, env *Env, _ Invocation) int {
			if env.Policy == nil {
				return env.Fail(ExitFailed, "error", "no approval policy in this session")
			}
			env.setMode(nextMode(env.Policy.Mode()))
			return ExitOK
		},
	}
}

// setMode changes the approval mode and says so.
func (e *Env) setMode(m permission.Mode) {
	e.Policy.SetMode(m)
	e.Printer().Value("Approval mode: "+m.String()+" ("+modeMeaning(m)+").", map[string]any{"mode": m.String()})
}

// CycleMode goes to the next approval mode without a word: the shell's
// prompt, drawn again, shows it (Shift+Tab).
func (s *Shell) CycleMode() {
	if s.env.Policy != nil {
		s.env.Policy.SetMode(nextMode(s.env.Policy.Mode()))
	}
}

// ApprovePlan puts the model's plan to the person: rendered, then one key
// (y approves and switches to auto-edit, k approves and keeps asking, n
// keeps planning and reads a line of what to change).
func (t terminalApprover) ApprovePlan(ctx context.Context, plan string) (agent.PlanAnswer, error) {
	color := t.env.Renderer != nil && t.env.IO.OutTerminal
	q := render.PlanQuestion(plan, t.env.TermWidth(), color)
	for wrong := 0; wrong < maxWrongAnswers; wrong++ {
		answer, err := t.env.askChoice(ctx, q, render.PlanKeys)
		if err != nil {
			return agent.PlanAnswer{}, err
		}
		switch strings.ToLower(answer) {
		case "y", "yes":
			return agent.PlanAnswer{Choice: agent.ApproveAutoEdit}, nil
		case "k", "keep":
			return agent.PlanAnswer{Choice: agent.ApproveAsk}, nil
		case "n", "no", "":
			why, err := t.env.Ask(ctx, "What should change? (one line, Enter sends it):")
			if err != nil {
				return agent.PlanAnswer{}, err
			}
			return agent.PlanAnswer{Choice: agent.KeepPlanning, Comment: strings.TrimSpace(why)}, nil
		}
		q = render.Fit("Answer y (yes, auto-edit), k (yes, keep asking) or n (no, keep planning).", t.env.TermWidth())
	}
	return agent.PlanAnswer{Choice: agent.KeepPlanning}, nil
}
