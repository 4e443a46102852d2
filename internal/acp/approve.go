package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

// The options of a permission request.
const (
	optAllowOnce   = "allow_once"
	optAllowAlways = "allow_always"
	optReject      = "reject_once"
)

// Approve puts a call to the person through the editor, where the shell
// would ask at the terminal: allow once, always (the rules the policy
// suggests, for the rest of the session, as the shell's "always"), or
// reject. An editor that answers "cancelled" cancels the prompt.
func (t *turn) Approve(ctx context.Context, a agent.Approval) (agent.Answer, error) {
	c := &a.Call
	upd := sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(c.ID), Title: sdk.Ptr(title(c, a.Tool, t.wd)),
		Kind: sdk.Ptr(kindOf(c.Name, a.Tool)), Status: sdk.Ptr(sdk.ToolCallStatusPending),
		Locations: locations(c, t.wd), RawInput: rawInput(c)}
	if d, ok := t.preview(a); ok {
		upd.Content = []sdk.ToolCallContent{d}
	} else if a.Reason != "" {
		upd.Content = textContent("forge asks: " + a.Reason)
	}
	resp, err := t.s.conn.RequestPermission(ctx, sdk.RequestPermissionRequest{SessionId: t.l.id, ToolCall: upd, Options: options(a.Always)})
	switch {
	case ctx.Err() != nil:
		return agent.Reject, ctx.Err()
	case err != nil:
		return agent.Reject, fmt.Errorf("the editor did not answer: %w", err)
	case resp.Outcome.Cancelled != nil:
		return agent.Reject, context.Canceled
	case resp.Outcome.Selected == nil:
		return agent.Reject, errors.New("the editor's answer chose no option")
	}
	switch id := string(resp.Outcome.Selected.OptionId); id {
	case optAllowOnce:
		return agent.AllowOnce, nil
	case optAllowAlways:
		if len(a.Always) == 0 {
			return agent.AllowOnce, nil
		}
		return agent.AllowAlways, nil
	case optReject:
		return agent.Reject, nil
	default:
		return agent.Reject, fmt.Errorf("the editor chose %q, which forge did not offer", id)
	}
}

// options are the answers offered: "always" only when the policy has a
// rule to remember (a call that must be approved each time has none).
func options(always []string) []sdk.PermissionOption {
	out := []sdk.PermissionOption{{OptionId: optAllowOnce, Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce}}
	if len(always) > 0 {
		out = append(out, sdk.PermissionOption{OptionId: optAllowAlways, Kind: sdk.PermissionOptionKindAllowAlways,
			Name: "Always allow " + strings.Join(always, ", ") + " in this session"})
	}
	return append(out, sdk.PermissionOption{OptionId: optReject, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce})
}

// preview is the change an edit would make, worked out by the code that
// would make it, for the person to see before answering; it is kept for
// the call's end.
func (t *turn) preview(a agent.Approval) (sdk.ToolCallContent, bool) {
	if a.Tool == nil {
		return sdk.ToolCallContent{}, false
	}
	ch, err := tools.PreviewChange(a.Tool, a.Exec, a.Call.Args)
	if err != nil {
		return sdk.ToolCallContent{}, false
	}
	d, ok := diff(ch)
	if !ok {
		return d, false
	}
	t.mu.Lock()
	if sc := t.calls[a.Call.ID]; sc != nil {
		sc.diff = &d
	}
	t.mu.Unlock()
	return d, true
}
