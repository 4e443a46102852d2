package agent

import (
	"context"
	"errors"
	"strings"

	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

// PlanToolName is the tool with which the model, in plan mode, puts its
// plan to the person, as models trained on other agents know it.
const PlanToolName = "ExitPlanMode"

// planModePrompt is added to the system prompt in plan mode.
const planModePrompt = "\n\nPlan mode is on: the person wants a plan before anything changes. You may only read, search and " +
	"run commands that change nothing; the tools that edit are not offered, and calls that would change something are " +
	"refused. Find out what you need, then call " + PlanToolName + " with your plan in Markdown: the steps, the files " +
	"each touches, and how the result will be checked. Do not start the work until the person approves the plan."

// PlanChoice is what the person decided about a plan.
type PlanChoice int

// The choices about a plan.
const (
	// KeepPlanning sends the model back to planning, with the person's
	// comment.
	KeepPlanning PlanChoice = iota
	// ApproveAutoEdit approves the plan and switches to auto-edit mode:
	// the model carries it out, its edits in the working directory
	// running without a question.
	ApproveAutoEdit
	// ApproveAsk approves the plan and switches to ask mode: the model
	// carries it out, the person asked before each change.
	ApproveAsk
)

// PlanAnswer is the person's answer about a plan.
type PlanAnswer struct {
	Choice PlanChoice
	// Comment is what the person wants changed (KeepPlanning); "" when
	// they said nothing.
	Comment string
}

// PlanApprover is an Approver that can put a plan to the person. A run
// whose Approver is none ends with the plan as its final answer.
type PlanApprover interface {
	Approver
	ApprovePlan(ctx context.Context, plan string) (PlanAnswer, error)
}

var planDescriptor = tools.Descriptor{
	Name: PlanToolName,
	Description: "In plan mode, put your plan to the person once you have found out enough: they read it, then approve " +
		"it (the approval mode changes so that you can carry it out) or tell you what to change. Use it only for a task " +
		"that changes something; answer questions directly.",
	Category: tools.CategoryTask,
	ReadOnly: true,
	Parameters: []tools.Parameter{{Name: "plan", Type: tools.TypeString, Required: true, MinLength: tools.Int(1),
		Description: "The plan, in Markdown: concise steps, the files each touches, how the result will be checked"}},
}

// planTool is ExitPlanMode as the agent's own registry holds it: the run
// puts the plan to the person (presentPlan).
type planTool struct{}

func (planTool) Name() string                  { return planDescriptor.Name }
func (planTool) Description() string           { return planDescriptor.Description }
func (planTool) Category() tools.Category      { return planDescriptor.Category }
func (planTool) Parameters() []tools.Parameter { return planDescriptor.Parameters }
func (planTool) IsReadOnly() bool              { return true }

func (planTool) Execute(_ context.Context, _ tools.ExecutionContext, args tools.Args) tools.Result {
	return tools.OK(strings.TrimSpace(args.String("plan")))
}

// presentPlan puts a plan the model gave with ExitPlanMode to the person
// and sets the call's result from their answer: approved (the approval
// mode changes and the run goes on with the work), or not (the model
// plans again, with their comment). With nobody to answer, the plan ends
// the run as its final answer.
func (r *run) presentPlan(ctx context.Context, p *pending) {
	plan := p.res.Output
	if !r.a.planMode() {
		p.res = refused(StatusFailed, "Plan mode is off (the approval mode is "+r.a.mode().String()+
			"): there is no plan to approve. Go on with the task.")
		return
	}
	r.emit(Event{Type: EventPlan, Call: &p.call, Text: plan})
	ap, ok := r.a.cfg.Approver.(PlanApprover)
	if !ok {
		p.res.Output = "The plan was given to the person as this task's final answer. Their reply comes as the next " +
			"message; they may change the approval mode for you to carry the plan out."
		r.done.Reason, r.done.Text, p.ends = ReasonStop, plan, true
		return
	}
	ans, err := ap.ApprovePlan(ctx, plan)
	switch {
	case err != nil && (ctx.Err() != nil || errors.Is(err, context.Canceled)):
		p.res = refusedFor(StatusCancelled, cancelledResult, "cancelled")
		r.done.Reason, p.ends = ReasonCancelled, true
	case err != nil:
		p.res = refusedFor(StatusFailed, "The plan could not be put to the person: "+err.Error()+
			". Give it as your answer instead.", "not asked: "+err.Error())
	case ans.Choice == ApproveAutoEdit:
		r.approvePlan(p, permission.ModeAutoEdit, "auto-edit: your edits in the working directory run without a question")
	case ans.Choice == ApproveAsk:
		r.approvePlan(p, permission.ModeAsk, "ask: the person approves each change as it comes")
	case strings.TrimSpace(ans.Comment) == "":
		// Without words the model can only guess what to change: the
		// prompt ends, and the person's next message says it.
		p.res = refusedFor(StatusDenied, "The person did not approve the plan. Plan mode stays on: what they want "+
			"changed comes as their next message; then revise the plan and call "+PlanToolName+" again.", "keep planning")
		r.done.Reason, p.ends = ReasonStop, true
	default:
		words := strings.TrimSpace(ans.Comment)
		p.res = refusedFor(StatusDenied, "The person did not approve the plan and wants you to keep planning; they said: \""+
			words+"\". Plan mode stays on: revise the plan, then call "+PlanToolName+" again.", "keep planning: "+words)
	}
}

// approvePlan switches to mode, in which the model carries the plan out.
func (r *run) approvePlan(p *pending, mode permission.Mode, how string) {
	r.a.cfg.Policy.SetMode(mode)
	p.res.Output = "The person approved the plan. The approval mode is now " + how + ". Carry the plan out now, " +
		"keeping your task list (" + TodoToolName + ") as you go."
	r.notice("plan approved: the approval mode is now " + mode.String())
}
