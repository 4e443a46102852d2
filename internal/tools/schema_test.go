package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// descTool is a tool made of a descriptor, for schema tests.
type descTool struct{ d Descriptor }

func (t descTool) Name() string            { return t.d.Name }
func (t descTool) Description() string     { return t.d.Description }
func (t descTool) Category() Category      { return t.d.Category }
func (t descTool) Parameters() []Parameter { return t.d.Parameters }
func (t descTool) Execute(context.Context, ExecutionContext, Args) Result {
	return OK(t.d.Name)
}

// exampleRead is a Read tool without defaults, and exampleBash a tool with
// defaults, an integer range and a boolean: the tools of the pretty examples.
func exampleRead() Descriptor {
	return Descriptor{Name: "Read", Description: "Read contents of a file from the filesystem", Category: CategoryFile, Parameters: readLikeParams()}
}

func exampleBash() Descriptor {
	return Descriptor{Name: "Bash", Description: "Execute a bash command", Category: CategoryExecution, Parameters: []Parameter{
		{Name: "command", Type: TypeString, Description: "The command to execute", Required: true},
		{Name: "timeout", Type: TypeInteger, Description: "Timeout in milliseconds", Default: 120000, Minimum: Float(1000), Maximum: Float(600000)},
		{Name: "run_in_background", Type: TypeBoolean, Description: "Run command in background", Default: false},
	}}
}

func compact(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("bad JSON %s: %v", s, err)
	}
	return b.String()
}

func TestParameterJSONSchema(t *testing.T) {
	cases := []struct {
		scenario string
		p        Parameter
		want     string
	}{
		{"Define simple string parameter",
			Parameter{Name: "file_path", Type: TypeString, Description: "Absolute path to the file to read", Required: true},
			`{"type": "string", "description": "Absolute path to the file to read"}`},
		{"Define parameter with enum constraint",
			Parameter{Name: "format", Type: TypeString, Description: "Output format", Default: "openai", Enum: []any{"openai", "anthropic"}},
			`{"type": "string", "description": "Output format", "default": "openai", "enum": ["openai", "anthropic"]}`},
		{"Define parameter with numeric constraints",
			Parameter{Name: "timeout", Type: TypeInteger, Description: "Execution timeout in seconds", Default: 120, Minimum: Float(1), Maximum: Float(600)},
			`{"type": "integer", "description": "Execution timeout in seconds", "default": 120, "minimum": 1, "maximum": 600}`},
		{"Define parameter with string length constraints",
			Parameter{Name: "content", Type: TypeString, Description: "File content to write", Required: true, MinLength: Int(1), MaxLength: Int(1000000)},
			`{"type": "string", "description": "File content to write", "minLength": 1, "maxLength": 1000000}`},
		{"array with items and item count",
			Parameter{Name: "tags", Type: TypeArray, Description: "Tags", MinLength: Int(1), Items: &Parameter{Type: TypeString, Enum: []any{"a", "b"}}},
			`{"type":"array","description":"Tags","minItems":1,"items":{"type":"string","enum":["a","b"]}}`},
		{"object with properties",
			Parameter{Name: "edit", Type: TypeObject, Description: "An edit", Properties: []Parameter{
				{Name: "old_string", Type: TypeString, Description: "Text to replace", Required: true},
				{Name: "ratio", Type: TypeNumber, Minimum: Float(0.5)},
			}},
			`{"type":"object","description":"An edit","properties":{"old_string":{"type":"string","description":"Text to replace"},"ratio":{"type":"number","minimum":0.5}},"required":["old_string"]}`},
		{"escaping", Parameter{Name: "q", Type: TypeString, Description: "a \"quoted\" <tool> ü\n"},
			`{"type":"string","description":"a \"quoted\" <tool> ü\n"}`},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			if got := string(c.p.JSONSchema()); got != compact(t, c.want) {
				t.Errorf("got  %s\nwant %s", got, compact(t, c.want))
			}
		})
	}
}

func TestParametersSchemaEmpty(t *testing.T) {
	if got := string(ParametersSchema(nil)); got != `{"type":"object","properties":{},"required":[]}` {
		t.Errorf("got %s", got)
	}
}

// The exports match the pretty examples character for character, compact
// and indented.
func TestExportMatchesPrettyExamples(t *testing.T) {
	cases := []struct {
		name string
		d    Descriptor
		f    Format
		want string
	}{
		{"OpenAI simple tool schema", exampleRead(), FormatOpenAI, prettyOpenAIRead},
		{"OpenAI tool with enum parameter", exampleBash(), FormatOpenAI, prettyOpenAIBash},
		{"Anthropic simple tool schema", exampleRead(), FormatAnthropic, prettyAnthropicRead},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := ExportSchema(c.d, c.f)
			if err != nil {
				t.Fatal(err)
			}
			if string(raw) != compact(t, c.want) {
				t.Errorf("compact:\ngot  %s\nwant %s", raw, compact(t, c.want))
			}
			pretty, err := IndentSchema(raw, "  ")
			if err != nil {
				t.Fatal(err)
			}
			if string(pretty) != c.want {
				t.Errorf("pretty:\n%s\nwant\n%s", pretty, c.want)
			}
		})
	}
}

// readFixture is a Read tool with params, or with file_path, offset and
// limit when none are given.
func readFixture(params ...Parameter) Descriptor {
	if params == nil {
		params = []Parameter{
			{Name: "file_path", Type: TypeString, Description: "Absolute path to the file", Required: true},
			{Name: "offset", Type: TypeInteger, Description: "Line number to start from"},
			{Name: "limit", Type: TypeInteger, Description: "Maximum lines to read"},
		}
	}
	return Descriptor{Name: "Read", Description: "Read contents of a file", Category: CategoryFile, Parameters: params}
}

// Scenario: Generate OpenAI schema for simple tool
// Scenario: Generate Anthropic schema for simple tool
func TestExportSimpleTool(t *testing.T) {
	openai, _ := ExportSchema(readFixture(), FormatOpenAI)
	want := `{"type":"function","function":{"name":"Read","description":"Read contents of a file","parameters":{"type":"object","properties":{` +
		`"file_path":{"type":"string","description":"Absolute path to the file"},"offset":{"type":"integer","description":"Line number to start from"},` +
		`"limit":{"type":"integer","description":"Maximum lines to read"}},"required":["file_path"]}}}`
	if string(openai) != want {
		t.Errorf("openai:\n%s\n%s", openai, want)
	}
	anth, _ := ExportSchema(readFixture(Parameter{Name: "file_path", Type: TypeString, Description: "Absolute path to the file", Required: true}), FormatAnthropic)
	want = `{"name":"Read","description":"Read contents of a file","input_schema":{"type":"object","properties":{"file_path":{"type":"string","description":"Absolute path to the file"}},"required":["file_path"]}}`
	if string(anth) != want {
		t.Errorf("anthropic:\n%s\n%s", anth, want)
	}
}

// Scenario: Generate OpenAI schema with enum parameter
// Scenario: Generate OpenAI schema with numeric constraints
func TestExportPropertyFragments(t *testing.T) {
	d := readFixture(
		Parameter{Name: "format", Type: TypeString, Enum: []any{"json", "yaml"}},
		Parameter{Name: "timeout", Type: TypeInteger, Minimum: Float(1), Maximum: Float(600)},
	)
	raw, _ := ExportSchema(d, FormatOpenAI)
	var s struct {
		Function struct {
			Parameters struct {
				Properties map[string]map[string]any
			}
		}
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	props := s.Function.Parameters.Properties
	if fmt.Sprint(props["format"]) != "map[enum:[json yaml] type:string]" {
		t.Errorf("format: %v", props["format"])
	}
	if fmt.Sprint(props["timeout"]) != "map[maximum:600 minimum:1 type:integer]" {
		t.Errorf("timeout: %v", props["timeout"])
	}
}

func TestExportOtherFormats(t *testing.T) {
	d := Descriptor{Name: "Grep", Description: "Search", Parameters: []Parameter{
		{Name: "pattern", Type: TypeString, Description: "Regex", Required: true},
		{Name: "mode", Type: TypeString, Enum: []any{"a", "b"}},
		{Name: "level", Type: TypeInteger, Enum: []any{1, 2}, Default: 1},
	}}
	cases := []struct {
		f    Format
		want string
	}{
		{FormatLangChain, `{"type":"function","function":{"name":"Grep","description":"Search","parameters":{"type":"object","properties":{"pattern":{"type":"string","description":"Regex"},"mode":{"type":"string","enum":["a","b"]},"level":{"type":"integer","default":1,"enum":[1,2]}},"required":["pattern"]}}}`},
		{FormatMCP, `{"name":"Grep","description":"Search","inputSchema":{"type":"object","properties":{"pattern":{"type":"string","description":"Regex"},"mode":{"type":"string","enum":["a","b"]},"level":{"type":"integer","default":1,"enum":[1,2]}},"required":["pattern"]}}`},
		// Gemini: string enums only.
		{FormatGemini, `{"name":"Grep","description":"Search","parameters":{"type":"object","properties":{"pattern":{"type":"string","description":"Regex"},"mode":{"type":"string","enum":["a","b"]},"level":{"type":"integer","default":1}},"required":["pattern"]}}`},
	}
	for _, c := range cases {
		got, err := ExportSchema(d, c.f)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %v\ngot  %s\nwant %s", c.f, err, got, c.want)
		}
	}
	// Gemini refuses an object without properties: no parameters at all.
	empty := Descriptor{Name: "Now", Description: "Time"}
	got, _ := ExportSchema(empty, FormatGemini)
	if string(got) != `{"name":"Now","description":"Time"}` {
		t.Errorf("gemini empty: %s", got)
	}
	got, _ = ExportSchema(Descriptor{Name: "X", Description: "x", Parameters: []Parameter{{Name: "o", Type: TypeString}}}, FormatGemini)
	if string(got) != `{"name":"X","description":"x","parameters":{"type":"object","properties":{"o":{"type":"string"}}}}` {
		t.Errorf("gemini without required: %s", got)
	}
	got, _ = ExportSchema(empty, FormatMCP)
	if string(got) != `{"name":"Now","description":"Time","inputSchema":{"type":"object","properties":{},"required":[]}}` {
		t.Errorf("mcp empty: %s", got)
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats() {
		if g, err := ParseFormat(string(f)); err != nil || g != f {
			t.Errorf("%s: %v", f, err)
		}
	}
	_, err := ParseFormat("xml")
	if err == nil || err.Error() != "Unknown schema format: xml (known: openai, anthropic, langchain, gemini, mcp)" {
		t.Errorf("got %v", err)
	}
	if _, err := ExportSchema(exampleRead(), "xml"); err == nil || !strings.Contains(err.Error(), "known: openai") {
		t.Errorf("export: %v", err)
	}
}

// representative descriptors: every type, nesting, enums, constraints, none.
func representativeTools() []Descriptor {
	return []Descriptor{
		exampleRead(), exampleBash(),
		{Name: "Empty", Description: "No parameters"},
		{Name: "MultiEdit", Description: "Edits", Parameters: editParams()},
		{Name: "Kitchen", Description: "Every \"type\" <here>", Parameters: []Parameter{
			{Name: "s", Type: TypeString, Description: "s", Enum: []any{"x", "y"}, Default: "x", MinLength: Int(1), MaxLength: Int(5)},
			{Name: "i", Type: TypeInteger, Enum: []any{1, 2, 3}, Minimum: Float(-1), Maximum: Float(3)},
			{Name: "n", Type: TypeNumber, Default: 0.5, Minimum: Float(0.25)},
			{Name: "b", Type: TypeBoolean, Default: true},
			{Name: "a", Type: TypeArray, Items: &Parameter{Type: TypeArray, Items: &Parameter{Type: TypeNumber}}, MaxLength: Int(3), Default: []any{}},
			{Name: "o", Type: TypeObject, Default: map[string]any{"k": 1}},
			{Name: "deep", Type: TypeObject, Required: true, Properties: []Parameter{
				{Name: "inner", Type: TypeObject, Properties: []Parameter{{Name: "leaf", Type: TypeString, Required: true}}},
			}},
		}},
	}
}

// parametersOf extracts the parameters schema from one exported definition.
func parametersOf(t *testing.T, f Format, raw []byte) (any, bool) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: invalid JSON %s: %v", f, raw, err)
	}
	var p json.RawMessage
	switch f {
	case FormatOpenAI, FormatLangChain:
		var fn struct{ Function map[string]json.RawMessage }
		_ = json.Unmarshal(raw, &fn)
		p = fn.Function["parameters"]
	case FormatAnthropic:
		p = m["input_schema"]
	case FormatMCP:
		p = m["inputSchema"]
	case FormatGemini:
		p = m["parameters"]
	}
	if p == nil {
		return nil, false
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(p))
	if err != nil {
		t.Fatal(err)
	}
	return doc, true
}

// Every exported schema is a valid JSON Schema 2020-12 (the compiler checks
// it against the meta-schema), and accepts what Validate accepts.
func TestExportedSchemasAgainstMetaSchema(t *testing.T) {
	samples := map[string]Args{
		"Read":      {"file_path": "/a", "offset": 0, "limit": 10},
		"Bash":      {"command": "ls"},
		"Empty":     {},
		"MultiEdit": {"file_path": "/a", "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}},
		"Kitchen":   {"deep": map[string]any{"inner": map[string]any{"leaf": "x"}}, "a": []any{[]any{1.5}}},
	}
	for _, d := range representativeTools() {
		for _, f := range Formats() {
			raw, err := ExportSchema(d, f)
			if err != nil {
				t.Fatal(err)
			}
			doc, ok := parametersOf(t, f, raw)
			if !ok {
				if f == FormatGemini && len(d.Parameters) == 0 {
					continue
				}
				t.Fatalf("%s %s: no parameters in %s", d.Name, f, raw)
			}
			c := jsonschema.NewCompiler()
			c.DefaultDraft(jsonschema.Draft2020)
			url := "mem://" + d.Name + "/" + string(f) + ".json"
			if err := c.AddResource(url, doc); err != nil {
				t.Fatal(err)
			}
			sch, err := c.Compile(url)
			if err != nil {
				t.Errorf("%s %s: not a valid JSON Schema: %v\n%s", d.Name, f, err, raw)
				continue
			}
			out, verr := Validate(d.Parameters, samples[d.Name])
			if verr != nil {
				t.Fatalf("%s: sample invalid: %v", d.Name, verr)
			}
			inst, _ := json.Marshal(out)
			v, _ := jsonschema.UnmarshalJSON(bytes.NewReader(inst))
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s %s: schema refuses validated args %s: %v", d.Name, f, inst, err)
			}
		}
	}
}

func exportRegistry(t testing.TB, n int) (*Registry, *Executor) {
	t.Helper()
	reg := NewRegistry()
	for i := range n {
		d := exampleRead()
		d.Name = fmt.Sprintf("Tool%02d", i)
		if i%2 == 1 {
			d = exampleBash()
			d.Name = fmt.Sprintf("Tool%02d", i)
		}
		if err := reg.Register(descTool{d}); err != nil {
			t.Fatal(err)
		}
	}
	return reg, NewExecutor(reg)
}

// Scenario: Get all schemas - OpenAI format
// Scenario: Get all schemas - Anthropic format
// Scenario: Get schemas by category
func TestExecutorSchemas(t *testing.T) {
	reg := NewRegistry()
	for _, d := range []Descriptor{exampleRead(), {Name: "Write", Description: "Write a file", Category: CategoryFile}, exampleBash()} {
		if err := reg.Register(descTool{d}); err != nil {
			t.Fatal(err)
		}
	}
	e := NewExecutor(reg)
	all, err := e.Schemas(FormatOpenAI)
	if err != nil || len(all) != 3 {
		t.Fatalf("openai: %d, %v", len(all), err)
	}
	for _, s := range all {
		if !bytes.HasPrefix(s, []byte(`{"type":"function"`)) {
			t.Errorf("not an OpenAI schema: %s", s)
		}
	}
	all, _ = e.Schemas(FormatAnthropic)
	if len(all) != 3 {
		t.Fatalf("anthropic: %d", len(all))
	}
	for _, s := range all {
		if !bytes.Contains(s, []byte(`"input_schema":`)) {
			t.Errorf("not an Anthropic schema: %s", s)
		}
	}
	files, err := e.SchemasByCategory(CategoryFile, FormatOpenAI)
	if err != nil || len(files) != 2 || !bytes.Contains(files[0], []byte(`"name":"Read"`)) || !bytes.Contains(files[1], []byte(`"name":"Write"`)) {
		t.Errorf("by category: %v %s", err, files)
	}
	if _, err := e.Schemas("yaml"); err == nil {
		t.Error("unknown format accepted")
	}
	if _, err := e.SchemasByCategory(CategoryFile, "yaml"); err == nil {
		t.Error("unknown format accepted by category")
	}
	one, err := e.Schema("Bash", FormatMCP)
	if err != nil || !bytes.HasPrefix(one, []byte(`{"name":"Bash"`)) {
		t.Errorf("one: %s %v", one, err)
	}
	if _, err := e.Schema("Nope", FormatMCP); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing tool: %v", err)
	}
	if _, err := e.Schema("Bash", "nope"); err == nil {
		t.Error("unknown format accepted for one tool")
	}
}

// The cache is invalidated when the registry changes and never hands out its
// own slice.
func TestExportCacheInvalidation(t *testing.T) {
	reg, e := exportRegistry(t, 2)
	a, _ := e.Schemas(FormatOpenAI)
	a[0] = json.RawMessage("mutated")
	b, _ := e.Schemas(FormatOpenAI)
	if len(b) != 2 || string(b[0]) == "mutated" {
		t.Fatalf("cache handed out its slice: %s", b)
	}
	if err := reg.Register(descTool{Descriptor{Name: "Zed", Description: "z", Category: CategoryOther}}); err != nil {
		t.Fatal(err)
	}
	c, _ := e.Schemas(FormatOpenAI)
	if len(c) != 3 {
		t.Fatalf("after register: %d", len(c))
	}
	reg.Deregister("Zed")
	if c, _ := e.Schemas(FormatOpenAI); len(c) != 2 {
		t.Fatalf("after deregister: %d", len(c))
	}
	other, _ := e.SchemasByCategory(CategoryOther, FormatOpenAI)
	if len(other) != 0 || other == nil {
		t.Fatalf("empty category: %#v", other)
	}
	reg.Clear()
	if c, _ := e.Schemas(FormatAnthropic); len(c) != 0 {
		t.Fatalf("after clear: %d", len(c))
	}
}

func TestExportCacheConcurrent(t *testing.T) {
	reg, e := exportRegistry(t, 4)
	var wg sync.WaitGroup
	for g := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				name := fmt.Sprintf("extra%d_%d", g, i)
				if g%3 == 0 {
					_ = reg.Register(descTool{Descriptor{Name: name, Description: "x", Category: CategoryWeb}})
					reg.Deregister(name)
				}
				f := Formats()[i%len(Formats())]
				if s, err := e.Schemas(f); err != nil || len(s) < 4 {
					t.Errorf("schemas: %d %v", len(s), err)
					return
				}
				if _, err := e.SchemasByCategory(CategoryFile, f); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if s, _ := e.Schemas(FormatOpenAI); len(s) != 4 {
		t.Errorf("final: %d", len(s))
	}
}

func TestIndentSchema(t *testing.T) {
	got, err := IndentSchema([]byte(`{"a":[],"b":{},"c":[{"x":1},2],"d":[1,"s",true,null]}`), "  ")
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": [\n    {\n      \"x\": 1\n    },\n    2\n  ],\n  \"d\": [1, \"s\", true, null]\n}"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, bad := range []string{``, `{`, `{"a":1}x`, `[1,]`, `{"a" 1}`} {
		if _, err := IndentSchema([]byte(bad), "  "); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// BenchmarkExportOpenAI16 is the cached export of 16 tools (target <= 1 µs).
func BenchmarkExportOpenAI16(b *testing.B) {
	_, e := exportRegistry(b, 16)
	if _, err := e.Schemas(FormatOpenAI); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if s, _ := e.Schemas(FormatOpenAI); len(s) != 16 {
			b.Fatal(len(s))
		}
	}
}

// BenchmarkExportOpenAI16Uncached builds the 16 definitions every time.
func BenchmarkExportOpenAI16Uncached(b *testing.B) {
	reg, _ := exportRegistry(b, 16)
	tools := reg.ListAll()
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range tools {
			if _, err := ExportSchema(Describe(t), FormatOpenAI); err != nil {
				b.Fatal(err)
			}
		}
	}
}
