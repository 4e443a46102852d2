package agent

import (
	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/tools"
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
	// Todos is the model's task list (TodoWrite), kept apart from the
	// messages so that a compaction does not lose it.
	Todos Todos
	// logErr is the log's first failure, reported once by the run.
	logErr error
	// window is what the last request held as the provider counted it.
	window windowCount
	// fixed is the estimate of the last run's system prompt and tools,
	// which every request holds besides the messages.
	fixed int64
	// started says the SessionStart hooks ran for this conversation.
	started bool
	// attached are the images the next prompt shows the model (Attach).
	attached []llm.Image
}

// Recorder keeps a conversation as it happens.
type Recorder interface {
	// Prompt records the person's prompt, a user message.
	Prompt(text string) error
	// Append records any other message.
	Append(m llm.Message) error
	// Result records a tool result: m as the model reads it, and shown,
	// the whole output the person was shown when the model reads a cut
	// of it ("" when it reads the same), so that the record holds what
	// each of them saw.
	Result(m llm.Message, shown string) error
	// Usage records what one request used and cost.
	Usage(u llm.Usage, costUSD float64) error
	// Compaction records that the conversation became replacement (a
	// summary and the recent turns); what came before stays on record.
	Compaction(replacement []llm.Message, note string) error
	// Record keeps another event for the record (a subagent's messages).
	Record(kind string, data any) error
}

// append adds messages, recording each.
func (c *Conversation) append(ms ...llm.Message) {
	c.Messages = append(c.Messages, ms...)
	if c.Log == nil {
		return
	}
	for _, m := range ms {
		c.noteLogErr(c.Log.Append(m))
	}
}

// appendResult adds a tool result, whose content is a cut of shown when
// the two differ, recording both.
func (c *Conversation) appendResult(m llm.Message, shown string) {
	c.Messages = append(c.Messages, m)
	if c.Log == nil {
		return
	}
	if shown == m.Result.Content {
		shown = ""
	}
	c.noteLogErr(c.Log.Result(m, shown))
}

// ImageRecorder is a Recorder that keeps a prompt's images with it.
type ImageRecorder interface {
	PromptImages(text string, images []llm.Image) error
}

// Attach has the next prompt show the model images (a screenshot the
// person named in it).
func (c *Conversation) Attach(images ...llm.Image) { c.attached = append(c.attached, images...) }

// Attached are the images the next prompt will show the model.
func (c *Conversation) Attached() []llm.Image { return c.attached }

// appendPrompt adds the person's prompt, with the images attached to it,
// recording it as one.
func (c *Conversation) appendPrompt(text string) {
	images := c.attached
	c.attached = nil
	c.Messages = append(c.Messages, llm.Message{Role: llm.RoleUser, Text: text, Images: images})
	if c.Log == nil {
		return
	}
	if ir, ok := c.Log.(ImageRecorder); ok && len(images) > 0 {
		c.noteLogErr(ir.PromptImages(text, images))
		return
	}
	c.noteLogErr(c.Log.Prompt(text))
}

// recordUsage records one request's usage.
func (c *Conversation) recordUsage(u llm.Usage, cost float64) {
	if c.Log != nil {
		c.noteLogErr(c.Log.Usage(u, cost))
	}
}

// noteLogErr keeps the log's first failure.
func (c *Conversation) noteLogErr(err error) {
	if err != nil && c.logErr == nil {
		c.logErr = err
	}
}

// replace makes msgs the conversation after a compaction, recording it.
func (c *Conversation) replace(msgs []llm.Message, note string) {
	c.Messages, c.window = msgs, windowCount{}
	if c.Log == nil {
		return
	}
	c.noteLogErr(c.Log.Compaction(msgs, note))
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

// llmImages are a tool's images as the model is given them.
func llmImages(images []tools.Image) []llm.Image {
	if len(images) == 0 {
		return nil
	}
	out := make([]llm.Image, len(images))
	for i, im := range images {
		out[i] = llm.Image{MediaType: im.MediaType, Data: im.Data}
	}
	return out
}

// toolMessage is the message answering call.
func toolMessage(call llm.ToolCall, content string, isError bool) llm.Message {
	return llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: call.ID, Name: call.Name, Content: content, IsError: isError}}
}
