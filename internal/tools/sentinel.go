package tools

import "errors"

// Sentinel causes carried by *ToolError, for errors.Is.
var (
	ErrAlreadyRegistered = errors.New("already registered")
	ErrNotFound          = errors.New("not found")
	ErrInvalidTool       = errors.New("invalid tool")
)
