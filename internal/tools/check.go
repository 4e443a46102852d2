package tools

import "regexp"

var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// CheckTool reports what is wrong with a tool's descriptor, as a *ToolError,
// or nil. Registration calls it.
func CheckTool(d Descriptor) error {
	if !toolName.MatchString(d.Name) {
		return &ToolError{ToolName: d.Name, Message: "invalid name: must match ^[a-zA-Z0-9_-]{1,64}$", Err: ErrInvalidTool}
	}
	// TODO(core): description, unique parameter names, known types, enum and
	// default values satisfying constraints, minimum <= maximum.
	return nil
}
