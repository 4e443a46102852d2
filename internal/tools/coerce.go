package tools

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Arguments come from JSON (numbers as json.Number, objects as
// map[string]any) or from Go code (int, int64, float64, []string,
// map[string]string, ...). These helpers read both representations; none of
// them ever treats a bool or a string as a number.

// asInt returns v as an int when it is a mathematically integral number that
// fits in an int.
func asInt(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case json.Number:
		return parseInt(string(x))
	case int64:
		return int(x), int64(int(x)) == x
	case float64:
		return floatToInt(x)
	case int32:
		return int(x), true
	case int16:
		return int(x), true
	case int8:
		return int(x), true
	case uint:
		return int(x), x <= math.MaxInt
	case uint64:
		return int(x), x <= math.MaxInt
	case uint32:
		return int(x), uint64(x) <= math.MaxInt
	case uint16:
		return int(x), true
	case uint8:
		return int(x), true
	case float32:
		return floatToInt(float64(x))
	}
	return 0, false
}

func parseInt(s string) (int, bool) {
	if n, err := strconv.ParseInt(s, 10, 0); err == nil {
		return int(n), true
	}
	return decimalInt(s)
}

// decimalInt reads a JSON number written with a fraction or an exponent
// (42.0, 4.2e1, 120e-1) as the int it denotes, when it denotes one (JSON
// Schema: mathematically integral). It works on the decimal text, never
// through a float64: as a float64, 1e-400 would round to 0,
// 1.0000000000000001 to 1, and 9007199254740993.0 to an integer one less.
func decimalInt(s string) (int, bool) {
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(s[i+1:])
		if err != nil {
			// An exponent beyond int: huge (no int is that large) or
			// tiny (only zero is integral).
			if !strings.HasPrefix(s[i+1:], "-") {
				e = math.MaxInt32
			} else {
				e = math.MinInt32
			}
		}
		exp = e
	}
	neg := strings.HasPrefix(mant, "-")
	intPart, frac, _ := strings.Cut(strings.TrimLeft(mant, "+-"), ".")
	all := intPart + frac
	if all == "" || strings.Trim(all, "0123456789") != "" {
		return 0, false // not a decimal number
	}
	// The value is 0.digits × 10^point, with point counted from intPart's
	// start; leading zeros move the point, trailing zeros do not matter.
	digits := strings.TrimLeft(all, "0")
	point := len(intPart) + exp - (len(all) - len(digits))
	digits = strings.TrimRight(digits, "0")
	if digits == "" {
		return 0, true // zero, whatever its exponent
	}
	if len(digits) > point {
		return 0, false // a fraction is left
	}
	if point > 19 {
		return 0, false // more digits than any int64 has
	}
	text := digits + strings.Repeat("0", point-len(digits))
	if neg {
		text = "-" + text
	}
	n, err := strconv.ParseInt(text, 10, 0)
	return int(n), err == nil
}

func floatToInt(f float64) (int, bool) {
	// The bounds are int's, exact powers of two (on 32-bit platforms too:
	// 2^31 must not wrap to MinInt32); NaN fails f == Trunc(f).
	if f != math.Trunc(f) || f < math.MinInt || f >= -float64(math.MinInt) {
		return 0, false
	}
	return int(f), true
}

// asFloat returns v as a finite float64 when it is a number.
func asFloat(v any) (float64, bool) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(x), 64); err != nil {
			return 0, false
		}
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case int16:
		return float64(x), true
	case int8:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint64:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint8:
		return float64(x), true
	case float32:
		f = float64(x)
	default:
		return 0, false
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// asSlice returns v as []any when it is a slice or array. Go slices of other
// element types are copied into a new []any.
func asSlice(v any) ([]any, bool) {
	if s, ok := v.([]any); ok {
		return s, true
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || (rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array) {
		return nil, false
	}
	if rv.Kind() == reflect.Slice && rv.IsNil() {
		return []any{}, true
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// asMap returns v as map[string]any when it is a map with string keys.
// Maps of other value types are copied into a new map[string]any.
func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case Args:
		return m, true
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, false
	}
	out := make(map[string]any, rv.Len())
	it := rv.MapRange()
	for it.Next() {
		out[it.Key().String()] = it.Value().Interface()
	}
	return out, true
}

// defaultValue returns p's default in the representation validation gives
// (int, float64), and a fresh copy of an array or object default so that a
// tool changing its arguments cannot change the default of the next call.
func defaultValue(p *Parameter) any {
	switch p.Type {
	case TypeInteger:
		if n, ok := asInt(p.Default); ok {
			return n
		}
	case TypeNumber:
		if f, ok := asFloat(p.Default); ok {
			return f
		}
	}
	return cloneValue(p.Default)
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneValue(e)
		}
		return out
	}
	if s, ok := asSlice(v); ok {
		return cloneValue(s)
	}
	if m, ok := asMap(v); ok {
		return cloneValue(m)
	}
	return v
}

func enumHasString(enum []any, s string) bool {
	for _, e := range enum {
		if es, ok := e.(string); ok && es == s {
			return true
		}
	}
	return false
}

func enumHasNumber(enum []any, f float64) bool {
	for _, e := range enum {
		if ef, ok := asFloat(e); ok && ef == f {
			return true
		}
	}
	return false
}

// enumHasValue compares booleans, arrays and objects structurally, numbers
// by value whatever their Go type.
func enumHasValue(enum []any, v any) bool {
	for _, e := range enum {
		if jsonEqual(e, v) {
			return true
		}
	}
	return false
}

func jsonEqual(a, b any) bool {
	if fa, ok := asFloat(a); ok {
		fb, ok := asFloat(b)
		return ok && fa == fb
	}
	switch a.(type) {
	case nil, bool, string:
		return a == b
	}
	if sa, ok := asSlice(a); ok {
		sb, ok := asSlice(b)
		if !ok || len(sa) != len(sb) {
			return false
		}
		for i := range sa {
			if !jsonEqual(sa[i], sb[i]) {
				return false
			}
		}
		return true
	}
	if ma, ok := asMap(a); ok {
		mb, ok := asMap(b)
		if !ok || len(ma) != len(mb) {
			return false
		}
		for k, va := range ma {
			vb, ok := mb[k]
			if !ok || !jsonEqual(va, vb) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// pyList writes values as a Python list literal, the form validation
// messages use: ['json', 'yaml', 'toml']. Strings are in single quotes;
// everything else is written as JSON (1, 1.5, true, null).
func pyList(values []any) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pyRepr(v))
	}
	b.WriteByte(']')
	return b.String()
}

// pyQuote escapes a string for pyRepr's single quotes.
var pyQuote = strings.NewReplacer(`\`, `\\`, `'`, `\'`)

func pyRepr(v any) string {
	if s, ok := v.(string); ok {
		return "'" + pyQuote.Replace(s) + "'"
	}
	if f, ok := asFloat(v); ok {
		if n, isJSON := v.(json.Number); isJSON {
			return string(n)
		}
		return formatFloat(f)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "?"
	}
	return string(b)
}

// formatFloat writes 1 as 1 and 1.5 as 1.5: the shortest exact decimal,
// without exponent or trailing zeros.
func formatFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
