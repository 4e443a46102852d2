package tools

import (
	"encoding/json"
	"fmt"
)

// ValidationError says which argument is wrong and how. Message is exactly
// the seed's text ("Missing required parameter: file_path").
type ValidationError struct {
	Tool     string // the tool, when known
	Path     string // the parameter, with the path inside it: edits[1].old_string
	Message  string
	Received any // the offending value; nil for a missing parameter
}

func (e *ValidationError) Error() string { return e.Message }

// Validate checks args against params and returns a new Args with defaults
// applied and numbers normalised (integer parameters as int, number
// parameters as float64). args is not modified.
func Validate(params []Parameter, args Args) (Args, *ValidationError) {
	// TODO(core): full validation per seed 003 and issue 2 item 3.
	out := make(Args, len(params))
	for k, v := range args {
		out[k] = v
	}
	for _, p := range params {
		v, ok := args[p.Name]
		if !ok {
			if p.Required {
				return nil, &ValidationError{Path: p.Name, Message: "Missing required parameter: " + p.Name}
			}
			if p.Default != nil {
				out[p.Name] = p.Default
			}
			continue
		}
		if p.Type == TypeInteger {
			if n, ok := v.(json.Number); ok {
				if i, err := n.Int64(); err == nil {
					out[p.Name] = int(i)
					continue
				}
				return nil, &ValidationError{Path: p.Name, Message: fmt.Sprintf("Invalid type for %s: expected integer", p.Name), Received: v}
			}
		}
	}
	return out, nil
}
