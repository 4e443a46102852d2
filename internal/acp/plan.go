package acp

import (
	"context"
	"errors"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/agent"
)

// planUpdate is the model's task list as the editor's plan, whole (the
// editor replaces its plan with each one). forge's items have no
// priority: each is medium.
func planUpdate(ts agent.Todos) sdk.SessionUpdate {
	entries := make([]sdk.PlanEntry, 0, len(ts))
	for _, t := range ts {
		entries = append(entries, sdk.PlanEntry{Content: t.Content, Priority: sdk.PlanEntryPriorityMedium, Status: entryStatus(t.Status)})
	}
	return sdk.UpdatePlan(entries...)
}

// entryStatus is an item's status as the protocol says it; the two agree.
func entryStatus(s agent.TodoStatus) sdk.PlanEntryStatus {
	switch s {
	case agent.TodoInProgress:
		return sdk.PlanEntryStatusInProgress
	case agent.TodoCompleted:
		return sdk.PlanEntryStatusCompleted
	}
	return sdk.PlanEntryStatusPending
}

// The options of the question about a plan: forge's three answers.
const (
	optPlanAutoEdit = "approve_auto_edit"
	optPlanAsk      = "approve_ask"
	optPlanKeep     = "keep_planning"
)

var planOptions = []sdk.PermissionOption{
	{OptionId: optPlanAutoEdit, Name: "Approve, and run edits without asking (auto-edit)", Kind: sdk.PermissionOptionKindAllowAlways},
	{OptionId: optPlanAsk, Name: "Approve, and ask before each change (ask)", Kind: sdk.PermissionOptionKindAllowOnce},
	{OptionId: optPlanKeep, Name: "Keep planning", Kind: sdk.PermissionOptionKindRejectOnce},
}

// ApprovePlan puts the model's plan to the person through the editor: the
// plan call, its content the plan in Markdown. The protocol's answer is
// an option and no words, so keeping on planning carries no comment.
func (t *turn) ApprovePlan(ctx context.Context, plan string) (agent.PlanAnswer, error) {
	keep := agent.PlanAnswer{Choice: agent.KeepPlanning}
	upd := sdk.ToolCallUpdate{ToolCallId: t.planCall(plan), Title: sdk.Ptr("Plan: approve it?"),
		Kind: sdk.Ptr(sdk.ToolKindSwitchMode), Status: sdk.Ptr(sdk.ToolCallStatusPending), Content: textContent(plan)}
	resp, err := t.s.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: t.l.id, ToolCall: upd, Options: planOptions})
	switch {
	case ctx.Err() != nil:
		return keep, ctx.Err()
	case err != nil:
		return keep, fmt.Errorf("the editor did not answer: %w", err)
	case resp.Outcome.Cancelled != nil:
		return keep, context.Canceled
	case resp.Outcome.Selected == nil:
		return keep, errors.New("the editor's answer chose no option")
	}
	switch id := string(resp.Outcome.Selected.OptionId); id {
	case optPlanAutoEdit:
		return agent.PlanAnswer{Choice: agent.ApproveAutoEdit}, nil
	case optPlanAsk:
		return agent.PlanAnswer{Choice: agent.ApproveAsk}, nil
	case optPlanKeep:
		return keep, nil
	default:
		return keep, fmt.Errorf("the editor chose %q, which forge did not offer", id)
	}
}

// planShown notes the call that put plan to the person, for the question
// that follows it.
func (t *turn) planShown(c *agent.Call, plan string) {
	if c == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.plans[plan] = c.ID
}

// planCall is the call that gave plan; "plan" when none did (the
// question then stands alone).
func (t *turn) planCall(plan string) sdk.ToolCallId {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.plans[plan]; ok {
		return sdk.ToolCallId(id)
	}
	return "plan"
}
