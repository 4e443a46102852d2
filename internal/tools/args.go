package tools

// Args are the arguments of one call, keyed by parameter name. Values are
// JSON values: string, bool, nil, []any, map[string]any, and for numbers
// json.Number as decoded, or int and float64 once validated (validation
// turns integer parameters into int and number parameters into float64).
type Args map[string]any

// Has reports whether name is present.
func (a Args) Has(name string) bool {
	_, ok := a[name]
	return ok
}

// String returns the string argument name, or "" when absent or not a string.
func (a Args) String(name string) string {
	s, _ := a[name].(string)
	return s
}

// Bool returns the boolean argument name, or false.
func (a Args) Bool(name string) bool {
	b, _ := a[name].(bool)
	return b
}

// Int returns the integer argument name, or 0. It accepts every numeric
// representation an argument can have (see asInt and asFloat); fractions
// are truncated.
func (a Args) Int(name string) int {
	v := a[name]
	if n, ok := asInt(v); ok {
		return n
	}
	if f, ok := asFloat(v); ok {
		return int(f)
	}
	return 0
}

// Float returns the numeric argument name, or 0 when absent, not a number
// or not finite.
func (a Args) Float(name string) float64 {
	f, _ := asFloat(a[name])
	return f
}

// Slice returns the array argument name, or nil.
func (a Args) Slice(name string) []any {
	s, _ := a[name].([]any)
	return s
}

// Strings returns the array argument name as strings, skipping non-strings.
func (a Args) Strings(name string) []string {
	items := a.Slice(name)
	out := make([]string, 0, len(items))
	for _, it := range items {
		if s, ok := it.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Map returns the object argument name, or nil.
func (a Args) Map(name string) map[string]any {
	m, _ := a[name].(map[string]any)
	return m
}
