package tools

import (
	"encoding/json"
	"math"
	"strconv"
)

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
// representation an argument can have; fractions are truncated.
func (a Args) Int(name string) int {
	switch v := a[name].(type) {
	case int:
		return v
	case int64:
		return int(v)
	case float64:
		return int(v)
	case json.Number:
		if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return int(n)
		}
		if f, err := v.Float64(); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return int(f)
		}
	}
	return 0
}

// Float returns the numeric argument name, or 0.
func (a Args) Float(name string) float64 {
	switch v := a[name].(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case json.Number:
		f, _ := v.Float64()
		return f
	}
	return 0
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
