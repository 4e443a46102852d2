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
	// Log, when set, records each message as it is appended and each
	// compaction: the session log, which a resumed session is read from.
	Log Recorder
	// logErr is the log's first failure, reported once by the run.
	logErr error
	// window is what the last request held as the provider counted it.
	window windowCount
}

// Recorder keeps a conversation as it happens.
type Recorder interface {
	Append(m llm.Message) error
	// Compaction records that the conversation became replacement (a
	// summary and the recent turns); what came before stays on record.
	Compaction(replacement []llm.Message, note string) error
}

// Clear forgets the conversation. The log, if any, stays: the caller
// starts a new one for a new conversation.
func (c *Conversation) Clear() {
	c.Messages, c.window = nil, windowCount{}
}

// append adds messages, recording each.
func (c *Conversation) append(ms ...llm.Message) {
	c.Messages = append(c.Messages, ms...)
	if c.Log == nil {
		return
	}
	for _, m := range ms {
		if err := c.Log.Append(m); err != nil && c.logErr == nil {
			c.logErr = err
		}
	}
}

// replace makes msgs the conversation after a compaction, recording it.
func (c *Conversation) replace(msgs []llm.Message, note string) {
	c.Messages, c.window = msgs, windowCount{}
	if c.Log == nil {
		return
	}
	if err := c.Log.Compaction(msgs, note); err != nil && c.logErr == nil {
		c.logErr = err
	}
}

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
