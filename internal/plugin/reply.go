package plugin

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Reply is what a plugin may print on standard output instead of plain
// text: {"output": ..., "error": "...", "metadata": {...}}. Output may be
// any JSON value; a non-empty Error fails the call; Metadata is merged into
// the result's.
type Reply struct {
	Output   any            `json:"output"`
	Error    string         `json:"error"`
	Metadata map[string]any `json:"metadata"`
}

// parseReply reads standard output: a JSON object with only the keys
// output, error and metadata (at least one) is a Reply; anything else is
// plain text, one trailing newline removed. Numbers stay exact.
func parseReply(out []byte) Reply {
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		if r, ok := decodeReply(trimmed); ok {
			return r
		}
	}
	s := string(out)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = strings.TrimSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\r")
	return Reply{Output: s}
}

func decodeReply(b []byte) (Reply, bool) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil || dec.More() || len(raw) == 0 {
		return Reply{}, false
	}
	for k := range raw {
		if k != "output" && k != "error" && k != "metadata" {
			return Reply{}, false
		}
	}
	var r Reply
	if v, ok := raw["output"]; ok {
		if err := unmarshalNumber(v, &r.Output); err != nil {
			return Reply{}, false
		}
	}
	if v, ok := raw["error"]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &r.Error); err != nil {
			return Reply{}, false
		}
	}
	if v, ok := raw["metadata"]; ok && string(v) != "null" {
		if err := unmarshalNumber(v, &r.Metadata); err != nil {
			return Reply{}, false
		}
	}
	return r, true
}

func unmarshalNumber(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}
