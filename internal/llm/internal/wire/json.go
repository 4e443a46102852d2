package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"sync/atomic"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/llm"
)

// The providers write their request bodies by hand: the SDKs' reflection
// encoders cost more per request than the rest of a tool step, and a
// request repeats the whole conversation and every tool's schema. These are
// the pieces they share.

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string. It writes what encoding/json
// writes with HTML escaping off: ", \ and control characters escaped,
// U+2028 and U+2029 escaped (some JavaScript parsers take them for line
// ends), and each byte that is not valid UTF-8 replaced by U+FFFD, so the
// body is valid JSON whatever a tool printed.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// errNotObject is the error for an input schema that is not a JSON object.
var errNotObject = errors.New("not a JSON object")

// AppendSchema appends a tool's input schema, compacted: an empty schema
// as an object without properties, anything but a JSON object an error.
func AppendSchema(dst []byte, schema []byte) ([]byte, error) {
	schema = bytes.TrimSpace(schema)
	if len(schema) == 0 {
		return append(dst, `{"type":"object","properties":{}}`...), nil
	}
	if schema[0] != '{' {
		return dst, errNotObject
	}
	b := bytes.NewBuffer(dst)
	if err := json.Compact(b, schema); err != nil {
		return dst, errNotObject
	}
	return b.Bytes(), nil
}

// ToolCache keeps a provider's JSON for the tools requests offer, so that a
// run, which offers the same tools at every step, encodes them once. It is
// safe for concurrent use; requests that offer other tools replace it.
type ToolCache struct {
	last atomic.Pointer[toolSet]
}

type toolSet struct {
	specs []llm.ToolSpec // a copy: the caller may change its own
	json  []byte
}

// Encode returns encode(specs), or the JSON it returned before for the
// same tools (names, descriptions and schemas compared byte for byte);
// nil for no tools. The result must not be changed.
func (c *ToolCache) Encode(specs []llm.ToolSpec, encode func([]llm.ToolSpec) ([]byte, error)) ([]byte, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	if t := c.last.Load(); t != nil && sameTools(t.specs, specs) {
		return t.json, nil
	}
	b, err := encode(specs)
	if err != nil {
		return nil, err
	}
	own := make([]llm.ToolSpec, len(specs))
	for i, s := range specs {
		own[i] = llm.ToolSpec{Name: s.Name, Description: s.Description, InputSchema: bytes.Clone(s.InputSchema)}
	}
	c.last.Store(&toolSet{specs: own, json: b})
	return b, nil
}

func sameTools(a, b []llm.ToolSpec) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !bytes.Equal(a[i].InputSchema, b[i].InputSchema) {
			return false
		}
	}
	return true
}

// Overhead is what a wire format adds around a request's texts: once, per
// message, per tool call and per tool result.
type Overhead struct{ Request, Message, Call, Result int }

// BodySize is about the size of req's body in a format of overhead o, so
// that the body is allocated once: the texts, the tools' JSON and the
// format's JSON around them, with room for escapes.
func BodySize(req llm.Request, tools int, o Overhead) int {
	n := o.Request + len(req.Model) + len(req.System) + tools
	for i := range req.Messages {
		msg := &req.Messages[i]
		n += o.Message + len(msg.Text) + imagesSize(msg.Images)
		for _, r := range msg.Reasoning {
			n += o.Call + len(r.Text) + len(r.Signature) + len(r.Redacted) + len(r.ID)
		}
		for _, c := range msg.ToolCalls {
			n += o.Call + len(c.ID) + len(c.Name) + len(c.Arguments)
		}
		if msg.Result != nil {
			n += o.Result + len(msg.Result.CallID) + len(msg.Result.Content) + imagesSize(msg.Result.Images)
		}
	}
	return n + n/16
}

// imagesSize is the bytes images take in a body: base64 and their framing.
func imagesSize(images []llm.Image) int {
	n := 0
	for _, im := range images {
		n += 96 + len(im.MediaType) + base64.StdEncoding.EncodedLen(len(im.Data))
	}
	return n
}

// AppendBase64 appends data in standard base64, as JSON string content
// (base64's alphabet needs no escaping).
func AppendBase64(b, data []byte) []byte { return base64.StdEncoding.AppendEncode(b, data) }
