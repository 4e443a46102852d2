package acp

import (
	"encoding/json"
	"testing"

	"github.com/forgehq/forge/internal/agent"
)

func TestPlanUpdate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		todos agent.Todos
		want  string
	}{
		{"an emptied list clears the plan", nil, `{"entries":[],"sessionUpdate":"plan"}`},
		{"each status", agent.Todos{
			{Content: "Read", Status: agent.TodoCompleted},
			{Content: "Fix", Status: agent.TodoInProgress, ActiveForm: "Fixing"},
			{Content: "Test", Status: agent.TodoPending},
			{Content: "Odd", Status: "blocked"},
		}, `{"entries":[{"content":"Read","priority":"medium","status":"completed"},` +
			`{"content":"Fix","priority":"medium","status":"in_progress"},` +
			`{"content":"Test","priority":"medium","status":"pending"},` +
			`{"content":"Odd","priority":"medium","status":"pending"}],"sessionUpdate":"plan"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(planUpdate(tc.todos))
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
}
