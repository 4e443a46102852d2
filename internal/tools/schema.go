package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Format names a provider's tool-definition format.
type Format string

// The export formats.
const (
	FormatOpenAI    Format = "openai"
	FormatAnthropic Format = "anthropic"
	FormatLangChain Format = "langchain"
	FormatGemini    Format = "gemini"
	FormatMCP       Format = "mcp"
)

// Formats lists every export format.
func Formats() []Format {
	return []Format{FormatOpenAI, FormatAnthropic, FormatLangChain, FormatGemini, FormatMCP}
}

// ParseFormat returns the named format or an error listing the known ones.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, 0, 5)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("Unknown schema format: %s (known: %s)", s, strings.Join(names, ", "))
}

// JSONSchema returns the parameter's JSON Schema with keys in the seed's
// order: type, description, then constraints.
func (p Parameter) JSONSchema() json.RawMessage {
	// TODO(core): enum, default, minimum/maximum, lengths, items, properties.
	var b bytes.Buffer
	b.WriteString(`{"type":`)
	writeJSON(&b, p.Type)
	b.WriteString(`,"description":`)
	writeJSON(&b, p.Description)
	b.WriteByte('}')
	return b.Bytes()
}

// ParametersSchema returns the object schema of a parameter list:
// {"type":"object","properties":{...},"required":[...]}, properties in order.
func ParametersSchema(params []Parameter) json.RawMessage {
	var b bytes.Buffer
	b.WriteString(`{"type":"object","properties":{`)
	var req []string
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSON(&b, p.Name)
		b.WriteByte(':')
		b.Write(p.JSONSchema())
		if p.Required {
			req = append(req, p.Name)
		}
	}
	b.WriteString(`},"required":`)
	if req == nil {
		req = []string{}
	}
	writeJSON(&b, req)
	b.WriteByte('}')
	return b.Bytes()
}

// ExportSchema returns one tool's definition in the given format.
func ExportSchema(d Descriptor, f Format) (json.RawMessage, error) {
	params := ParametersSchema(d.Parameters)
	var b bytes.Buffer
	switch f {
	case FormatOpenAI:
		b.WriteString(`{"type":"function","function":{"name":`)
		writeJSON(&b, d.Name)
		b.WriteString(`,"description":`)
		writeJSON(&b, d.Description)
		b.WriteString(`,"parameters":`)
		b.Write(params)
		b.WriteString(`}}`)
	case FormatAnthropic:
		b.WriteString(`{"name":`)
		writeJSON(&b, d.Name)
		b.WriteString(`,"description":`)
		writeJSON(&b, d.Description)
		b.WriteString(`,"input_schema":`)
		b.Write(params)
		b.WriteByte('}')
	default:
		// TODO(core): langchain, gemini, mcp.
		if _, err := ParseFormat(string(f)); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("format %s not implemented yet", f)
	}
	return b.Bytes(), nil
}

// Schemas returns the definitions of every tool, sorted by name.
func (e *Executor) Schemas(f Format) ([]json.RawMessage, error) {
	return exportAll(e.reg.ListAll(), f)
}

// SchemasByCategory returns the definitions of one category's tools.
func (e *Executor) SchemasByCategory(c Category, f Format) ([]json.RawMessage, error) {
	return exportAll(e.reg.ListByCategory(c), f)
}

func exportAll(ts []Tool, f Format) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, 0, len(ts))
	for _, t := range ts {
		s, err := ExportSchema(Describe(t), f)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	b.Truncate(b.Len() - 1) // Encode adds a newline
}

// exportCache keeps exported schemas until the registry changes.
// TODO(core): fill and use it in Schemas and SchemasByCategory.
type exportCache struct{}
