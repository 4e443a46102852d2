package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/forgehq/forge/internal/tools"
)

// inputSchema is an MCP tool's inputSchema, compiled once when the tool
// list arrives, and the forge parameters derived from it.
//
// The server's schema is the contract: models get it as declared (see
// tools.SchemaTool), and every call is checked against it in full (nested
// objects, unions, patterns...) before it is sent. The parameters derived
// from its top-level properties (name, type, description, required) only
// summarise it, for /tools and the argument-line parser.
type inputSchema struct {
	raw      json.RawMessage    // the schema as JSON
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
	if s.raw, err = json.Marshal(raw); err != nil {
		s.err = err
		return s
	}
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

// validate checks args against the server's schema and returns nil or the
// failure: one wrong place in forge's usual words (Missing required
// parameter: q), several joined with "; ".
func (s *inputSchema) validate(args tools.Args) *tools.ValidationError {
	if s.compiled == nil {
		return nil
	}
	if args == nil {
		args = tools.Args{} // a call without arguments sends an empty object
	}
	v, err := normalise(map[string]any(args))
	if err != nil {
		return &tools.ValidationError{Rule: tools.RuleJSON, Message: "arguments cannot be encoded: " + err.Error()}
	}
	err = s.compiled.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &tools.ValidationError{Rule: tools.RuleSchema, Message: err.Error()}
	}
	var leaves []*tools.ValidationError
	collect(ve, &leaves)
	leaves = mergeTypes(leaves)
	if len(leaves) == 0 {
		return &tools.ValidationError{Rule: tools.RuleSchema, Message: ve.Error()}
	}
	out := *leaves[0]
	for _, l := range leaves[1:] {
		out.Message += "; " + l.Message
	}
	return &out
}

// maxLeaves bounds the places one message names.
const maxLeaves = 5

// collect appends the failures at the leaves of e's tree, each in forge's
// words, up to maxLeaves.
func collect(e *jsonschema.ValidationError, out *[]*tools.ValidationError) {
	if len(*out) >= maxLeaves {
		return
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	*out = append(*out, leaf(e))
}

// mergeTypes joins type failures at one path (the alternatives of a
// union) into one: Invalid type for id: expected integer or string.
func mergeTypes(leaves []*tools.ValidationError) []*tools.ValidationError {
	var out []*tools.ValidationError
	first := map[string]*tools.ValidationError{}
	for _, l := range leaves {
		prev, seen := first[l.Path]
		if l.Rule != tools.RuleType || !seen {
			if l.Rule == tools.RuleType {
				first[l.Path] = l
			}
			out = append(out, l)
			continue
		}
		_, want, _ := strings.Cut(l.Message, ": expected ")
		prev.Message += " or " + want
	}
	return out
}

// leaf is one failure: the kinds forge's own validation knows in its
// messages, others as the validator words them, at the value's path.
func leaf(e *jsonschema.ValidationError) *tools.ValidationError {
	path := argPath(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		name := joinPath(path, k.Missing[0])
		return &tools.ValidationError{Path: name, Rule: tools.RuleMissing, Message: "Missing required parameter: " + name}
	case *kind.Type:
		if path != "" {
			return &tools.ValidationError{Path: path, Rule: tools.RuleType,
				Message: fmt.Sprintf("Invalid type for %s: expected %s", path, strings.Join(k.Want, " or "))}
		}
	case *kind.Enum:
		if path != "" {
			return &tools.ValidationError{Path: path, Rule: tools.RuleEnum, Received: k.Got,
				Message: fmt.Sprintf("Invalid value for %s: must be one of %s", path, jsonText(k.Want))}
		}
	case *kind.AdditionalProperties:
		name := joinPath(path, k.Properties[0])
		return &tools.ValidationError{Path: name, Rule: tools.RuleUnknown, Message: "Unknown parameter: " + name}
	}
	where := path
	if where == "" {
		where = "the arguments"
	}
	return &tools.ValidationError{Path: path, Rule: tools.RuleSchema,
		Message: fmt.Sprintf("Invalid value for %s: %s", where, e.ErrorKind.LocalizedString(printer))}
}

// printer words the validator's messages.
var printer = message.NewPrinter(language.English)

// argPath writes an instance location as forge names arguments:
// edits[1].old_string.
func argPath(loc []string) string {
	var b strings.Builder
	for _, tok := range loc {
		if _, err := strconv.Atoi(tok); err == nil && b.Len() > 0 {
			b.WriteString("[" + tok + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
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
