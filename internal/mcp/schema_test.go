package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func decode(t testing.TB, s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDeriveParams(t *testing.T) {
	s := compileSchema("mcp://t/x", decode(t, `{
		"type": "object",
		"$defs": {"Opts": {"type": "object"}},
		"properties": {
			"path": {"type": "string", "description": "Where."},
			"n": {"type": ["integer", "null"]},
			"mode": {"enum": [1, 2]},
			"opts": {"$ref": "#/$defs/Opts"},
			"either": {"anyOf": [{"type": "null"}, {"type": "boolean"}]},
			"anything": {}
		},
		"required": ["path"]
	}`))
	if s.err != nil {
		t.Fatal(s.err)
	}
	got := map[string]string{}
	for _, p := range s.params {
		got[p.Name] = p.Type
		if p.Name == "path" && (!p.Required || p.Description != "Where.") {
			t.Errorf("path = %+v", p)
		}
	}
	want := map[string]string{"path": "string", "n": "integer", "mode": "integer", "opts": "object", "either": "boolean", "anything": "string"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: type %q, want %q", k, got[k], v)
		}
	}
	if err := tools.CheckTool(tools.Descriptor{Name: "x", Description: "d", Category: tools.CategoryMCP, Parameters: s.params}); err != nil {
		t.Errorf("derived parameters refused: %v", err)
	}
}

func TestSchemaValidateAndRefs(t *testing.T) {
	s := compileSchema("mcp://t/y", decode(t, `{"type":"object","properties":{"q":{"type":"string","minLength":2}},"required":["q"]}`))
	if verr := s.validate(tools.Args{"q": "ok"}); verr != nil {
		t.Errorf("valid args refused: %s", verr)
	}
	if verr := s.validate(tools.Args{"q": "x"}); verr == nil || verr.Path != "q" || !strings.HasPrefix(verr.Message, "Invalid value for q: minLength") {
		t.Errorf("short q: %+v", verr)
	}
	// External references are never loaded: the schema does not compile
	// and calls go to the server unchecked, which judges them itself.
	r := compileSchema("mcp://t/z", decode(t, `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`))
	if r.err == nil || r.compiled != nil {
		t.Errorf("external ref compiled: %v", r.err)
	}
	if verr := r.validate(tools.Args{"a": 1}); verr != nil {
		t.Errorf("uncompiled schema refused: %s", verr)
	}
}

// TestSchemaAcceptsWhatServerAccepts: forge refuses exactly what the
// server's schema refuses, whatever the derived parameters say.
func TestSchemaAcceptsWhatServerAccepts(t *testing.T) {
	s := compileSchema("mcp://t/u", decode(t, `{"type":"object","properties":{
		"id": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
		"opts": {"type": "object"},
		"note": {"type": ["string", "null"]},
		"entities": {"type": "array", "items": {"type": "object",
			"properties": {"name": {"type": "string"}, "kind": {"enum": ["person", "place"]}},
			"required": ["name"]}}
	},"required":["id"]}`))
	if s.err != nil {
		t.Fatal(s.err)
	}
	for _, tc := range []struct {
		args tools.Args
		path string // "" when valid
		rule tools.Rule
		msg  string
	}{
		{tools.Args{"id": "abc"}, "", "", ""},
		{tools.Args{"id": json.Number("7")}, "", "", ""},
		{tools.Args{"id": 1, "opts": map[string]any{"deep": map[string]any{"x": 1}}}, "", "", ""},
		{tools.Args{"id": 1, "note": nil}, "", "", ""},
		{tools.Args{"id": 1, "entities": []any{map[string]any{"name": "Ada", "kind": "person"}}}, "", "", ""},
		{tools.Args{}, "id", tools.RuleMissing, "Missing required parameter: id"},
		{nil, "id", tools.RuleMissing, "Missing required parameter: id"},
		{tools.Args{"id": true}, "id", tools.RuleType, "Invalid type for id: expected integer or string"},
		{tools.Args{"id": 1, "opts": "x"}, "opts", tools.RuleType, "Invalid type for opts: expected object"},
		{tools.Args{"id": 1, "entities": []any{map[string]any{"kind": "person"}}}, "entities[0].name", tools.RuleMissing, "Missing required parameter: entities[0].name"},
		{tools.Args{"id": 1, "entities": []any{map[string]any{"name": "x", "kind": "thing"}}}, "entities[0].kind", tools.RuleEnum, `Invalid value for entities[0].kind: must be one of ["person","place"]`},
	} {
		verr := s.validate(tc.args)
		switch {
		case tc.path == "" && verr != nil:
			t.Errorf("%v refused: %s", tc.args, verr)
		case tc.path == "":
		case verr == nil:
			t.Errorf("%v accepted", tc.args)
		case verr.Path != tc.path || verr.Rule != tc.rule || !strings.HasPrefix(verr.Message, tc.msg):
			t.Errorf("%v: %+v, want %s %s %q", tc.args, verr, tc.path, tc.rule, tc.msg)
		}
	}
}

func FuzzCompileSchema(f *testing.F) {
	for _, s := range []string{`{"type":"object"}`, `{"properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/a"}}}`,
		`{"properties":{"x":{"anyOf":[{"anyOf":[{"type":"null"}]}]}}}`, `[]`, `null`, `{"properties":{"a":{"enum":[]}}}`, `{"properties":{"":{}}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		sch := compileSchema("mcp://f/t", v)
		_ = sch.validate(tools.Args{"a": 1})
		if err := tools.CheckTool(tools.Descriptor{Name: "t", Description: "d", Category: tools.CategoryMCP, Parameters: sch.params}); err != nil {
			t.Fatalf("derived parameters refused: %v", err)
		}
	})
}
