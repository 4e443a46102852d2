package tools

// Parameter types a tool may declare: the JSON Schema primitive types.
const (
	TypeString  = "string"
	TypeInteger = "integer"
	TypeNumber  = "number"
	TypeBoolean = "boolean"
	TypeArray   = "array"
	TypeObject  = "object"
)

// Parameter describes one argument of a tool: its name, type, description,
// whether it is required, its default and its constraints. Items and
// Properties let array and object parameters describe their contents; both
// are validated recursively.
type Parameter struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Description string   `json:"description"`
	Required    bool     `json:"required"`
	Default     any      `json:"default,omitempty"`
	Enum        []any    `json:"enum,omitempty"`
	MinLength   *int     `json:"min_length,omitempty"`
	MaxLength   *int     `json:"max_length,omitempty"`
	Minimum     *float64 `json:"minimum,omitempty"`
	Maximum     *float64 `json:"maximum,omitempty"`
	// Items describes each element of an array parameter (its Name is unused).
	Items *Parameter `json:"items,omitempty"`
	// Properties describes the fields of an object parameter, in order.
	Properties []Parameter `json:"properties,omitempty"`
}

// Int returns a pointer to n, for MinLength and MaxLength.
func Int(n int) *int { return &n }

// Float returns a pointer to f, for Minimum and Maximum.
func Float(f float64) *float64 { return &f }
