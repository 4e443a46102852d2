package render

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

func TestProgressLine(t *testing.T) {
	for _, tc := range []struct {
		p    tools.Progress
		want string
	}{
		{tools.Progress{Progress: 3, Total: 10, Message: "indexing"}, "progress 3/10: indexing\n"},
		{tools.Progress{Progress: 0.25, Total: 1}, "progress 25%\n"},
		{tools.Progress{Progress: 7}, "progress 7\n"},
		{tools.Progress{Progress: 1, Total: 2, Message: "two\x1b[2J\nlines"}, "progress 1/2: two^[[2J\n"},
	} {
		if got := progressLine(tc.p); !strings.HasPrefix(got, tc.want) || strings.Count(got, "\n") != 1 {
			t.Errorf("%+v: %q, want %q", tc.p, got, tc.want)
		}
	}
}

// Progress shows as the running call's last line on a terminal, and as
// progress events in JSON.
func TestRunViewProgress(t *testing.T) {
	call := &agent.Call{ID: "c9", Name: "mcp__docs__index"}
	l := newLiveRun(nil)
	l.send(agent.Event{Type: agent.EventToolCall, Call: call}, agent.Event{Type: agent.EventToolStart, Call: call})
	l.send(agent.Event{Type: agent.EventToolProgress, Call: call, Progress: &tools.Progress{Progress: 2, Total: 5, Message: "pages"}})
	l.clock.advance(time.Second)
	l.v.live.onTick()
	if got := l.screen(); !strings.HasSuffix(got, "\n    progress 2/5: pages") {
		t.Errorf("screen: %q", got)
	}

	var o bytes.Buffer
	v := NewJSON(&o).Run(RunInfo{}, RunOptions{})
	v.Event(agent.Event{Type: agent.EventToolProgress, Call: call, Progress: &tools.Progress{Progress: 2, Total: 5, Message: "pages"}})
	v.Event(agent.Event{Type: agent.EventToolProgress, Call: call, Progress: &tools.Progress{Progress: 1}})
	lines := strings.Split(strings.TrimSpace(o.String()), "\n")[1:]
	want := []string{`{"type":"progress","id":"c9","name":"mcp__docs__index","progress":2,"total":5,"message":"pages"}`,
		`{"type":"progress","id":"c9","name":"mcp__docs__index","progress":1}`}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("JSON: %q", lines)
	}
}
