package agent

import (
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// textCalls reads the calls of an assistant's text in the text format. The
// blocks that cannot be read are kept in r.parseErrs: the model is told
// what was wrong with them.
func (r *run) textCalls(text string) []llm.ToolCall {
	calls, err := llm.ParseToolCalls(text)
	if err != nil {
		r.parseErrs = append(r.parseErrs, err.Error())
		r.notice("unreadable tool call: " + err.Error())
	}
	return calls
}

// textMessages is the conversation in the text format: assistant messages
// carry their calls in their text already; each round's results become one
// user message of <tool_result> blocks, with the images they returned.
func textMessages(msgs []llm.Message) []llm.Message {
	out := make([]llm.Message, 0, len(msgs))
	var results []llm.ToolResult
	var images []llm.Image
	flush := func() {
		if len(results) > 0 {
			out = append(out, llm.Message{Role: llm.RoleUser, Text: llm.FormatTextToolResults(results), Images: images})
			results, images = nil, nil
		}
	}
	for _, m := range msgs {
		if m.Role == llm.RoleTool && m.Result != nil {
			results = append(results, *m.Result)
			images = append(images, m.Result.Images...)
			continue
		}
		flush()
		if m.Role == llm.RoleAssistant {
			m.ToolCalls = nil
		}
		out = append(out, m)
	}
	flush()
	return out
}

// unreadableCalls tells the model which of its call blocks could not be
// read, so that it can write them again.
func unreadableCalls(errs []string) string {
	return "Some of your tool calls could not be read and were not run: " + strings.Join(errs, "; ") +
		". Write each call as a <tool> block holding one JSON object with \"tool_name\" and \"arguments\"."
}
