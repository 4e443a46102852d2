package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// The schema of server-memory's create_entities, with a union, a default
// and a reference added: what a model needs to call it right.
const entitiesSchema = `{"type":"object","properties":{
	"entities":{"type":"array","description":"An array of entities","items":{"type":"object",
		"properties":{"name":{"type":"string"},"entityType":{"type":"string","enum":["person","place"],"default":"person"},
			"observations":{"type":"array","items":{"type":"string"}}},
		"required":["name","entityType","observations"]}},
	"id":{"oneOf":[{"type":"integer"},{"type":"string"}]},
	"opts":{"type":"object"},
	"note":{"type":["string","null"]},
	"where":{"$ref":"#/$defs/Place"}},
	"$defs":{"Place":{"type":"object","properties":{"city":{"type":"string"}}}},
	"required":["entities"]}`

// TestDeclaredSchemaReachesModel: the model gets the server's schema with
// its nested shapes, and every export format stays what its provider
// accepts.
func TestDeclaredSchemaReachesModel(t *testing.T) {
	ms := newMemServer(nil)
	recordTool(ms, "create_entities", entitiesSchema, make(chan string, 1))
	_, reg, ex := memManager(t, ms)
	tool, ok := reg.Get("mcp__mem__create_entities")
	if !ok {
		t.Fatal("not registered")
	}
	var spec map[string]any
	if err := json.Unmarshal(tools.InputSchema(tools.Describe(tool)), &spec); err != nil {
		t.Fatal(err)
	}
	items := spec["properties"].(map[string]any)["entities"].(map[string]any)["items"].(map[string]any)
	kind := items["properties"].(map[string]any)["entityType"].(map[string]any)
	if kind["default"] != "person" || len(kind["enum"].([]any)) != 2 || len(items["required"].([]any)) != 3 {
		t.Errorf("nested shape lost: %v", items)
	}
	if _, ok := spec["$defs"]; !ok {
		t.Errorf("$defs dropped: %v", spec)
	}
	if id := spec["properties"].(map[string]any)["id"].(map[string]any); len(id["oneOf"].([]any)) != 2 {
		t.Errorf("oneOf lost: %v", id)
	}

	for _, f := range tools.Formats() {
		raw, err := ex.Schema("mcp__mem__create_entities", f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var def map[string]any
		if err := json.Unmarshal(raw, &def); err != nil {
			t.Fatalf("%s: %v: %s", f, err, raw)
		}
		if fn, ok := def["function"].(map[string]any); ok {
			def = fn
		}
		var schema map[string]any
		for _, k := range []string{"parameters", "input_schema", "inputSchema"} {
			if s, ok := def[k].(map[string]any); ok {
				schema = s
			}
		}
		if schema["type"] != "object" {
			t.Errorf("%s: top type %v", f, schema["type"])
		}
		text := string(raw)
		if f == tools.FormatGemini {
			for _, bad := range []string{"$ref", "$defs", "oneOf", `"type":["`} {
				if strings.Contains(text, bad) {
					t.Errorf("gemini keeps %s: %s", bad, text)
				}
			}
			if !strings.Contains(text, `"where":{"properties":{"city":{"type":"string"}},"type":"object"}`) || !strings.Contains(text, `"nullable":true`) {
				t.Errorf("gemini: reference not inlined or null type lost: %s", text)
			}
		} else if !strings.Contains(text, `"enum":["person","place"]`) {
			t.Errorf("%s: nested enum lost: %s", f, text)
		}
	}
}

// TestArgumentsAsGiven: arguments the server's schema accepts reach it
// byte for byte as the model gave them, nulls included; those it refuses
// never leave.
func TestArgumentsAsGiven(t *testing.T) {
	ms := newMemServer(nil)
	got := make(chan string, 1)
	recordTool(ms, "create_entities", entitiesSchema, got)
	_, _, ex := memManager(t, ms)
	for _, tc := range []struct {
		args, want string
	}{
		{`{"entities":[],"id":"abc"}`, `{"entities":[],"id":"abc"}`},
		{`{"entities":[],"id":7,"note":null}`, `{"entities":[],"id":7,"note":null}`},
		{`{"entities":[],"opts":{"a":{"b":[1,2.5]}}}`, `{"entities":[],"opts":{"a":{"b":[1,2.5]}}}`},
		{`{"entities":[{"name":"Ada","entityType":"person","observations":["x"]}]}`, `{"entities":[{"entityType":"person","name":"Ada","observations":["x"]}]}`},
	} {
		r := ex.ExecuteJSON(context.Background(), "mcp__mem__create_entities", ec(), json.RawMessage(tc.args))
		if !r.Success {
			t.Errorf("%s: %+v", tc.args, r)
			continue
		}
		if sent := <-got; sent != tc.want {
			t.Errorf("%s: server got %s, want %s", tc.args, sent, tc.want)
		}
	}
	for _, bad := range []string{`{}`, `{"entities":[{"name":"Ada"}]}`, `{"entities":[],"id":true}`, `{"entities":[],"opts":[]}`} {
		r := ex.ExecuteJSON(context.Background(), "mcp__mem__create_entities", ec(), json.RawMessage(bad))
		if r.Success || r.ErrorKind != tools.KindValidation {
			t.Errorf("%s: %+v", bad, r)
		}
	}
	select {
	case s := <-got:
		t.Errorf("an invalid call reached the server: %s", s)
	default:
	}
}
