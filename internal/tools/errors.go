package tools

import "fmt"

// ToolError is an error about one tool: registration refused, tool not found.
// Its text reads: Tool 'Read' error: File not found.
type ToolError struct {
	ToolName string
	Message  string
	Err      error // the cause, if any, for errors.Is/As
}

// Error returns the text: Tool 'Read' error: File not found.
func (e *ToolError) Error() string {
	return fmt.Sprintf("Tool '%s' error: %s", e.ToolName, e.Message)
}

// Unwrap returns the cause.
func (e *ToolError) Unwrap() error { return e.Err }
