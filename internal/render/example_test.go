package render_test

import (
	"fmt"

	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

func ExampleRenderer_Result() {
	r := render.New(render.Options{}) // width unknown: 71 columns, no colour
	res := tools.OK("Line 1: Hello, World!")
	res.DurationMS = 12
	fmt.Println(r.Result("Read", res, tools.Presentation{}))
	// Output:
	// ┌─────────────────────────────────────────────────────────────────────┐
	// │ Tool: Read                                                          │
	// │ Status: ✓ Success                                                   │
	// ├─────────────────────────────────────────────────────────────────────┤
	// │ Output:                                                             │
	// │ Line 1: Hello, World!                                               │
	// ├─────────────────────────────────────────────────────────────────────┤
	// │ Duration: 12ms                                                      │
	// └─────────────────────────────────────────────────────────────────────┘
}

func ExampleRenderer_ToolNotFound() {
	r := render.New(render.Options{Width: 48})
	fmt.Println(r.ToolNotFound("Raed", []string{"Read"}))
	// Output:
	// ┌──────────────────────────────────────────────┐
	// │ Error: Tool Not Found                        │
	// ├──────────────────────────────────────────────┤
	// │ The tool "Raed" is not registered.           │
	// │                                              │
	// │ Did you mean this?                           │
	// │   • Read                                     │
	// │                                              │
	// │ Use /tools to see all available tools.       │
	// └──────────────────────────────────────────────┘
}
