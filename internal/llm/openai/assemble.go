package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/llm"
)

// chunk is one streamed event: the fields forge reads of a
// chat.completion.chunk, and nothing else.
type chunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Index int64 `json:"index"`
		Delta struct {
			Content   string          `json:"content"`
			Refusal   string          `json:"refusal"`
			ToolCalls []toolCallDelta `json:"tool_calls"`
			// The thinking of reasoning models, as compatible servers
			// send it (DeepSeek and vLLM: reasoning_content; Ollama and
			// OpenRouter: reasoning). It is shown as thinking and kept,
			// for the servers that want it back within a turn.
			ReasoningContent textJSON `json:"reasoning_content"`
			Reasoning        textJSON `json:"reasoning"`
		} `json:"delta"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	// Usage is nil in every chunk but the last (and in all of them for
	// servers that send none).
	Usage *struct {
		PromptTokens        int64 `json:"prompt_tokens"`
		CompletionTokens    int64 `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens int64 `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	// Error is set in an error event (a failure after the stream began).
	Error json.RawMessage `json:"error"`
}

// toolCallDelta is one fragment of a tool call.
type toolCallDelta struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string   `json:"name"`
		Arguments textJSON `json:"arguments"`
	} `json:"function"`
}

// decode decodes one event's data into c. A field of an unexpected type is
// left empty rather than failing the turn, as the SDK's decoder did
// (compatible servers vary); data that is not JSON, or not an object, is
// an error.
func (c *chunk) decode(data []byte) error {
	err := json.Unmarshal(data, c)
	if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) && te.Field != "" {
		return nil
	}
	return err
}

// textJSON is a string field that some servers fill with another JSON
// value: a call's arguments sent as an object rather than as its text. It
// keeps such a value's JSON text, as the SDK's decoder did; null is "".
type textJSON string

func (t *textJSON) UnmarshalJSON(data []byte) error {
	switch {
	case data[0] == '"':
		return json.Unmarshal(data, (*string)(t))
	case string(data) == "null":
		*t = ""
	default:
		*t = textJSON(data)
	}
	return nil
}

// thinkingText is a reasoning field's text; "" when a server sent
// something other than a string (measured, not shown).
func thinkingText(t textJSON) string {
	if s := string(t); s != "" && (s[0] == '{' || s[0] == '[') {
		return ""
	}
	return string(t)
}

// assembler builds one turn from its chunks. It holds what OpenAI sends
// and what the compatible servers send instead: tool-call fragments keyed
// by index with the ID and name in the first only, arguments in many
// pieces; every call at index 0 with distinct IDs (Ollama); a whole call
// in one chunk; no usage at all.
type assembler struct {
	text strings.Builder
	// reasoning is the thinking streamed, and field the field it came in.
	reasoning strings.Builder
	field     string
	calls     []*partialCall
	// byIndex is the call each index is building now.
	byIndex  map[int64]*partialCall
	finish   string
	finished bool
	usage    llm.Usage
	model    string
	chunks   int
	// size is the bytes of text, thinking, call IDs, names and arguments
	// received, for the cap on an answer's size and the idle watch.
	size int
}

type partialCall struct {
	id, name string
	args     strings.Builder
}

// add takes one chunk, calling onDelta for its text and for each call
// that starts.
func (a *assembler) add(ch *chunk, onDelta func(llm.Delta)) {
	a.chunks++
	if ch.Model != "" {
		a.model = ch.Model
	}
	if u := ch.Usage; u != nil {
		a.usage = llm.Usage{
			InputTokens:     u.PromptTokens,
			OutputTokens:    u.CompletionTokens,
			CacheReadTokens: u.PromptTokensDetails.CachedTokens,
		}
	}
	for i := range ch.Choices {
		choice := &ch.Choices[i]
		if choice.Index != 0 {
			continue // forge asks for one choice
		}
		d := &choice.Delta
		a.size += len(d.Content) + len(d.Refusal) + len(d.ReasoningContent) + len(d.Reasoning)
		a.think("reasoning_content", thinkingText(d.ReasoningContent), onDelta)
		a.think("reasoning", thinkingText(d.Reasoning), onDelta)
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

// think takes a piece of thinking that came in field.
func (a *assembler) think(field, text string, onDelta func(llm.Delta)) {
	if text == "" {
		return
	}
	if a.field == "" {
		a.field = field
	}
	a.reasoning.WriteString(text)
	onDelta(llm.Delta{Thinking: text})
}

// addCall takes one tool-call fragment. A fragment continues the call at
// its index, unless it brings a new ID while that call has another one:
// then it starts a new call.
func (a *assembler) addCall(tc *toolCallDelta, onDelta func(llm.Delta)) {
	if a.byIndex == nil {
		a.byIndex = map[int64]*partialCall{}
	}
	c := a.byIndex[tc.Index]
	if c == nil || (tc.ID != "" && c.id != "" && tc.ID != c.id) {
		c = &partialCall{}
		a.calls = append(a.calls, c)
		a.byIndex[tc.Index] = c
	}
	a.size += len(tc.ID) + len(tc.Function.Name) + len(tc.Function.Arguments)
	if c.id == "" {
		c.id = tc.ID
	}
	if name := tc.Function.Name; name != "" && c.name == "" {
		c.name = name
		onDelta(llm.Delta{ToolName: name})
	}
	c.args.WriteString(string(tc.Function.Arguments))
}

// response is the assembled turn.
func (a *assembler) response() llm.Response {
	msg := llm.Message{Role: llm.RoleAssistant, Text: a.text.String()}
	if a.reasoning.Len() > 0 {
		msg.Reasoning = []llm.Reasoning{{Provider: llm.ReasoningChat, Text: a.reasoning.String(), Field: a.field}}
	}
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
