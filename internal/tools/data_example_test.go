package tools_test

import (
	"fmt"

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
