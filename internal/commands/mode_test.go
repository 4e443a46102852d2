package commands

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

func TestNextMode(t *testing.T) {
	for from, want := range map[permission.Mode]permission.Mode{
		permission.ModeAsk: permission.ModeAutoEdit, permission.ModeAutoEdit: permission.ModePlan,
		permission.ModePlan: permission.ModeAsk, permission.ModeYolo: permission.ModeAsk,
	} {
		if got := nextMode(from); got != want {
			t.Errorf("after %s: %s, want %s", from, got, want)
		}
	}
}

// The plan's question: y approves with auto-edit, k approves and keeps
// asking, n reads what to change; Ctrl-C cancels.
func TestApprovePlan(t *testing.T) {
	for _, tc := range []struct {
		keys  []string
		lines []string
		want  agent.PlanAnswer
		err   bool
	}{
		{keys: []string{"y"}, want: agent.PlanAnswer{Choice: agent.ApproveAutoEdit}},
		{keys: []string{"k"}, want: agent.PlanAnswer{Choice: agent.ApproveAsk}},
		{keys: []string{"n"}, lines: []string{"  also update the README "}, want: agent.PlanAnswer{Choice: agent.KeepPlanning, Comment: "also update the README"}},
		{keys: []string{"?", "k"}, want: agent.PlanAnswer{Choice: agent.ApproveAsk}},
		{keys: nil, err: true},
	} {
		k := &keyAsker{keys: tc.keys}
		s := &scriptedAsker{answers: tc.lines}
		var out bytes.Buffer
		env := &Env{Ask: s.ask, AskKey: k.askKey, IO: IOStreams{Out: &out, Err: &out}}
		got, err := terminalApprover{env: env}.ApprovePlan(context.Background(), "## Plan\n\n1. Do **it**")
		if tc.err {
			if !errors.Is(err, context.Canceled) {
				t.Errorf("keys %q: %v, want cancelled", tc.keys, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("keys %q: %+v, %v; want %+v", tc.keys, got, err, tc.want)
		}
		if !strings.Contains(k.questions[0], "1. Do") || !strings.Contains(k.questions[0], "Approve this plan?") || k.allowed[0] != "ykn" {
			t.Errorf("question (keys %q):\n%s", k.allowed[0], k.questions[0])
		}
	}
}

// Bash's description is shown in its approval question.
func TestApprovalShowsThePurpose(t *testing.T) {
	call := approvalFor(t, t.TempDir(), "Bash", tools.Args{"command": "go test ./...", "description": "Run the tests"})
	k := &keyAsker{keys: []string{"y"}}
	env := &Env{AskKey: k.askKey, IO: IOStreams{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}}
	if _, _, err := (terminalApprover{env: env}).ApproveWithFeedback(context.Background(), call); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(k.questions[0], "Allow Bash (Run the tests)?\n  $ go test ./...\n") {
		t.Errorf("question:\n%s", k.questions[0])
	}
}
