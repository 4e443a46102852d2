package tools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Format names a provider's tool-definition format.
type Format string

// The export formats.
const (
	// FormatOpenAI is a Chat Completions tool:
	// {"type":"function","function":{"name","description","parameters"}}.
	FormatOpenAI Format = "openai"
	// FormatAnthropic is a Messages API tool: {"name","description","input_schema"}.
	FormatAnthropic Format = "anthropic"
	// FormatLangChain is langchaingo's llms.Tool as it marshals:
	// {"type":"function","function":{"name","description","parameters"}}.
	FormatLangChain Format = "langchain"
	// FormatGemini is a Gemini function declaration: {"name","description",
	// "parameters"}, parameters in Gemini's OpenAPI subset (see dialectGemini).
	FormatGemini Format = "gemini"
	// FormatMCP is a Model Context Protocol tool: {"name","description","inputSchema"}.
	FormatMCP Format = "mcp"
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

// ExportSchema returns one tool's definition in the given format, compact,
// properties in declaration order. Pretty printing is the caller's job
// (IndentSchema prints them for a person).
func ExportSchema(d Descriptor, f Format) (json.RawMessage, error) {
	var b bytes.Buffer
	b.Grow(256)
	switch f {
	case FormatOpenAI, FormatLangChain:
		b.WriteString(`{"type":"function","function":{"name":`)
		writeString(&b, d.Name)
		b.WriteString(`,"description":`)
		writeString(&b, d.Description)
		b.WriteString(`,"parameters":`)
		writeInputSchema(&b, d, f)
		b.WriteString(`}}`)
	case FormatAnthropic, FormatMCP:
		b.WriteString(`{"name":`)
		writeString(&b, d.Name)
		b.WriteString(`,"description":`)
		writeString(&b, d.Description)
		if f == FormatAnthropic {
			b.WriteString(`,"input_schema":`)
		} else {
			b.WriteString(`,"inputSchema":`)
		}
		writeInputSchema(&b, d, f)
		b.WriteByte('}')
	case FormatGemini:
		b.WriteString(`{"name":`)
		writeString(&b, d.Name)
		b.WriteString(`,"description":`)
		writeString(&b, d.Description)
		if d.InputSchema != nil {
			if g := GeminiSchema(d.InputSchema); g != nil {
				b.WriteString(`,"parameters":`)
				b.Write(g)
			}
		} else if len(d.Parameters) > 0 { // Gemini refuses an object without properties
			b.WriteString(`,"parameters":`)
			writeObjectSchema(&b, d.Parameters, dialectGemini, true)
		}
		b.WriteByte('}')
	default:
		_, err := ParseFormat(string(f))
		return nil, err
	}
	return b.Bytes(), nil
}

// InputSchema returns the JSON Schema of d's arguments as models get it:
// the tool's own (see SchemaTool) adapted by ModelSchema, or the object
// schema of its parameters.
func InputSchema(d Descriptor) json.RawMessage {
	if d.InputSchema != nil {
		return ModelSchema(d.InputSchema)
	}
	return ParametersSchema(d.Parameters)
}

// writeInputSchema writes d's schema for format f, compact: the MCP format
// carries a tool's own schema as declared, the providers' formats get
// InputSchema.
func writeInputSchema(b *bytes.Buffer, d Descriptor, f Format) {
	switch {
	case d.InputSchema == nil:
		writeObjectSchema(b, d.Parameters, dialectJSONSchema, true)
	case f == FormatMCP && json.Valid(d.InputSchema) && bytes.HasPrefix(bytes.TrimSpace(d.InputSchema), []byte("{")):
		_ = json.Compact(b, d.InputSchema)
	default:
		b.Write(InputSchema(d))
	}
}

// Schemas returns the definitions of every tool, sorted by name. The result
// is cached until the registry changes; each call returns a new slice whose
// elements share the cached bytes, which callers must not modify.
func (e *Executor) Schemas(f Format) ([]json.RawMessage, error) {
	return e.exports.load(e.reg, exportKey{format: f, all: true}, e.reg.ListAll)
}

// SchemasByCategory returns the definitions of one category's tools, sorted
// by name, cached like Schemas.
func (e *Executor) SchemasByCategory(c Category, f Format) ([]json.RawMessage, error) {
	return e.exports.load(e.reg, exportKey{format: f, category: c}, func() []Tool { return e.reg.ListByCategory(c) })
}

// Schema returns the definition of the named tool, or the registry's
// not-found *ToolError.
func (e *Executor) Schema(name string, f Format) (json.RawMessage, error) {
	if _, err := ParseFormat(string(f)); err != nil {
		return nil, err
	}
	t, err := e.reg.GetOrError(name)
	if err != nil {
		return nil, err
	}
	return ExportSchema(Describe(t), f)
}

// exportKey names one cached export: all tools, or one category's.
type exportKey struct {
	format   Format
	category Category
	all      bool
}

// exportCache keeps exported schemas until the registry changes: entries
// belong to one registry version and are dropped when it moves on. Tool
// descriptors are taken to be immutable once registered. The zero value is
// ready to use and it is safe for concurrent use.
type exportCache struct {
	mu      sync.Mutex
	version uint64
	entries map[exportKey][]json.RawMessage
}

// load returns the cached export for k at reg's current version, computing it
// from list when missing.
func (c *exportCache) load(reg *Registry, k exportKey, list func() []Tool) ([]json.RawMessage, error) {
	if _, err := ParseFormat(string(k.format)); err != nil {
		return nil, err
	}
	// Read the version before listing: if the registry changes in between,
	// the result is stored under the older version and recomputed next time,
	// never kept as current when it is stale.
	v := reg.Version()
	c.mu.Lock()
	if c.version == v && c.entries != nil {
		if s, ok := c.entries[k]; ok {
			out := make([]json.RawMessage, len(s))
			copy(out, s)
			c.mu.Unlock()
			return out, nil
		}
	}
	c.mu.Unlock()

	ts := list()
	s := make([]json.RawMessage, 0, len(ts))
	for _, t := range ts {
		raw, err := ExportSchema(Describe(t), k.format)
		if err != nil {
			return nil, err
		}
		s = append(s, raw)
	}

	c.mu.Lock()
	if c.entries == nil || v > c.version {
		c.version, c.entries = v, make(map[exportKey][]json.RawMessage)
	}
	if v == c.version {
		c.entries[k] = s
	}
	c.mu.Unlock()
	out := make([]json.RawMessage, len(s))
	copy(out, s)
	return out, nil
}
