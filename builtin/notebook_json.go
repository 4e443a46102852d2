package builtin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// An ordered JSON object, for editing notebooks without disturbing what the
// edit does not touch: Go maps would lose key order and re-encode every
// value; here untouched values stay byte-for-byte as they were (up to
// re-indentation).

// jsonField is one member of an object.
type jsonField struct {
	key string
	val json.RawMessage
}

// jsonObject is an object's members in their original order.
type jsonObject []jsonField

// parseObject decodes a JSON object, keeping member order and raw values.
// Trailing data after the object is an error.
func parseObject(raw []byte) (jsonObject, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var obj jsonObject
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key is not a string: %v", tok)
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, err
		}
		obj = append(obj, jsonField{key: key, val: val})
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON object")
	}
	return obj, nil
}

// get returns the value of key.
func (o jsonObject) get(key string) (json.RawMessage, bool) {
	for _, f := range o {
		if f.key == key {
			return f.val, true
		}
	}
	return nil, false
}

// getString returns the string value of key, or "".
func (o jsonObject) getString(key string) string {
	raw, ok := o.get(key)
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// set replaces the value of key in place, or appends it.
func (o *jsonObject) set(key string, val json.RawMessage) {
	for i, f := range *o {
		if f.key == key {
			(*o)[i].val = val
			return
		}
	}
	*o = append(*o, jsonField{key: key, val: val})
}

// del removes key.
func (o *jsonObject) del(key string) {
	out := (*o)[:0]
	for _, f := range *o {
		if f.key != key {
			out = append(out, f)
		}
	}
	*o = out
}

// marshal encodes the object compactly, members in order.
func (o jsonObject) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(rawJSON(f.key))
		b.WriteByte(':')
		b.Write(f.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// rawJSON encodes v without escaping <, > and & (as Jupyter writes them).
func rawJSON(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return json.RawMessage("null")
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// detectIndent returns the indentation unit of a JSON document (Jupyter
// writes one space), or "" when the document is on one line.
func detectIndent(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	i := bytes.IndexByte(raw, '\n')
	if i < 0 {
		return ""
	}
	j := i + 1
	for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
		j++
	}
	if j == i+1 {
		return " "
	}
	return string(raw[i+1 : j])
}
