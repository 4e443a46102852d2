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
	if msg := s.validate(tools.Args{"q": "ok"}); msg != "" {
		t.Errorf("valid args refused: %s", msg)
	}
	if msg := s.validate(tools.Args{"q": "x"}); !strings.HasPrefix(msg, "at '/q': ") {
		t.Errorf("message = %q", msg)
	}
	// External references are never loaded: the schema does not compile
	// and calls go unchecked by it (forge's own validation still runs).
	r := compileSchema("mcp://t/z", decode(t, `{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`))
	if r.err == nil || r.compiled != nil {
		t.Errorf("external ref compiled: %v", r.err)
	}
	if msg := r.validate(tools.Args{"a": 1}); msg != "" {
		t.Errorf("uncompiled schema refused: %s", msg)
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
