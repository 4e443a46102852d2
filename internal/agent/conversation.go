package agent

import (
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

// cancelledResult is what a call the run never reached is answered with;
// it is the repair's text, so a cut looks the same live and on resume.
const cancelledResult = llm.CancelledResult

// Repair makes the conversation valid for a provider (see llm.Repair: a
// missing result becomes a cancelled one, a result with no call or a
// second result for a call is dropped). It returns what it changed, for a
// warning; nothing when all was well.
func (c *Conversation) Repair() []string {
	msgs, notes := llm.Repair(c.Messages)
	c.Messages = msgs
	return notes
}

// toolMessage is the message answering call.
func toolMessage(call llm.ToolCall, content string, isError bool) llm.Message {
	return llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: call.ID, Name: call.Name, Content: content, IsError: isError}}
}
