package agent

import (
	"fmt"

	"github.com/forgehq/forge/internal/llm"
)

// Conversation is the messages exchanged so far. A shell keeps one from
// prompt to prompt; a run appends to it as things happen, the model's
// message with its calls before any of those calls runs, so that an
// interrupt never leaves a round half-recorded.
type Conversation struct {
	Messages []llm.Message
}

// Clear forgets the conversation.
func (c *Conversation) Clear() { c.Messages = nil }

// append adds messages.
func (c *Conversation) append(ms ...llm.Message) { c.Messages = append(c.Messages, ms...) }

// cancelledResult is what a call that never got its result is answered
// with, so that the conversation stays valid for the provider.
const cancelledResult = "Cancelled: the run was interrupted before this call finished."

// Repair makes the conversation valid for a provider, which refuses a
// request whose tool calls are not each answered exactly once, right
// after the message that made them: a missing result becomes a cancelled
// one, a result with no call or a second result for a call is dropped. It
// returns what it changed, for a warning; nothing when all was well.
func (c *Conversation) Repair() []string {
	if c.valid() {
		return nil
	}
	var (
		out     []llm.Message
		notes   []string
		pending []llm.ToolCall // calls of the last assistant message not answered yet
		seen    map[string]bool
	)
	closeRound := func() {
		for _, call := range pending {
			if !seen[call.ID] {
				out = append(out, toolMessage(call, cancelledResult, true))
				notes = append(notes, fmt.Sprintf("call %s (%s) had no result: answered as cancelled", call.ID, call.Name))
			}
		}
		pending, seen = nil, nil
	}
	for _, m := range c.Messages {
		if m.Role != llm.RoleTool {
			closeRound()
			out = append(out, m)
			if m.Role == llm.RoleAssistant && len(m.ToolCalls) > 0 {
				pending, seen = m.ToolCalls, map[string]bool{}
			}
			continue
		}
		if m.Result == nil || !answers(pending, m.Result.CallID) || seen[m.Result.CallID] {
			notes = append(notes, "dropped a tool result that answers no call")
			continue
		}
		seen[m.Result.CallID] = true
		out = append(out, m)
	}
	closeRound()
	if len(notes) > 0 {
		c.Messages = out
	}
	return notes
}

// valid reports that Repair has nothing to do: each tool call is answered
// once, right after the message that made it, and no result answers
// nothing. It allocates nothing: the loop checks before every request, and
// copying the whole conversation each time made a long session's requests
// cost more and more. (It may say false for a conversation Repair leaves
// as it is, one whose calls share an ID; Repair then decides.)
func (c *Conversation) valid() bool {
	var pending []llm.ToolCall // calls of the last assistant message
	round := 0                 // where their results begin
	for i, m := range c.Messages {
		if m.Role != llm.RoleTool {
			if i-round < len(pending) {
				return false // a call without a result
			}
			pending, round = nil, i+1
			if m.Role == llm.RoleAssistant {
				pending = m.ToolCalls
			}
			continue
		}
		if m.Result == nil || !answers(pending, m.Result.CallID) {
			return false
		}
		for _, prev := range c.Messages[round:i] {
			if prev.Result.CallID == m.Result.CallID {
				return false // a second result for a call
			}
		}
	}
	return len(c.Messages)-round >= len(pending)
}

func answers(calls []llm.ToolCall, id string) bool {
	for _, c := range calls {
		if c.ID == id {
			return true
		}
	}
	return false
}

// toolMessage is the message answering call.
func toolMessage(call llm.ToolCall, content string, isError bool) llm.Message {
	return llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: call.ID, Name: call.Name, Content: content, IsError: isError}}
}
