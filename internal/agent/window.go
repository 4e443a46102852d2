package agent

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// windowCount is how full the model's window was at the last answer, as
// the provider counted it.
type windowCount struct {
	// tokens are the last request's input and its answer.
	tokens int64
	// counted is how many messages of the conversation that covers.
	counted int
}

// bytesPerToken is the estimate of text's tokens before a provider has
// counted it: about four bytes a token for English and code.
const bytesPerToken = 4

// imageTokens is the estimate of an image's tokens: what the providers
// charge for one at the largest size they take without scaling it down
// (Anthropic: about 1,600; OpenAI's high detail: up to about 1,100).
const imageTokens = 1600

// estimateText is the tokens of s, estimated.
func estimateText(s string) int64 { return int64(len(s)+bytesPerToken-1) / bytesPerToken }

// estimateMessages is the tokens of msgs, estimated, with a few for each
// message's framing.
func estimateMessages(msgs []llm.Message) int64 {
	var n int64
	for _, m := range msgs {
		n += 4 + estimateText(m.Text) + int64(len(m.Images))*imageTokens
		for _, r := range m.Reasoning {
			n += 4 + estimateText(r.Text) + estimateText(r.Redacted)
		}
		for _, c := range m.ToolCalls {
			n += 8 + estimateText(c.Name) + estimateText(string(c.Arguments))
		}
		if m.Result != nil {
			n += 8 + estimateText(m.Result.Content) + int64(len(m.Result.Images))*imageTokens
		}
	}
	return n
}

// fixedTokens is what every request holds besides the conversation: the
// system prompt and the tool specs, which a count must not forget.
func (r *run) fixedTokens() int64 {
	if r.fixed == 0 {
		b, _ := json.Marshal(r.specs)
		r.fixed = estimateText(r.a.cfg.System) + estimateText(string(b))
	}
	return r.fixed
}

// estimate is the tokens the next request will hold (Conversation.Tokens,
// with this run's system prompt and tools).
func (r *run) estimate() int64 {
	r.conv.fixed = r.fixedTokens()
	return r.conv.Tokens()
}

// Tokens is about how many tokens the next request of the conversation
// will hold: the provider's count of the last one plus an estimate of
// what was added since, or an estimate of it all (with the system prompt
// and tools of the last run) before the provider has counted anything.
// A shell shows it against the model's window.
func (c *Conversation) Tokens() int64 {
	msgs, w := c.Messages, c.window
	if w.tokens > 0 && w.counted <= len(msgs) {
		return w.tokens + estimateMessages(msgs[w.counted:])
	}
	if len(msgs) == 0 {
		return 0
	}
	return c.fixed + estimateMessages(msgs)
}

// counted records the provider's count of the request just answered; the
// answer is the next message of the conversation.
func (r *run) counted(u llm.Usage) {
	if u.InputTokens > 0 {
		r.conv.window = windowCount{tokens: u.InputTokens + u.OutputTokens, counted: len(r.conv.Messages) + 1}
	}
}

// maxResultBytes bounds a tool result as the model receives it: one
// result should not take a sixth of a 200k window. The person still sees
// it whole.
const maxResultBytes = 32 * 1024

// forModel is a tool's output as the model receives it: whole when short,
// else its head and tail with a note of what was cut and how to see it.
func forModel(out string) string {
	if len(out) <= maxResultBytes {
		return out
	}
	head, tail := cutAtLine(out, maxResultBytes*2/3, true), cutAtLine(out, maxResultBytes/3, false)
	cut := len(out) - len(head) - len(tail)
	return head + fmt.Sprintf("\n[... %d bytes cut from the middle of this output, which had %d; "+
		"narrow the call (a range of lines, a more specific pattern) to see the part you need ...]\n", cut, len(out)) + tail
}

// cutAtLine is about n bytes of s from its start (or its end), cut at a
// line break when one is near, never inside a character.
func cutAtLine(s string, n int, fromStart bool) string {
	if fromStart {
		part := s[:n]
		if i := strings.LastIndexByte(part, '\n'); i > n/2 {
			return part[:i+1]
		}
		return strings.ToValidUTF8(part, "")
	}
	part := s[len(s)-n:]
	if i := strings.IndexByte(part, '\n'); i >= 0 && i < n/2 {
		return part[i+1:]
	}
	return strings.ToValidUTF8(part, "")
}
