package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ToolCall is one call a model asked for, whatever syntax it used: seed 004's
// <tool>{...}</tool> block, an OpenAI tool_calls entry, an Anthropic tool_use.
// Arguments is always a JSON object ({} when the model gave none).
type ToolCall struct {
	ID        string          `json:"id,omitempty"`
	Server    string          `json:"server_name,omitempty"`
	Name      string          `json:"tool_name"`
	Arguments json.RawMessage `json:"arguments"`
}

// CallResult is the outcome of one ToolCall in a batch.
type CallResult struct {
	Call         ToolCall `json:"call"`
	Result       Result   `json:"result"`
	LoopBreaking bool     `json:"loop_breaking"`
}

// LocalServer is the only server_name seed 004 supports.
const LocalServer = "local"

const (
	openTag  = "<tool>"
	closeTag = "</tool>"
)

// ParseToolCalls finds every <tool>{...}</tool> block in a model's text
// (seed 004): whitespace around the JSON is allowed, blocks may be separated
// by any text, and a "</tool>" inside a JSON string does not end the block.
// The JSON has "tool_name", optional "arguments" (an object; missing or null
// is {}) and optional "server_name", which must be "local".
//
// A bad block does not hide the good ones: the result holds every well-formed
// call in order, and the error, when not nil, joins one error per bad block,
// each naming the block by its position ("tool call 2: invalid JSON: ...").
// An agent can run the good calls and send the errors back to the model. An
// unterminated <tool> block is an error and ends the scan, since the rest of
// the text is inside it. A text without blocks gives no calls and no error.
func ParseToolCalls(text string) ([]ToolCall, error) {
	var (
		calls []ToolCall
		errs  []error
	)
	rest := text
	for n := 1; ; n++ {
		i := strings.Index(rest, openTag)
		if i < 0 {
			break
		}
		body := rest[i+len(openTag):]
		call, used, err := parseBlock(body)
		if err != nil {
			errs = append(errs, fmt.Errorf("tool call %d: %w", n, err))
		} else {
			calls = append(calls, call)
		}
		if used < 0 {
			break
		}
		rest = body[used:]
	}
	return calls, errors.Join(errs...)
}

// parseBlock parses the block that starts at body (just after <tool>) and
// returns how many bytes of body it used, through </tool>, or -1 when the
// block is not terminated.
func parseBlock(body string) (ToolCall, int, error) {
	dec := json.NewDecoder(strings.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err == nil {
		end := int(dec.InputOffset())
		after := strings.TrimLeft(body[end:], " \t\r\n")
		if strings.HasPrefix(after, closeTag) {
			used := len(body) - len(after) + len(closeTag)
			call, err := decodeBlock(raw)
			return call, used, err
		}
	}
	// The JSON is broken or followed by other text: the block ends at the
	// next </tool>; parse its content again for a precise message.
	j := strings.Index(body, closeTag)
	if j < 0 {
		return ToolCall{}, -1, errors.New("unterminated <tool> block: missing </tool>")
	}
	content := strings.TrimSpace(body[:j])
	used := j + len(closeTag)
	if content == "" {
		return ToolCall{}, used, errors.New("empty <tool> block")
	}
	var v any
	if err := json.Unmarshal([]byte(content), &v); err != nil {
		return ToolCall{}, used, fmt.Errorf("invalid JSON: %w", err)
	}
	return ToolCall{}, used, errors.New("invalid JSON: unexpected text after the JSON value")
}

func decodeBlock(raw json.RawMessage) (ToolCall, error) {
	var w struct {
		Server    *string         `json:"server_name"`
		Name      *string         `json:"tool_name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := decodeObject(raw, &w); err != nil {
		return ToolCall{}, err
	}
	if w.Server != nil && *w.Server != LocalServer {
		return ToolCall{}, fmt.Errorf("server %q is not supported: only %q", *w.Server, LocalServer)
	}
	if w.Name == nil || *w.Name == "" {
		return ToolCall{}, errors.New(`missing "tool_name"`)
	}
	args, err := objectArgs(w.Arguments)
	if err != nil {
		return ToolCall{}, err
	}
	return ToolCall{Server: LocalServer, Name: *w.Name, Arguments: args}, nil
}

// decodeObject decodes a JSON object into v, with messages a model can act on.
func decodeObject(raw []byte, v any) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return errors.New("invalid JSON: a tool call must be a JSON object")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("invalid JSON: %q must not be a JSON %s", te.Field, te.Value)
		}
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return nil
}

// objectArgs checks that raw arguments are a JSON object; missing or null
// arguments are the empty object.
func objectArgs(raw json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || bytes.Equal(t, []byte("null")) {
		return json.RawMessage("{}"), nil
	}
	if t[0] != '{' {
		return nil, errors.New(`"arguments" must be a JSON object`)
	}
	return json.RawMessage(t), nil
}

// ParseOpenAIToolCalls reads the tool calls of an OpenAI Chat Completions
// answer: a whole response ({"choices":[{"message":...}]}, first choice), an
// assistant message ({"tool_calls":[...]}), the bare tool_calls array, or one
// tool call. function.arguments is a JSON string in OpenAI's format; an
// object is accepted too (compatible servers send one). Bad entries are
// reported as ParseToolCalls reports bad blocks.
func ParseOpenAIToolCalls(data []byte) ([]ToolCall, error) {
	type openAICall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	var list []json.RawMessage
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &list); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
	} else {
		var msg struct {
			Choices []struct {
				Message json.RawMessage `json:"message"`
			} `json:"choices"`
			ToolCalls []json.RawMessage `json:"tool_calls"`
			Function  json.RawMessage   `json:"function"`
		}
		if err := decodeObject(data, &msg); err != nil {
			return nil, err
		}
		switch {
		case len(msg.Choices) > 0:
			return ParseOpenAIToolCalls(msg.Choices[0].Message)
		case msg.Function != nil:
			list = []json.RawMessage{data}
		default:
			list = msg.ToolCalls
		}
	}
	var (
		calls []ToolCall
		errs  []error
	)
	for i, raw := range list {
		var c openAICall
		err := decodeObject(raw, &c)
		switch {
		case err != nil:
		case c.Type != "" && c.Type != "function":
			err = fmt.Errorf("unsupported type %q: only \"function\"", c.Type)
		case c.Function == nil || c.Function.Name == "":
			err = errors.New(`missing "function.name"`)
		}
		var args json.RawMessage
		if err == nil {
			args, err = openAIArguments(c.Function.Arguments)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("tool call %d: %w", i+1, err))
			continue
		}
		calls = append(calls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: args})
	}
	return calls, errors.Join(errs...)
}

func openAIArguments(raw json.RawMessage) (json.RawMessage, error) {
	t := bytes.TrimSpace(raw)
	if len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return nil, fmt.Errorf("invalid arguments: %w", err)
		}
		if strings.TrimSpace(s) == "" {
			return json.RawMessage("{}"), nil
		}
		if !json.Valid([]byte(s)) {
			var v any
			err := json.Unmarshal([]byte(s), &v)
			return nil, fmt.Errorf("invalid JSON in arguments: %w", err)
		}
		t = []byte(s)
	}
	return objectArgs(t)
}

// ParseAnthropicToolUse reads the tool_use blocks of an Anthropic Messages
// answer: a message ({"content":[...]}), the bare content array, or one
// tool_use block. Blocks of other types (text, thinking) are skipped; a
// content that is a plain string has no calls. Bad blocks are reported as
// ParseToolCalls reports them, numbered among the tool_use blocks.
func ParseAnthropicToolUse(data []byte) ([]ToolCall, error) {
	var blocks []json.RawMessage
	t := bytes.TrimSpace(data)
	if len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &blocks); err != nil {
			return nil, fmt.Errorf("invalid JSON: %w", err)
		}
	} else {
		var msg struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if err := decodeObject(t, &msg); err != nil {
			return nil, err
		}
		c := bytes.TrimSpace(msg.Content)
		switch {
		case msg.Type == "tool_use":
			blocks = []json.RawMessage{t}
		case len(c) > 0 && c[0] == '[':
			if err := json.Unmarshal(c, &blocks); err != nil {
				return nil, fmt.Errorf("invalid JSON: %w", err)
			}
		}
	}
	var (
		calls []ToolCall
		errs  []error
		n     int
	)
	for _, raw := range blocks {
		var b struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if err := decodeObject(raw, &b); err != nil {
			n++
			errs = append(errs, fmt.Errorf("tool call %d: %w", n, err))
			continue
		}
		if b.Type != "tool_use" {
			continue
		}
		n++
		if b.Name == "" {
			errs = append(errs, fmt.Errorf("tool call %d: missing \"name\"", n))
			continue
		}
		args, err := objectArgs(b.Input)
		if err != nil {
			errs = append(errs, fmt.Errorf(`tool call %d: "input" must be a JSON object`, n))
			continue
		}
		calls = append(calls, ToolCall{ID: b.ID, Name: b.Name, Arguments: args})
	}
	return calls, errors.Join(errs...)
}
