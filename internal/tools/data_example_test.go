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

func ExampleParseToolCalls() {
	text := `Let me look.
<tool>
{"server_name": "local", "tool_name": "Read", "arguments": {"file_path": "/a"}}
</tool>
<tool>{"server_name": "remote", "tool_name": "Read"}</tool>`
	calls, err := tools.ParseToolCalls(text)
	for _, c := range calls {
		fmt.Println(c.Name, string(c.Arguments))
	}
	fmt.Println(err)
	// Output:
	// Read {"file_path": "/a"}
	// tool call 2: server "remote" is not supported: only "local"
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
