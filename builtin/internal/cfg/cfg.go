// Package cfg reads values from a tool's configuration section (the
// tools.<Name> map that factories receive), tolerating the shapes YAML, JSON,
// environment variables and viper produce: keys in any case, numbers as
// int, float64, json.Number or strings, durations as "30s" or seconds.
package cfg

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

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

// String returns the string value of key, or def when absent.
func String(m map[string]any, key, def string) (string, error) {
	v, ok := Lookup(m, key)
	if !ok || v == nil {
		return def, nil
	}
	switch s := v.(type) {
	case string:
		return s, nil
	case fmt.Stringer:
		return s.String(), nil
	}
	return "", fmt.Errorf("%s: expected a string, got %T", key, v)
}

// Bool returns the boolean value of key ("true"/"false" strings accepted),
// or def when absent.
func Bool(m map[string]any, key string, def bool) (bool, error) {
	v, ok := Lookup(m, key)
	if !ok || v == nil {
		return def, nil
	}
	switch b := v.(type) {
	case bool:
		return b, nil
	case string:
		p, err := strconv.ParseBool(strings.TrimSpace(b))
		if err != nil {
			return false, fmt.Errorf("%s: expected true or false, got %q", key, b)
		}
		return p, nil
	}
	return false, fmt.Errorf("%s: expected true or false, got %T", key, v)
}

// Float returns the numeric value of key, or def when absent.
func Float(m map[string]any, key string, def float64) (float64, error) {
	v, ok := Lookup(m, key)
	if !ok || v == nil {
		return def, nil
	}
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
			return 0, fmt.Errorf("%s: expected a number, got %q", key, n)
		}
		f = x
	case string:
		x, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		if err != nil {
			return 0, fmt.Errorf("%s: expected a number, got %q", key, n)
		}
		f = x
	default:
		return 0, fmt.Errorf("%s: expected a number, got %T", key, v)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s: expected a finite number", key)
	}
	return f, nil
}

// Int returns the integer value of key, or def when absent.
func Int(m map[string]any, key string, def int64) (int64, error) {
	f, err := Float(m, key, float64(def))
	if err != nil {
		return 0, err
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("%s: expected an integer, got %v", key, f)
	}
	return int64(f), nil
}

// Duration returns the duration value of key, or def when absent: a Go
// duration string ("30s", "1m30s") or a number of seconds.
func Duration(m map[string]any, key string, def time.Duration) (time.Duration, error) {
	v, ok := Lookup(m, key)
	if !ok || v == nil {
		return def, nil
	}
	switch d := v.(type) {
	case time.Duration:
		return d, nil
	case string:
		s := strings.TrimSpace(d)
		if x, err := time.ParseDuration(s); err == nil {
			return x, nil
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return 0, fmt.Errorf("%s: expected a duration such as 30s, got %q", key, d)
		}
	}
	f, err := Float(m, key, 0)
	if err != nil {
		return 0, fmt.Errorf("%s: expected a duration such as 30s or a number of seconds", key)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// PositiveInt returns the integer value of key, or def when absent; zero
// and negative values are refused, so that a typo in a limit is reported
// when the tool is built instead of turning the limit off.
func PositiveInt(m map[string]any, key string, def int) (int, error) {
	n, err := Int(m, key, int64(def))
	if err != nil {
		return 0, err
	}
	if n <= 0 || n > math.MaxInt32 {
		return 0, fmt.Errorf("%s: expected a positive integer, got %d", key, n)
	}
	return int(n), nil
}

// Strings returns the list of strings of key (one string counts as a list
// of one), or nil when absent.
func Strings(m map[string]any, key string) ([]string, error) {
	v, _ := Lookup(m, key)
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{x}, nil
	case []string:
		return x, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, it := range x {
			s, ok := it.(string)
			if !ok {
				return nil, fmt.Errorf("%s: expected a list of strings, found %v", key, it)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: expected a list of strings, got %T", key, v)
}
