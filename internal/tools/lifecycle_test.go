package tools

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// Scenario: ToolError contains tool name
func TestToolError(t *testing.T) {
	err := &ToolError{ToolName: "Read", Message: "File not found"}
	if err.ToolName != "Read" || err.Message != "File not found" || err.Error() != "Tool 'Read' error: File not found" {
		t.Errorf("ToolError = %+v, %q", err, err.Error())
	}
	if err.Unwrap() != nil {
		t.Error("a ToolError without cause unwraps to something")
	}
	wrapped := &ToolError{ToolName: "Read", Message: "Tool not found", Err: ErrNotFound}
	if !errors.Is(wrapped, ErrNotFound) {
		t.Error("errors.Is does not see the cause")
	}
}

// Scenario: Full tool lifecycle
func TestFullToolLifecycle(t *testing.T) {
	// 1. Create the tool.
	tool := echo()
	// 2. Register it with the registry.
	r := NewRegistry()
	if err := r.Register(tool); err != nil {
		t.Fatalf("register: %v", err)
	}
	// 3. Create a ToolExecutor with the registry.
	e := NewExecutor(r)
	// 4. Generate schemas for the tool.
	for _, f := range []Format{FormatOpenAI, FormatAnthropic} {
		schemas, err := e.Schemas(f)
		if err != nil || len(schemas) != 1 || !json.Valid(schemas[0]) || !strings.Contains(string(schemas[0]), `"Echo"`) {
			t.Fatalf("schemas %s: %s, %v", f, schemas, err)
		}
	}
	// 5. Execute the tool with valid parameters.
	ec := NewExecutionContext(t.TempDir())
	if res := e.Execute(context.Background(), "Echo", ec, Args{"message": "Hello"}); !res.Success || res.Output != "Hello" {
		t.Fatalf("valid call: %+v", res)
	}
	// 6. Execute the tool with invalid parameters.
	if res := e.Execute(context.Background(), "Echo", ec, Args{"message": 42}); res.Success || res.ErrorKind != KindValidation || res.Error != "Invalid type for message: expected string" {
		t.Fatalf("invalid call: %+v", res)
	}
	// 7. Deregister the tool.
	if !r.Deregister("Echo") {
		t.Fatal("deregister failed")
	}
	if r.Exists("Echo") {
		t.Error("the tool is still available after deregistration")
	}
	if res := e.Execute(context.Background(), "Echo", ec, Args{"message": "Hello"}); res.Error != "Unknown tool: Echo" {
		t.Errorf("call after deregistration: %+v", res)
	}
}

// Scenario: Tool system initialization
func TestToolSystemInitialization(t *testing.T) {
	t.Cleanup(resetDefault)
	resetDefault()
	r := Default()
	if r == nil {
		t.Fatal("no default registry")
	}
	mustRegister(t, r, fileTools()...)
	e := NewExecutor(nil)
	if e.Registry() != r {
		t.Fatal("the executor does not use the default registry")
	}
	for _, f := range Formats() {
		schemas, err := e.Schemas(f)
		if err != nil || len(schemas) != 3 {
			t.Errorf("schemas %s: %d, %v", f, len(schemas), err)
		}
	}
}

// Scenario: Get all schemas - OpenAI format
// Scenario: Get all schemas - Anthropic format
// Scenario: Get schemas by category
func TestExecutorSchemaScenarios(t *testing.T) {
	r := NewRegistry()
	mustRegister(t, r, fileTools()...)
	e := NewExecutor(r)
	decode := func(raw json.RawMessage) map[string]any {
		var m map[string]any
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	openai, err := e.Schemas(FormatOpenAI)
	if err != nil || len(openai) != 3 {
		t.Fatalf("openai: %d, %v", len(openai), err)
	}
	for _, s := range openai {
		if decode(s)["type"] != "function" {
			t.Errorf("openai schema without type function: %s", s)
		}
	}
	anthropic, err := e.Schemas(FormatAnthropic)
	if err != nil || len(anthropic) != 3 {
		t.Fatalf("anthropic: %d, %v", len(anthropic), err)
	}
	for _, s := range anthropic {
		if _, ok := decode(s)["input_schema"]; !ok {
			t.Errorf("anthropic schema without input_schema: %s", s)
		}
	}
	file, err := e.SchemasByCategory(CategoryFile, FormatOpenAI)
	if err != nil || len(file) != 2 {
		t.Fatalf("by category: %d, %v", len(file), err)
	}
	var names []string
	for _, s := range file {
		names = append(names, decode(s)["function"].(map[string]any)["name"].(string))
	}
	if strings.Join(names, ",") != "Read,Write" {
		t.Errorf("file schemas are for %v, want Read and Write", names)
	}
}

// Scenario: Create concrete tool from BaseTool
func TestConcreteTool(t *testing.T) {
	tool := &rtTool{name: "test_tool", desc: "A test tool for verification", cat: CategoryOther,
		params: []Parameter{{Name: "message", Type: TypeString, Required: true, Description: "Message to echo"}}}
	var _ Tool = tool
	if tool.Name() != "test_tool" || tool.Description() != "A test tool for verification" || tool.Category() != CategoryOther || len(tool.Parameters()) != 1 {
		t.Errorf("tool = %q %q %q %d", tool.Name(), tool.Description(), tool.Category(), len(tool.Parameters()))
	}
	if err := CheckTool(Describe(tool)); err != nil {
		t.Errorf("CheckTool = %v", err)
	}
}
