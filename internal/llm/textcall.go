package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The text tool-call format, for models without native tool calling: the
// model writes each call as a block in its answer,
//
//	<tool>
//	{"server_name": "local", "tool_name": "Read", "arguments": {"file_path": "/a"}}
//	</tool>
//
// and the results come back to it as text in the next user message
// (FormatTextToolResults). TextToolPrompt tells the model so.

// TextToolServer is the only server_name a text tool call may give.
const TextToolServer = "local"

const (
	openTag  = "<tool>"
	closeTag = "</tool>"
)

// ParseToolCalls finds every <tool>{...}</tool> block in a model's text:
// whitespace around the JSON is allowed, blocks may be separated by any
// text, and a "</tool>" inside a JSON string does not end the block. The
// JSON has "tool_name", optional "arguments" (an object; missing or null
// is {}) and optional "server_name", which must be "local". Each call gets
// the ID "call_N", N the block's position in the text, so IDs are unique
// within the text.
//
// A bad block does not hide the good ones: the result holds every
// well-formed call in order, and the error, when not nil, joins one error
// per bad block, each naming the block by its position ("tool call 2:
// invalid JSON: ..."). An agent can run the good calls and send the errors
// back to the model. An unterminated <tool> block is an error and ends the
// scan, since the rest of the text is inside it. A text without blocks
// gives no calls and no error.
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
			call.ID = fmt.Sprintf("call_%d", n)
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
	if w.Server != nil && *w.Server != TextToolServer {
		return ToolCall{}, fmt.Errorf("server %q is not supported: only %q", *w.Server, TextToolServer)
	}
	if w.Name == nil || *w.Name == "" {
		return ToolCall{}, errors.New(`missing "tool_name"`)
	}
	args, err := objectArgs(w.Arguments)
	if err != nil {
		return ToolCall{}, err
	}
	return ToolCall{Name: *w.Name, Arguments: args}, nil
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

// TextToolPrompt is the system-prompt section for a model that calls
// tools in text: the tools, each with its description and the compact JSON
// Schema of its arguments, and exactly how to call them and how results
// come back. It is "" when there are no tools.
func TextToolPrompt(specs []ToolSpec) string {
	if len(specs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("# Tools\n\nYou can use the tools below. Each is given with what it does and the JSON Schema of its arguments.\n")
	for _, s := range specs {
		fmt.Fprintf(&b, "\n## %s\n", s.Name)
		if d := strings.TrimSpace(s.Description); d != "" {
			b.WriteString(d)
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "Arguments: %s\n", compactSchema(s.InputSchema))
	}
	example := exampleCall(specs[0])
	fmt.Fprintf(&b, `
## How to call a tool

To call a tool, write a block like this in your answer, with the tool's name and its arguments as a JSON object:

<tool>
%s
</tool>

Write one block per call; you may make several calls in one answer. Write nothing after your last block: stop and wait. The calls are run after your answer, and their results come back to you in the next message as text, each in a <tool_result tool_name="..." call_id="..."> block, with is_error="true" when the call failed. Never write a <tool_result> block yourself. When you need no tool, just answer.
`, example)
	return b.String()
}

// compactSchema is a schema on one line; {} when there is none.
func compactSchema(schema json.RawMessage) string {
	var b bytes.Buffer
	if len(bytes.TrimSpace(schema)) == 0 || json.Compact(&b, schema) != nil {
		return `{"type":"object"}`
	}
	return b.String()
}

// exampleCall is a call of spec in the block's JSON, with a placeholder
// for each required argument, so that the model sees a real tool called.
func exampleCall(spec ToolSpec) string {
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	_ = json.Unmarshal(spec.InputSchema, &schema)
	args := make(map[string]any, len(schema.Required))
	for _, name := range schema.Required {
		p, ok := schema.Properties[name]
		if !ok {
			continue
		}
		args[name] = placeholder(p.Type)
	}
	call := struct {
		Server    string         `json:"server_name"`
		Name      string         `json:"tool_name"`
		Arguments map[string]any `json:"arguments"`
	}{TextToolServer, spec.Name, args}
	out, _ := json.Marshal(call)
	return string(out)
}

func placeholder(typ any) any {
	if list, ok := typ.([]any); ok && len(list) > 0 {
		typ = list[0]
	}
	switch typ {
	case "integer", "number":
		return 1
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		return map[string]any{}
	}
	return "..."
}

// FormatTextToolResults is how the results of text tool calls go back to
// the model: the text of one user message with a <tool_result> block per
// result, tagged with the tool's name and the call's ID, and
// is_error="true" on failed calls.
func FormatTextToolResults(results []ToolResult) string {
	var b strings.Builder
	for i, r := range results {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "<tool_result tool_name=%s call_id=%s", attr(r.Name), attr(r.CallID))
		if r.IsError {
			b.WriteString(` is_error="true"`)
		}
		b.WriteString(">\n")
		b.WriteString(strings.TrimRight(r.Content, "\n"))
		b.WriteString("\n</tool_result>\n")
	}
	return b.String()
}

// attr quotes an attribute value; a name with a quote stays readable.
func attr(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `&quot;`) + `"`
}
