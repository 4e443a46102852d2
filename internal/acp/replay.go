package acp

import (
	"context"
	"encoding/json"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
)

// replay sends a loaded conversation to the editor as the updates it
// would have seen: the person's prompts as typed, the answers, each call
// with how it ended, and the model's task list as it last kept it.
func (s *server) replay(ctx context.Context, l *live) {
	for _, m := range l.sess.Messages() {
		for _, u := range replayed(m, l, s.opts.Host.Lookup) {
			s.update(ctx, l.id, u)
		}
	}
	if ts := l.sess.Todos(); len(ts) > 0 {
		s.update(ctx, l.id, planUpdate(ts))
	}
}

// replayed is one message of a conversation as updates.
func replayed(m llm.Message, l *live, lookup func(string) (tools.Tool, bool)) []sdk.SessionUpdate {
	var out []sdk.SessionUpdate
	switch m.Role {
	case llm.RoleUser:
		text := m.Text
		if typed := l.sess.Typed(m.Text); typed != "" {
			text = typed
		}
		out = append(out, sdk.UpdateUserMessageText(text))
	case llm.RoleAssistant:
		if m.Text != "" {
			out = append(out, sdk.UpdateAgentMessageText(m.Text))
		}
		for _, tc := range m.ToolCalls {
			c := &agent.Call{ID: tc.ID, Name: tc.Name, Raw: tc.Arguments}
			_ = json.Unmarshal(tc.Arguments, &c.Args)
			t, _ := lookup(tc.Name)
			out = append(out, sdk.StartToolCall(sdk.ToolCallId(tc.ID), title(c, t, l.dir),
				sdk.WithStartKind(kindOf(tc.Name, t)), sdk.WithStartStatus(sdk.ToolCallStatusPending),
				sdk.WithStartLocations(locations(c, l.dir)), sdk.WithStartRawInput(rawInput(c))))
		}
	case llm.RoleTool:
		if r := m.Result; r != nil {
			st := sdk.ToolCallStatusCompleted
			if r.IsError {
				st = sdk.ToolCallStatusFailed
			}
			out = append(out, sdk.UpdateToolCall(sdk.ToolCallId(r.CallID), sdk.WithUpdateStatus(st),
				sdk.WithUpdateContent(textContent(tail(r.Content)))))
		}
	}
	return out
}
