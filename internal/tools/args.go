package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Args are the arguments of one call, keyed by parameter name. Values are
// JSON values: string, bool, nil, []any, map[string]any, and for numbers
// int or json.Number as decoded (see DecodeArgs), or int and float64 once
// validated (validation turns integer parameters into int and number
// parameters into float64).
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

// DecodeArgs decodes the arguments of a call: a JSON object. A number written
// as a plain integer that fits in an int (42, -7) becomes an int, the form
// validation gives integer parameters, so that a good call is validated
// without a copy; every other number (3.14, 42.0, 1e2, 2^70) stays
// json.Number, its text exact for validation to judge. Empty input and null
// mean no arguments. Anything else (an array, a string, trailing data, malformed
// JSON) is an error whose text starts "Invalid JSON arguments: ".
func DecodeArgs(raw []byte) (Args, error) {
	trimmed := bytes.Trim(raw, " \t\r\n") // JSON's whitespace, not Unicode's
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return Args{}, nil
	}
	if what := jsonKind(trimmed[0]); what != "" {
		return nil, fmt.Errorf("Invalid JSON arguments: expected an object, got %s", what)
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	var args Args
	if err := dec.Decode(&args); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("Invalid JSON arguments: %w (at byte %d)", err, se.Offset)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("Invalid JSON arguments: unexpected end of input: %w", io.ErrUnexpectedEOF)
		}
		return nil, fmt.Errorf("Invalid JSON arguments: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("Invalid JSON arguments: unexpected data after the object (at byte %d)", dec.InputOffset())
	}
	intsInPlace(args)
	return args, nil
}

// intsInPlace replaces, in the freshly decoded m, every json.Number written
// as a plain integer that fits in an int by that int, inside arrays and
// objects too.
func intsInPlace(m map[string]any) {
	for k, v := range m {
		if nv, ok := plainInt(v); ok {
			m[k] = nv
		}
	}
}

// plainInt returns v as an int when it is a json.Number written as a plain
// integer that fits; arrays and objects in v are converted in place.
func plainInt(v any) (any, bool) {
	switch x := v.(type) {
	case json.Number:
		// -0 is left as written: an int would print it as 0.
		if n, err := strconv.Atoi(string(x)); err == nil && (n != 0 || x == "0") {
			return n, true
		}
	case map[string]any:
		intsInPlace(x)
	case []any:
		for i, e := range x {
			if ne, ok := plainInt(e); ok {
				x[i] = ne
			}
		}
	}
	return nil, false
}

// jsonKind names the JSON value that starts with c, when it is valid JSON
// but not an object; "" otherwise (an object, or malformed input for the
// decoder to describe).
func jsonKind(c byte) string {
	switch {
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	}
	return ""
}

// DecodeValue decodes one JSON value the way DecodeArgs decodes an
// argument's value (plain integers that fit as int, other numbers as
// json.Number with their text), so that a value typed in the shell and the
// same value sent by a model arrive identical. Trailing text is an error.
func DecodeValue(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected text after the value")
	}
	if nv, ok := plainInt(v); ok {
		return nv, nil
	}
	return v, nil
}

// ParseNumber reads s when it is exactly a JSON number, as DecodeValue
// would decode it; false for anything else (" 1", "0x10", "1_000").
func ParseNumber(s string) (any, bool) {
	if s == "" || !(s[0] == '-' || (s[0] >= '0' && s[0] <= '9')) {
		return nil, false
	}
	v, err := DecodeValue([]byte(s))
	if err != nil {
		return nil, false
	}
	switch n := v.(type) {
	case int:
		if strconv.Itoa(n) != s {
			return nil, false
		}
		return n, true
	case json.Number:
		if string(n) != s {
			return nil, false
		}
		return n, true
	}
	return nil, false
}
