// Package cfg reads values from a tool's configuration section (the
// tools.<Name> map that factories receive), tolerating the shapes YAML, JSON,
// environment variables and viper produce: keys in any case, numbers as
// int, float64, json.Number or strings, durations as "30s" or seconds.
//
// Each key is declared once, as a Key: the factory reads the value with
// Get, and forge checks a configured value with the Key's Setting when it
// starts, so that both accept exactly the same values.
package cfg

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// Key is one key of a tool's section: its name, its default, and how a
// configured value becomes a T.
type Key[T any] struct {
	Name    string
	Default T
	parse   func(v any) (T, error)
}

// Get returns the key's value in m (its key in any case), or the default
// when m has none or null. The error names the key and says what a valid
// value looks like.
func (k Key[T]) Get(m map[string]any) (T, error) {
	v, ok := Lookup(m, k.Name)
	if !ok || v == nil {
		return k.Default, nil
	}
	x, err := k.parse(v)
	if err != nil {
		return x, fmt.Errorf("%s: %w", k.Name, err)
	}
	return x, nil
}

// Setting declares the key to forge's configuration check: its Check is the
// parse that Get uses.
func (k Key[T]) Setting() tools.Setting {
	return tools.Setting{Key: k.Name, Check: func(v any) error {
		if v == nil {
			return nil
		}
		_, err := k.parse(v)
		return err
	}}
}

// StringKey is a string, e.g. a path or a URL.
func StringKey(name, def string) Key[string] {
	return Key[string]{Name: name, Default: def, parse: parseString}
}

// BoolKey is true or false ("true" and "false" strings accepted).
func BoolKey(name string, def bool) Key[bool] {
	return Key[bool]{Name: name, Default: def, parse: parseBool}
}

// PositiveIntKey is a whole number from 1 to 2^31-1: zero or a negative
// number is refused, so that a typo in a limit is reported instead of
// turning the limit off.
func PositiveIntKey(name string, def int) Key[int] {
	return Key[int]{Name: name, Default: def, parse: parsePositiveInt}
}

// DurationKey is a Go duration ("30s", "1m30s") or a number of seconds.
func DurationKey(name string, def time.Duration) Key[time.Duration] {
	return Key[time.Duration]{Name: name, Default: def, parse: parseDuration}
}

// PositiveDurationKey is DurationKey without zero or negative durations.
func PositiveDurationKey(name string, def time.Duration) Key[time.Duration] {
	return Key[time.Duration]{Name: name, Default: def, parse: func(v any) (time.Duration, error) {
		d, err := parseDuration(v)
		if err == nil && d <= 0 {
			return 0, errors.New("want a positive duration such as 30s")
		}
		return d, err
	}}
}

// StringsKey is a list of strings; one string counts as a list of one. Its
// default is nil.
func StringsKey(name string) Key[[]string] {
	return Key[[]string]{Name: name, parse: parseStrings}
}

// Lookup returns the value of key, matched without regard to case.
func Lookup(m map[string]any, key string) (any, bool) {
	if v, ok := m[key]; ok {
		return v, true
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v, true
		}
	}
	return nil, false
}

func parseString(v any) (string, error) {
	switch s := v.(type) {
	case string:
		return s, nil
	case fmt.Stringer:
		return s.String(), nil
	}
	return "", fmt.Errorf("want a string, not %s", kind(v))
}

func parseBool(v any) (bool, error) {
	switch b := v.(type) {
	case bool:
		return b, nil
	case string:
		if p, err := strconv.ParseBool(strings.TrimSpace(b)); err == nil {
			return p, nil
		}
	}
	return false, errors.New("want true or false")
}

// parseNumber reads a finite number.
func parseNumber(v any) (float64, error) {
	var f float64
	switch n := v.(type) {
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case uint64:
		f = float64(n)
	case float64:
		f = n
	case json.Number:
		x, err := n.Float64()
		if err != nil {
			return 0, errors.New("want a number")
		}
		f = x
	case string:
		x, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		if err != nil {
			return 0, errors.New("want a number")
		}
		f = x
	default:
		return 0, fmt.Errorf("want a number, not %s", kind(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errors.New("want a finite number")
	}
	return f, nil
}

func parsePositiveInt(v any) (int, error) {
	f, err := parseNumber(v)
	if err != nil || f != math.Trunc(f) || f < 1 || f > math.MaxInt32 {
		return 0, errors.New("want a whole number of at least 1")
	}
	return int(f), nil
}

func parseDuration(v any) (time.Duration, error) {
	const want = "want a duration such as 30s, or a number of seconds"
	switch d := v.(type) {
	case time.Duration:
		return d, nil
	case string:
		if x, err := time.ParseDuration(strings.TrimSpace(d)); err == nil {
			return x, nil
		}
	}
	f, err := parseNumber(v)
	if err != nil || math.Abs(f) > math.MaxInt64/float64(time.Second) {
		return 0, errors.New(want)
	}
	return time.Duration(f * float64(time.Second)), nil
}

func parseStrings(v any) ([]string, error) {
	switch x := v.(type) {
	case string:
		return []string{x}, nil
	case []string:
		return x, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, it := range x {
			s, ok := it.(string)
			if !ok {
				return nil, fmt.Errorf("want a list of strings, and %v is not a string", it)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a list of strings, not %s", kind(v))
}

// kind names the shape of a configured value for a person: "a list", "a
// mapping", "a number".
func kind(v any) string {
	switch v.(type) {
	case []any, []string:
		return "a list"
	case map[string]any, map[any]any:
		return "a mapping"
	case bool:
		return "true or false"
	case string:
		return "a string"
	case int, int64, uint64, float64, json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}
