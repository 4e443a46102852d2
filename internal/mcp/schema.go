package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/forgehq/forge/internal/tools"
)

// inputSchema is an MCP tool's inputSchema, compiled once when the tool
// list arrives, and the forge parameters derived from it.
//
// forge's executor validates every call against a tool's Parameters before
// Execute, so an MCP tool declares its top-level properties as parameters
// (name, type, description, required): that is what /tools and the schema
// export show, and what gives the usual messages (Missing required
// parameter: path). The server's own schema is the real contract and is
// checked in full (nested objects, patterns, anyOf...) by a JSON Schema
// validator before the call is sent.
type inputSchema struct {
	compiled *jsonschema.Schema // nil when the schema did not compile
	err      error              // why it did not compile
	params   []tools.Parameter
}

// noLoader refuses every external reference: a server's schema must not
// make forge read local files or fetch URLs.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external schema references are not loaded: %s", url)
}

// compileSchema compiles schema (the tool's inputSchema as the client
// decoded it) for the tool at location id.
func compileSchema(id string, schema any) *inputSchema {
	s := &inputSchema{}
	raw, err := normalise(schema)
	if err != nil {
		s.err = err
		return s
	}
	top, _ := raw.(map[string]any)
	s.params = deriveParams(top)
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	if err := c.AddResource(id, raw); err != nil {
		s.err = err
		return s
	}
	s.compiled, s.err = c.Compile(id)
	return s
}

// normalise round-trips v through JSON with numbers as json.Number, the
// representation the validator expects.
func normalise(v any) (any, error) {
	if v == nil {
		return map[string]any{"type": "object"}, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
}

// validate checks args against the server's schema and returns a message
// naming every place that is wrong, or "".
func (s *inputSchema) validate(args tools.Args) string {
	if s.compiled == nil {
		return ""
	}
	v, err := normalise(map[string]any(args))
	if err != nil {
		return "arguments cannot be encoded: " + err.Error()
	}
	err = s.compiled.Validate(v)
	if err == nil {
		return ""
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	return describe(ve)
}

// describe turns the validator's error tree into one line:
// at '/path': got number, want string; at ”: missing property 'q'.
func describe(ve *jsonschema.ValidationError) string {
	lines := strings.Split(ve.Error(), "\n")
	var parts []string
	for _, l := range lines[1:] { // the first line names the schema URL
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		if l != "" {
			parts = append(parts, l)
		}
	}
	if len(parts) == 0 {
		return lines[0]
	}
	return strings.Join(parts, "; ")
}

// deriveParams lists the schema's top-level properties as forge
// parameters, in the order the server declared them.
func deriveParams(schema map[string]any) []tools.Parameter {
	props, _ := schema["properties"].(map[string]any)
	if len(props) == 0 {
		return nil
	}
	required := map[string]bool{}
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if s, ok := r.(string); ok {
				required[s] = true
			}
		}
	}
	// A map has no order; the JSON the server sent does, but the SDK has
	// already decoded it. Sorting keeps the list stable between runs.
	names := make([]string, 0, len(props))
	for name := range props {
		if name != "" { // forge parameters need a name; the schema still checks ""
			names = append(names, name)
		}
	}
	slices.Sort(names)
	out := make([]tools.Parameter, 0, len(names))
	for _, name := range names {
		p, _ := props[name].(map[string]any)
		desc, _ := p["description"].(string)
		out = append(out, tools.Parameter{Name: name, Type: propType(p, schema, 0), Description: desc, Required: required[name]})
	}
	return out
}

// propType picks the one forge type that describes a property: its type
// (the first non-null one of a list), the type of what its $ref, anyOf,
// oneOf or allOf point at, or of its enum or const, else string.
func propType(p, root map[string]any, depth int) string {
	if p == nil || depth > 8 {
		return tools.TypeString
	}
	switch t := p["type"].(type) {
	case string:
		if known(t) {
			return t
		}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && known(s) {
				return s
			}
		}
	}
	if ref, ok := p["$ref"].(string); ok {
		for _, prefix := range []string{"#/$defs/", "#/definitions/"} {
			if name, ok := strings.CutPrefix(ref, prefix); ok {
				defs, _ := root[strings.Trim(prefix[1:], "/")].(map[string]any)
				target, _ := defs[name].(map[string]any)
				return propType(target, root, depth+1)
			}
		}
		return tools.TypeObject
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if alts, ok := p[key].([]any); ok {
			for _, a := range alts {
				m, _ := a.(map[string]any)
				if t, _ := m["type"].(string); t == "null" {
					continue
				}
				return propType(m, root, depth+1)
			}
		}
	}
	if enum, ok := p["enum"].([]any); ok && len(enum) > 0 {
		return jsonType(enum[0])
	}
	if c, ok := p["const"]; ok {
		return jsonType(c)
	}
	return tools.TypeString
}

func known(t string) bool {
	switch t {
	case tools.TypeString, tools.TypeInteger, tools.TypeNumber, tools.TypeBoolean, tools.TypeArray, tools.TypeObject:
		return true
	}
	return false
}

func jsonType(v any) string {
	switch x := v.(type) {
	case bool:
		return tools.TypeBoolean
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return tools.TypeInteger
		}
		return tools.TypeNumber
	case float64:
		return tools.TypeNumber
	case []any:
		return tools.TypeArray
	case map[string]any:
		return tools.TypeObject
	}
	return tools.TypeString
}
