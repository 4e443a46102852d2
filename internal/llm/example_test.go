package llm_test

import (
	"fmt"

	"github.com/forgehq/forge/internal/llm"
)

func ExampleParseToolCalls() {
	text := `Let me look.
<tool>
{"server_name": "local", "tool_name": "Read", "arguments": {"file_path": "/a"}}
</tool>
<tool>{"server_name": "remote", "tool_name": "Read"}</tool>`
	calls, err := llm.ParseToolCalls(text)
	for _, c := range calls {
		fmt.Println(c.ID, c.Name, string(c.Arguments))
	}
	fmt.Println(err)
	// Output:
	// call_1 Read {"file_path": "/a"}
	// tool call 2: server "remote" is not supported: only "local"
}
