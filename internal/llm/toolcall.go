package llm

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// storedCall is a ToolCall as JSON. Arguments a model sent that are JSON
// are kept as that JSON; arguments that are not (cut off, a stray quote,
// empty) cannot be, since a JSON document cannot hold them as a value, so
// they are kept as text in raw_arguments, or in raw_arguments_base64 when
// they are not even UTF-8 (a JSON string would replace those bytes).
type storedCall struct {
	ID                 string          `json:"id"`
	Name               string          `json:"name"`
	Arguments          json.RawMessage `json:"arguments,omitempty"`
	RawArguments       *string         `json:"raw_arguments,omitempty"`
	RawArgumentsBase64 string          `json:"raw_arguments_base64,omitempty"`
}

// MarshalJSON encodes c whatever its arguments are, so that a model's
// broken call is recorded as it came instead of failing the whole record.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	s := storedCall{ID: c.ID, Name: c.Name}
	switch {
	case len(bytes.TrimSpace(c.Arguments)) > 0 && json.Valid(c.Arguments) && utf8.Valid(c.Arguments):
		s.Arguments = c.Arguments
	case utf8.Valid(c.Arguments):
		raw := string(c.Arguments)
		s.RawArguments = &raw
	default:
		s.RawArgumentsBase64 = base64.StdEncoding.EncodeToString(c.Arguments)
	}
	return json.Marshal(s)
}

// UnmarshalJSON decodes what MarshalJSON wrote, giving back the arguments
// exactly as the model sent them.
func (c *ToolCall) UnmarshalJSON(b []byte) error {
	var s storedCall
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*c = ToolCall{ID: s.ID, Name: s.Name, Arguments: s.Arguments}
	switch {
	case s.RawArguments != nil && s.RawArgumentsBase64 != "":
		return errors.New("a tool call with both raw_arguments and raw_arguments_base64")
	case s.RawArguments != nil:
		c.Arguments = json.RawMessage(*s.RawArguments)
	case s.RawArgumentsBase64 != "":
		raw, err := base64.StdEncoding.DecodeString(s.RawArgumentsBase64)
		if err != nil {
			return errors.New("a tool call whose raw_arguments_base64 is not base64")
		}
		c.Arguments = raw
	}
	return nil
}
