package tools

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// dialect adjusts the canonical JSON Schema to what one provider accepts.
type dialect int

const (
	// dialectJSONSchema is JSON Schema 2020-12 as OpenAI, Anthropic, MCP and
	// langchaingo take it.
	dialectJSONSchema dialect = iota
	// dialectGemini is the OpenAPI 3.0 subset of Gemini's function
	// declarations: the same keywords, except that enum is only allowed on
	// strings (an integer enum is dropped, the model still sees the
	// description) and an object must not have empty properties, so a tool
	// without parameters has no "parameters" at all and an empty "required" is
	// left out. Type names stay lower case, which the Gemini API accepts and
	// which keeps the schema valid JSON Schema.
	dialectGemini
)

// JSONSchema returns the parameter's JSON Schema, compact, with keys in a
// fixed order, so that an export is the same byte for byte every time:
// type, description, default, enum, minimum, maximum, minLength, maxLength
// (minItems, maxItems for arrays), items, properties, required. An empty description or type is left out.
func (p Parameter) JSONSchema() json.RawMessage {
	var b bytes.Buffer
	writeParamSchema(&b, &p, dialectJSONSchema)
	return b.Bytes()
}

// ParametersSchema returns the object schema of a parameter list:
// {"type":"object","properties":{...},"required":[...]}, properties in
// declaration order. "properties" and "required" are always present, even
// empty, as every provider accepts.
func ParametersSchema(params []Parameter) json.RawMessage {
	var b bytes.Buffer
	writeObjectSchema(&b, params, dialectJSONSchema, true)
	return b.Bytes()
}

func writeObjectSchema(b *bytes.Buffer, params []Parameter, d dialect, top bool) {
	b.WriteString(`{"type":"object","properties":{`)
	writeProperties(b, params, d)
	b.WriteString(`}`)
	writeRequired(b, params, top && d != dialectGemini)
	b.WriteByte('}')
}

func writeProperties(b *bytes.Buffer, params []Parameter, d dialect) {
	for i := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, params[i].Name)
		b.WriteByte(':')
		writeParamSchema(b, &params[i], d)
	}
}

// writeRequired writes ,"required":[...]; an empty list only when always.
func writeRequired(b *bytes.Buffer, params []Parameter, always bool) {
	n := 0
	for i := range params {
		if params[i].Required {
			n++
		}
	}
	if n == 0 && !always {
		return
	}
	b.WriteString(`,"required":[`)
	first := true
	for i := range params {
		if params[i].Required {
			if !first {
				b.WriteByte(',')
			}
			first = false
			writeString(b, params[i].Name)
		}
	}
	b.WriteByte(']')
}

func writeParamSchema(b *bytes.Buffer, p *Parameter, d dialect) {
	b.WriteByte('{')
	sep := false
	key := func(k string) {
		if sep {
			b.WriteByte(',')
		}
		sep = true
		b.WriteByte('"')
		b.WriteString(k)
		b.WriteString(`":`)
	}
	if p.Type != "" {
		key("type")
		writeString(b, p.Type)
	}
	if p.Description != "" {
		key("description")
		writeString(b, p.Description)
	}
	if p.Default != nil {
		key("default")
		writeValue(b, p.Default)
	}
	if p.Enum != nil && (d != dialectGemini || stringEnum(p)) {
		key("enum")
		writeValue(b, p.Enum)
	}
	if p.Minimum != nil {
		key("minimum")
		writeFloat(b, *p.Minimum)
	}
	if p.Maximum != nil {
		key("maximum")
		writeFloat(b, *p.Maximum)
	}
	minKey, maxKey := "minLength", "maxLength"
	if p.Type == TypeArray {
		minKey, maxKey = "minItems", "maxItems"
	}
	if p.MinLength != nil {
		key(minKey)
		b.WriteString(strconv.Itoa(*p.MinLength))
	}
	if p.MaxLength != nil {
		key(maxKey)
		b.WriteString(strconv.Itoa(*p.MaxLength))
	}
	if p.Items != nil {
		key("items")
		writeParamSchema(b, p.Items, d)
	}
	if len(p.Properties) > 0 {
		key("properties")
		b.WriteByte('{')
		writeProperties(b, p.Properties, d)
		b.WriteByte('}')
		writeRequired(b, p.Properties, false)
	}
	b.WriteByte('}')
}

// stringEnum reports whether p's enum is one Gemini accepts: strings only.
func stringEnum(p *Parameter) bool {
	if p.Type != TypeString {
		return false
	}
	for _, e := range p.Enum {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}

// writeFloat writes f as formatFloat does, without allocating.
func writeFloat(b *bytes.Buffer, f float64) {
	var tmp [32]byte
	b.Write(strconv.AppendFloat(tmp[:0], f, 'f', -1, 64))
}

// writeString writes s as a JSON string. Plain strings, the usual case for
// names and descriptions, are written directly; others go through
// encoding/json (without HTML escaping, so "<tool>" stays readable).
func writeString(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf {
			encodeJSON(b, s)
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}

// writeValue writes v as JSON, without HTML escaping. A value that cannot be
// written (a channel as a default) is written as null: registration refuses
// such tools, and an export must still be valid JSON.
func writeValue(b *bytes.Buffer, v any) {
	var tmp [32]byte
	switch x := v.(type) { // the usual defaults, without an encoder
	case string:
		writeString(b, x)
		return
	case bool:
		b.Write(strconv.AppendBool(tmp[:0], x))
		return
	case int:
		b.Write(strconv.AppendInt(tmp[:0], int64(x), 10))
		return
	case float64:
		if !math.IsNaN(x) && !math.IsInf(x, 0) && math.Abs(x) < 1e21 {
			writeFloat(b, x)
			return
		}
	}
	encodeJSON(b, v)
}

func encodeJSON(b *bytes.Buffer, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b.WriteString("null")
		return
	}
	b.Write(bytes.TrimRight(buf.Bytes(), "\n"))
}
