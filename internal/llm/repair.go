package llm

import "fmt"

// CancelledResult is what a call that never got its result is answered
// with, so that the conversation stays valid for the provider. The agent
// answers the calls a stopped run did not reach with the same words, so a
// model reads one message whether the cut was seen live or found on load.
const CancelledResult = "Cancelled: the run was interrupted before this call finished."

// Repair makes msgs valid for a provider, which refuses a request whose
// tool calls are not each answered exactly once, right after the message
// that made them: a missing result becomes a cancelled one, a result with
// no call or a second result for a call is dropped. It returns the repaired
// messages and what it changed, for a warning. When all was well there are
// no notes and msgs itself comes back, so a caller can skip the copy.
//
// It lives here, not in the agent, because a conversation read back from a
// session log needs the same repair as one cut short in memory, and the
// session store must not depend on the agent.
func Repair(msgs []Message) ([]Message, []string) {
	var (
		out     []Message // a copy, made at the first change
		changed bool
		notes   []string
		pending []ToolCall // calls of the last assistant message not answered yet
		seen    map[string]bool
	)
	// change starts the copy with the messages before i, which stand.
	change := func(i int) {
		if !changed {
			out, changed = append(make([]Message, 0, len(msgs)+len(pending)), msgs[:i]...), true
		}
	}
	closeRound := func(i int) {
		for _, call := range pending {
			if !seen[call.ID] {
				change(i)
				out = append(out, Message{Role: RoleTool, Result: &ToolResult{
					CallID: call.ID, Name: call.Name, Content: CancelledResult, IsError: true}})
				notes = append(notes, fmt.Sprintf("call %s (%s) had no result: answered as cancelled", call.ID, call.Name))
			}
		}
		pending, seen = nil, nil
	}
	for i, m := range msgs {
		if m.Role != RoleTool {
			closeRound(i)
			if m.Role == RoleAssistant && len(m.ToolCalls) > 0 {
				pending, seen = m.ToolCalls, map[string]bool{}
			}
		} else if m.Result == nil || !answers(pending, m.Result.CallID) || seen[m.Result.CallID] {
			change(i)
			notes = append(notes, "dropped a tool result that answers no call")
			continue
		} else {
			seen[m.Result.CallID] = true
		}
		if changed {
			out = append(out, m)
		}
	}
	closeRound(len(msgs))
	if !changed {
		return msgs, nil
	}
	return out, notes
}

// answers reports whether one of calls has the given id.
func answers(calls []ToolCall, id string) bool {
	for _, c := range calls {
		if c.ID == id {
			return true
		}
	}
	return false
}
