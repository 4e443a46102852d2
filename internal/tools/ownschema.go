package tools

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// A tool's own schema (see SchemaTool) goes to a model as it was declared,
// but providers accept less at the top of a tool's schema than JSON Schema
// allows: Anthropic and OpenAI want {"type":"object"} with "properties",
// and Anthropic refuses oneOf, anyOf and allOf there. Below the top every
// keyword is kept: nested items and properties, enums, defaults, unions,
// $defs and $ref (both providers resolve local references).

// topCombinators are the keywords refused at the top of a tool's schema.
var topCombinators = []string{"oneOf", "anyOf", "allOf"}

// ModelSchema returns schema adapted to what every provider accepts at its
// top: type object, properties present, and the properties of top-level
// oneOf/anyOf/allOf alternatives merged into its own (none required, since
// each alternative requires its own). A schema that is not a JSON object
// gives the empty object schema. The arguments are still checked against
// the schema as declared.
func ModelSchema(schema json.RawMessage) json.RawMessage {
	top, ok := decodeObject(schema)
	if !ok {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	changed := false
	if top["type"] != "object" {
		top["type"] = "object"
		changed = true
	}
	props, _ := top["properties"].(map[string]any)
	if props == nil {
		props = map[string]any{}
		top["properties"] = props
		changed = true
	}
	for _, key := range topCombinators {
		alts, ok := top[key]
		if !ok {
			continue
		}
		delete(top, key)
		changed = true
		list, _ := alts.([]any)
		for _, a := range list {
			m, _ := a.(map[string]any)
			more, _ := m["properties"].(map[string]any)
			for name, p := range more {
				if _, have := props[name]; !have {
					props[name] = p
				}
			}
		}
	}
	if !changed {
		var b bytes.Buffer
		if json.Compact(&b, schema) == nil {
			return b.Bytes()
		}
	}
	return encodeCompact(top)
}

// decodeObject decodes a JSON object, numbers kept exact.
func decodeObject(raw json.RawMessage) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if dec.Decode(&m) != nil || m == nil || dec.More() {
		return nil, false
	}
	return m, true
}

// encodeCompact encodes v without HTML escaping.
func encodeCompact(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// geminiKeys are the schema keywords of Gemini's OpenAPI subset.
var geminiKeys = []string{"type", "format", "title", "description", "nullable", "enum", "items",
	"properties", "required", "minItems", "maxItems", "minProperties", "maxProperties",
	"minLength", "maxLength", "pattern", "minimum", "maximum", "default", "anyOf"}

// maxRefDepth bounds how deep references are inlined for Gemini, which has
// none: a recursive type is cut off there as a free-form object.
const maxRefDepth = 6

// GeminiSchema converts a tool's own schema to Gemini's subset: local
// references inlined (to maxRefDepth), oneOf as anyOf, const as a
// one-value enum, a type list with null as nullable, enums on strings
// only, and every keyword Gemini does not know dropped. It returns nil
// when the schema has no properties (Gemini refuses an empty object).
func GeminiSchema(schema json.RawMessage) json.RawMessage {
	top, ok := decodeObject(ModelSchema(schema))
	if !ok {
		return nil
	}
	g := geminiNode(top, top, 0)
	if p, _ := g["properties"].(map[string]any); len(p) == 0 {
		return nil
	}
	if r, _ := g["required"].([]any); len(r) == 0 {
		delete(g, "required")
	}
	return encodeCompact(g)
}

// geminiNode converts one schema node; root holds the $defs.
func geminiNode(n, root map[string]any, depth int) map[string]any {
	if ref, ok := n["$ref"].(string); ok {
		target := resolveRef(root, ref)
		if target == nil || depth >= maxRefDepth {
			return map[string]any{"type": "object"}
		}
		out := geminiNode(target, root, depth+1)
		if d, ok := n["description"].(string); ok {
			out["description"] = d
		}
		return out
	}
	out := map[string]any{}
	for _, k := range geminiKeys {
		if v, ok := n[k]; ok {
			out[k] = v
		}
	}
	if c, ok := n["const"]; ok {
		out["enum"] = []any{c}
	}
	if alts, ok := n["oneOf"]; ok {
		out["anyOf"] = alts
	}
	geminiType(out)
	if alts, ok := out["anyOf"].([]any); ok {
		conv := make([]any, 0, len(alts))
		for _, a := range alts {
			if m, ok := a.(map[string]any); ok {
				conv = append(conv, geminiNode(m, root, depth))
			}
		}
		out["anyOf"] = conv
	}
	if items, ok := out["items"].(map[string]any); ok {
		out["items"] = geminiNode(items, root, depth)
	} else {
		delete(out, "items") // a tuple's list of schemas
	}
	if props, ok := out["properties"].(map[string]any); ok {
		conv := make(map[string]any, len(props))
		for name, p := range props {
			if m, ok := p.(map[string]any); ok {
				conv[name] = geminiNode(m, root, depth)
			}
		}
		out["properties"] = conv
	}
	if e, ok := out["enum"].([]any); ok {
		strs := !slices.ContainsFunc(e, func(v any) bool { _, s := v.(string); return !s })
		switch {
		case strs && out["type"] == nil:
			out["type"] = "string"
		case !strs || out["type"] != "string":
			delete(out, "enum")
		}
	}
	return out
}

// geminiType turns a type list into one type, nullable when null is among
// them; a list of several other types keeps the first.
func geminiType(out map[string]any) {
	list, ok := out["type"].([]any)
	if !ok {
		return
	}
	delete(out, "type")
	for _, t := range list {
		s, _ := t.(string)
		switch {
		case s == "null":
			out["nullable"] = true
		case out["type"] == nil && s != "":
			out["type"] = s
		}
	}
}

// resolveRef returns the schema a local reference (#/$defs/X,
// #/definitions/X, or a JSON pointer into root) names, or nil.
func resolveRef(root map[string]any, ref string) map[string]any {
	path, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	var cur any = root
	for _, part := range strings.Split(path, "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[part]
	}
	m, _ := cur.(map[string]any)
	return m
}
