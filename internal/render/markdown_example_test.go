package render_test

import (
	"fmt"

	"github.com/forgehq/forge/internal/render"
)

// A model's answer arrives in pieces; each Write returns the blocks it
// completed, and Flush the rest.
func ExampleMarkdownStream() {
	md := render.NewMarkdown(render.MarkdownOptions{Width: 40})
	s := md.Stream()
	for _, delta := range []string{"# Ste", "ps\n\n1. bu", "ild with `make`\n", "2. **test**\n\nDo", "ne."} {
		fmt.Print(s.Write(delta))
	}
	fmt.Print(s.Flush())
	// Output:
	// # Steps
	//
	// 1. build with `make`
	// 2. **test**
	//
	// Done.
}
