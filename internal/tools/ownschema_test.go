package tools

import (
	"context"
	"encoding/json"
	"testing"
)

func TestModelSchema(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`},
		{` { "type" : "object" , "properties" : {} } `, `{"type":"object","properties":{}}`},
		{`{"type":"object"}`, `{"properties":{},"type":"object"}`},
		{`{}`, `{"properties":{},"type":"object"}`},
		{`{"properties":{"a":{"oneOf":[{"type":"integer"},{"type":"string"}]}}}`, `{"properties":{"a":{"oneOf":[{"type":"integer"},{"type":"string"}]}},"type":"object"}`},
		{`{"type":"object","properties":{"a":{}},"oneOf":[{"properties":{"b":{"type":"integer"}},"required":["b"]},{"properties":{"a":{"type":"string"},"c":{}}}]}`,
			`{"properties":{"a":{},"b":{"type":"integer"},"c":{}},"type":"object"}`},
		{`{"type":"object","properties":{"big":{"maximum":12345678901234567890}}}`, `{"type":"object","properties":{"big":{"maximum":12345678901234567890}}}`},
		{`[1]`, `{"type":"object","properties":{}}`},
		{`not json`, `{"type":"object","properties":{}}`},
		{`{"type":"object","properties":{"h":{"description":"<b>&"}},"anyOf":[]}`, `{"properties":{"h":{"description":"<b>&"}},"type":"object"}`},
	} {
		if got := string(ModelSchema(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("ModelSchema(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestGeminiSchema(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"type":"object"}`, ``},
		{`{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}},"required":[],"additionalProperties":false,"$schema":"x"}`,
			`{"properties":{"a":{"enum":["x","y"],"type":"string"}},"type":"object"}`},
		{`{"properties":{"n":{"type":["integer","null"],"enum":[1,2]},"c":{"const":"k"},"u":{"oneOf":[{"type":"integer"},{"$ref":"#/$defs/S"}]}},"$defs":{"S":{"type":"string","pattern":"^a"}}}`,
			`{"properties":{"c":{"enum":["k"],"type":"string"},"n":{"nullable":true,"type":"integer"},"u":{"anyOf":[{"type":"integer"},{"pattern":"^a","type":"string"}]}},"type":"object"}`},
		{`{"properties":{"t":{"$ref":"#/$defs/T"}},"$defs":{"T":{"type":"object","properties":{"next":{"$ref":"#/$defs/T"}}}}}`,
			`{"properties":{"t":{"properties":{"next":{"properties":{"next":{"properties":{"next":{"properties":{"next":{"properties":{"next":{"properties":{"next":{"type":"object"}},"type":"object"}},"type":"object"}},"type":"object"}},"type":"object"}},"type":"object"}},"type":"object"}},"type":"object"}`},
		{`{"properties":{"x":{"$ref":"#/nowhere"},"tuple":{"type":"array","items":[{"type":"string"}]}}}`,
			`{"properties":{"tuple":{"type":"array"},"x":{"type":"object"}},"type":"object"}`},
	} {
		if got := string(GeminiSchema(json.RawMessage(tc.in))); got != tc.want {
			t.Errorf("GeminiSchema(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func FuzzModelSchema(f *testing.F) {
	for _, s := range []string{`{}`, `{"oneOf":[{"properties":{"a":1}}]}`, `{"properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"$ref":"#/$defs/a"}}}`, `[]`, `{"properties":null}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m := ModelSchema(json.RawMessage(s))
		var top map[string]any
		if err := json.Unmarshal(m, &top); err != nil || top["type"] != "object" {
			t.Fatalf("ModelSchema(%q) = %s", s, m)
		}
		if _, ok := top["properties"].(map[string]any); !ok {
			t.Fatalf("ModelSchema(%q) without properties: %s", s, m)
		}
		if g := GeminiSchema(json.RawMessage(s)); g != nil && !json.Valid(g) {
			t.Fatalf("GeminiSchema(%q) = %s", s, g)
		}
	})
}

// schemaTool validates with its own rule: any value of "v" but false.
type schemaTool struct {
	rtTool
}

func (*schemaTool) InputSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{"v":{"not":{"const":false}}}}`)
}

func (*schemaTool) ValidateArgs(args Args) *ValidationError {
	if args["v"] == false {
		return &ValidationError{Path: "v", Rule: RuleSchema, Message: "Invalid value for v: false"}
	}
	return nil
}

// TestSchemaToolValidation: a SchemaTool's own check replaces the
// parameters' everywhere, and its arguments reach it untouched.
func TestSchemaToolValidation(t *testing.T) {
	var got Args
	st := &schemaTool{rtTool{name: "own", params: []Parameter{{Name: "v", Type: TypeInteger, Default: 3}},
		run: func(_ context.Context, _ ExecutionContext, args Args) Result { got = args; return OK("ok") }}}
	reg := NewRegistry()
	if err := reg.Register(st); err != nil {
		t.Fatal(err)
	}
	ex := NewExecutor(reg)
	d := Describe(st)
	if string(d.InputSchema) != string(st.InputSchema()) {
		t.Errorf("descriptor schema %s", d.InputSchema)
	}
	for _, tc := range []struct {
		args string
		ok   bool
		want string
	}{
		{`{"v":"abc"}`, true, `{"v":"abc"}`},
		{`{"v":null}`, true, `{"v":null}`},
		{`{"v":1.5}`, true, `{"v":1.5}`},
		{`{}`, true, `{}`},
		{``, true, `{}`},
		{`{"v":false}`, false, ""},
	} {
		got = nil
		r := ex.ExecuteJSON(context.Background(), "own", NewExecutionContext(""), json.RawMessage(tc.args))
		if r.Success != tc.ok {
			t.Errorf("%s: %+v", tc.args, r)
			continue
		}
		if !tc.ok {
			if r.ErrorKind != KindValidation || r.Metadata["rule"] != string(RuleSchema) || r.Metadata["parameter"] != "v" {
				t.Errorf("%s: %+v", tc.args, r)
			}
			continue
		}
		b, _ := json.Marshal(got)
		if string(b) != tc.want {
			t.Errorf("%s: tool got %s, want %s", tc.args, b, tc.want)
		}
	}
	if _, verr := ValidateFor(st, Args{"v": false}); verr == nil || verr.Tool != "own" {
		t.Errorf("ValidateFor: %+v", verr)
	}
	if _, verr := ValidateFor(&st.rtTool, Args{"v": "x"}); verr == nil || verr.Rule != RuleType {
		t.Errorf("ValidateFor of a plain tool: %+v", verr)
	}
}
