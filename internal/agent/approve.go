package agent

import (
	"context"

	"github.com/forgehq/forge/internal/tools"
)

// Answer is the person's answer about a call.
type Answer int

// The answers.
const (
	// Reject refuses the call; the model is told so.
	Reject Answer = iota
	// AllowOnce runs the call.
	AllowOnce
	// AllowAlways runs the call and remembers the Approval's Always rules
	// for the rest of the session.
	AllowAlways
)

// Approval is a question put to the person about one call.
type Approval struct {
	Call Call
	// Tool is the call's tool (nil when none has its name), and Exec the
	// context it will run in: what an approver needs to show exactly
	// what the call would do (tools.PreviewChange).
	Tool tools.Tool
	Exec tools.ExecutionContext
	// Reason says why the policy asks and how to allow such calls,
	// without naming the call, which the question shows (no rule allows
	// it; add an allow rule such as ...).
	Reason string
	// Always are the rules "always" would add for this session.
	Always []string
}

// Approver asks the person whether a call may run. It is called from the
// run's goroutine, one call at a time; it must return when ctx ends.
type Approver interface {
	Approve(ctx context.Context, a Approval) (Answer, error)
}

// FeedbackApprover is an Approver whose person may say why they refuse a
// call: a Reject with feedback tells the model their words, so that it can
// change course rather than guess.
type FeedbackApprover interface {
	Approver
	// ApproveWithFeedback is Approve with the person's words on a Reject
	// ("" when they gave none).
	ApproveWithFeedback(ctx context.Context, a Approval) (Answer, string, error)
}

// askApprover puts a to ap, with the person's feedback when ap takes it.
func askApprover(ctx context.Context, ap Approver, a Approval) (Answer, string, error) {
	if f, ok := ap.(FeedbackApprover); ok {
		return f.ApproveWithFeedback(ctx, a)
	}
	ans, err := ap.Approve(ctx, a)
	return ans, "", err
}
