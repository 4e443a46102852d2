package builtin

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// fakeAsker answers with a fixed reply and records the question.
type fakeAsker struct {
	reply    string
	err      error
	question string
}

func (f *fakeAsker) Ask(ctx context.Context, q string) (string, error) {
	f.question = q
	if f.err != nil {
		return "", f.err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return f.reply, nil
}

func TestTaskCompletionAndConverse(t *testing.T) {
	tc, _ := newTaskCompletion(context.Background(), tools.Deps{})
	cv, _ := newConverse(context.Background(), tools.Deps{})
	r := tc.Execute(context.Background(), tools.ExecutionContext{}, tools.Args{"summary": "Fixed the bug."})
	if !r.Success || r.Output != "Fixed the bug." {
		t.Errorf("%+v", r)
	}
	r = cv.Execute(context.Background(), tools.ExecutionContext{}, tools.Args{"message": "Hello!"})
	if !r.Success || r.Output != "Hello!" {
		t.Errorf("%+v", r)
	}
	for _, tl := range []tools.Tool{tc, cv} {
		if !tools.IsLoopBreaking(tl) || tl.Category() != tools.CategoryTask {
			t.Errorf("%s not a loop-breaking task tool", tl.Name())
		}
	}
	if got := tc.(tools.DryRunner).DryRun(tools.ExecutionContext{}, tools.Args{"summary": "done"}); got != "Would complete the task with: done" {
		t.Errorf("%q", got)
	}
	if got := cv.(tools.DryRunner).DryRun(tools.ExecutionContext{}, tools.Args{"message": "hi"}); got != "Would say: hi" {
		t.Errorf("%q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := tc.Execute(ctx, tools.ExecutionContext{}, tools.Args{"summary": "x"}); r.Success {
		t.Error("cancelled task_completion succeeded")
	}
}

func TestAskQuestion(t *testing.T) {
	aq, _ := newAskQuestion(context.Background(), tools.Deps{})
	opts := []any{"Postgres", "SQLite"}
	cases := []struct {
		name  string
		asker *fakeAsker
		args  tools.Args
		ok    bool
		want  string
	}{
		{"free answer", &fakeAsker{reply: " blue \n"}, tools.Args{"question": "Colour?"}, true, "blue"},
		{"option by number", &fakeAsker{reply: "2"}, tools.Args{"question": "Database?", "options": opts}, true, "SQLite"},
		{"option out of range is kept as typed", &fakeAsker{reply: "3"}, tools.Args{"question": "Database?", "options": opts}, true, "3"},
		{"asker fails", &fakeAsker{err: errors.New("terminal closed")}, tools.Args{"question": "Q?"}, false, "The question could not be asked: terminal closed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ec := tools.ExecutionContext{Asker: c.asker}
			r := aq.Execute(context.Background(), ec, c.args)
			if r.Success != c.ok || (c.ok && r.Output != c.want) || (!c.ok && r.Error != c.want) {
				t.Fatalf("%+v", r)
			}
		})
	}
	a := &fakeAsker{reply: "1"}
	aq.Execute(context.Background(), tools.ExecutionContext{Asker: a}, tools.Args{"question": "Database?", "options": opts})
	if a.question != "Database?\n  1. Postgres\n  2. SQLite" {
		t.Errorf("asked %q", a.question)
	}
	// No person attached.
	r := aq.Execute(context.Background(), tools.ExecutionContext{}, tools.Args{"question": "Q?"})
	if r.Success || !strings.Contains(r.Error, "no") || !strings.Contains(r.Error, "person") {
		t.Errorf("%+v", r)
	}
	// Cancelled while asking.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = aq.Execute(ctx, tools.ExecutionContext{Asker: &fakeAsker{reply: "x"}}, tools.Args{"question": "Q?"})
	if r.Success || !strings.Contains(r.Error, "not answered") {
		t.Errorf("%+v", r)
	}
	if got := aq.(tools.DryRunner).DryRun(tools.ExecutionContext{}, tools.Args{"question": "Proceed?"}); got != "Would ask: Proceed?" {
		t.Errorf("%q", got)
	}
	if d := aq.(tools.Deadliner).CallTimeout(tools.ExecutionContext{}, nil); d != askTimeout {
		t.Errorf("CallTimeout %s", d)
	}
}
