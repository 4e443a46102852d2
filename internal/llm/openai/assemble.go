package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"

	"github.com/forgehq/forge/internal/llm"
)

// assembler builds one turn from its chunks. It holds what OpenAI sends
// and what the compatible servers send instead: tool-call fragments keyed
// by index with the ID and name in the first only, arguments in many
// pieces; every call at index 0 with distinct IDs (Ollama); a whole call
// in one chunk; no usage at all.
type assembler struct {
	text  strings.Builder
	calls []*partialCall
	// byIndex is the call each index is building now.
	byIndex  map[int64]*partialCall
	finish   string
	finished bool
	usage    llm.Usage
	model    string
	chunks   int
}

type partialCall struct {
	id, name string
	args     strings.Builder
}

// add takes one chunk, calling onDelta for its text and for each call
// that starts.
func (a *assembler) add(chunk *openai.ChatCompletionChunk, onDelta func(llm.Delta)) {
	a.chunks++
	if chunk.Model != "" {
		a.model = chunk.Model
	}
	if chunk.JSON.Usage.Valid() {
		u := chunk.Usage
		a.usage = llm.Usage{
			InputTokens:     u.PromptTokens,
			OutputTokens:    u.CompletionTokens,
			CacheReadTokens: u.PromptTokensDetails.CachedTokens,
		}
	}
	for i := range chunk.Choices {
		choice := &chunk.Choices[i]
		if choice.Index != 0 {
			continue // forge asks for one choice
		}
		d := &choice.Delta
		if text := d.Content + d.Refusal; text != "" {
			a.text.WriteString(text)
			onDelta(llm.Delta{Text: text})
		}
		for j := range d.ToolCalls {
			a.addCall(&d.ToolCalls[j], onDelta)
		}
		if choice.FinishReason != "" {
			a.finish = choice.FinishReason
			a.finished = true
		}
	}
}

// addCall takes one tool-call fragment. A fragment continues the call at
// its index, unless it brings a new ID while that call has another one:
// then it starts a new call.
func (a *assembler) addCall(tc *openai.ChatCompletionChunkChoiceDeltaToolCall, onDelta func(llm.Delta)) {
	if a.byIndex == nil {
		a.byIndex = map[int64]*partialCall{}
	}
	c := a.byIndex[tc.Index]
	if c == nil || (tc.ID != "" && c.id != "" && tc.ID != c.id) {
		c = &partialCall{}
		a.calls = append(a.calls, c)
		a.byIndex[tc.Index] = c
	}
	if c.id == "" {
		c.id = tc.ID
	}
	if name := tc.Function.Name; name != "" && c.name == "" {
		c.name = name
		onDelta(llm.Delta{ToolName: name})
	}
	c.args.WriteString(tc.Function.Arguments)
}

// response is the assembled turn.
func (a *assembler) response() llm.Response {
	msg := llm.Message{Role: llm.RoleAssistant, Text: a.text.String()}
	for i, c := range a.calls {
		id := c.id
		if id == "" {
			// A server that gives no ID still gets each call one, so
			// that results find their calls.
			id = fmt.Sprintf("call_%d", i+1)
		}
		args := c.args.String()
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		msg.ToolCalls = append(msg.ToolCalls, llm.ToolCall{ID: id, Name: c.name, Arguments: json.RawMessage(args)})
	}
	llm.UniqueCallIDs(msg.ToolCalls)
	stop := stopReason(a.finish)
	if len(msg.ToolCalls) > 0 {
		stop = llm.StopToolUse
	}
	return llm.Response{Message: msg, Stop: stop, Usage: a.usage, Model: a.model}
}

// stopReason maps a finish_reason.
func stopReason(finish string) llm.StopReason {
	switch finish {
	case "stop":
		return llm.StopEnd
	case "tool_calls", "function_call":
		return llm.StopToolUse
	case "length":
		return llm.StopMaxTokens
	}
	return llm.StopOther
}
