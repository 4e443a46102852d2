package tools_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

func ExampleValidate() {
	params := []tools.Parameter{
		{Name: "file_path", Type: tools.TypeString, Required: true},
		{Name: "limit", Type: tools.TypeInteger, Default: 2000, Minimum: tools.Float(1), Maximum: tools.Float(10000)},
	}
	args, _ := tools.DecodeArgs([]byte(`{"file_path": "/etc/hosts"}`))
	out, err := tools.Validate(params, args)
	fmt.Println(out["file_path"], out["limit"], err == nil)

	args, _ = tools.DecodeArgs([]byte(`{"file_path": "/etc/hosts", "limit": 50000}`))
	_, err = tools.Validate(params, args)
	fmt.Println(err)

	args, _ = tools.DecodeArgs([]byte(`{"filepath": "/etc/hosts"}`))
	_, err = tools.Validate(params, args)
	fmt.Println(err)
	// Output:
	// /etc/hosts 2000 true
	// Value for limit exceeds maximum: 10000
	// Unknown parameter: filepath (valid parameters: file_path, limit)
}

func ExampleNewTyped() {
	type greetArgs struct {
		Name  string `json:"name" desc:"Who to greet" minLength:"1"`
		Times int    `json:"times" desc:"How often" default:"1" min:"1" max:"3"`
	}
	greet := tools.MustTyped("Greet", "Greet someone", tools.CategoryOther,
		func(ctx context.Context, ec tools.ExecutionContext, in greetArgs) (tools.Result, error) {
			return tools.OK(strings.TrimSpace(strings.Repeat("Hello, "+in.Name+"! ", in.Times))), nil
		})
	fmt.Println(string(tools.ParametersSchema(greet.Parameters())))

	reg := tools.NewRegistry()
	_ = reg.Register(greet)
	exec := tools.NewExecutor(reg)
	r := exec.ExecuteJSON(context.Background(), "Greet", tools.ExecutionContext{}, []byte(`{"name": "forge", "times": 2}`))
	fmt.Println(r.Display())
	r = exec.ExecuteJSON(context.Background(), "Greet", tools.ExecutionContext{}, []byte(`{"name": "forge", "times": 2.5}`))
	fmt.Println(r.Display())
	// Output:
	// {"type":"object","properties":{"name":{"type":"string","description":"Who to greet","minLength":1},"times":{"type":"integer","description":"How often","default":1,"minimum":1,"maximum":3}},"required":["name"]}
	// Hello, forge! Hello, forge!
	// Error: Invalid type for times: expected integer
}

func ExampleIndentSchema() {
	d := tools.Descriptor{Name: "Glob", Description: "Find files", Parameters: []tools.Parameter{
		{Name: "pattern", Type: tools.TypeString, Description: "Glob pattern", Required: true},
	}}
	raw, _ := tools.ExportSchema(d, tools.FormatAnthropic)
	pretty, _ := tools.IndentSchema(raw, "  ")
	fmt.Println(string(pretty))
	// Output:
	// {
	//   "name": "Glob",
	//   "description": "Find files",
	//   "input_schema": {
	//     "type": "object",
	//     "properties": {
	//       "pattern": {
	//         "type": "string",
	//         "description": "Glob pattern"
	//       }
	//     },
	//     "required": ["pattern"]
	//   }
	// }
}

func ExampleSuggest() {
	fmt.Println(tools.Suggest("Raed", []string{"Read", "Write", "Grep"}, 3))
	// Output: [Read]
}
