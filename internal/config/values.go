package config

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// The converters below take a value as any layer may hold it (YAML scalars and lists,
// strings from the environment and flags, typed defaults) and return the typed value
// or the reason it is unusable. The reasons are what users read, after the key.

var (
	errWantString   = errors.New("want a string")
	errWantBool     = errors.New("want true or false")
	errWantInt      = errors.New("want a whole number")
	errWantDuration = errors.New("want a duration such as 90s or 2m, or a number of seconds")
	errWantList     = errors.New("want a list of strings")
	// A NUL byte ends a string at the system call, so a value holding one would
	// name another file or program than the one written; none is meaningful.
	errNUL = errors.New("must not contain a NUL byte")
)

// maxSeconds is the largest number of seconds a time.Duration holds.
const maxSeconds = float64(math.MaxInt64) / float64(time.Second)

func toString(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "", nil
	case string:
		if strings.ContainsRune(x, 0) {
			return "", errNUL
		}
		return x, nil
	case bool, int, int64, uint64, float64:
		return fmt.Sprint(x), nil
	}
	return "", errWantString
}

func toBool(v any) (bool, error) {
	switch x := v.(type) {
	case nil:
		return false, nil
	case bool:
		return x, nil
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "t", "1", "yes", "y", "on":
			return true, nil
		case "false", "f", "0", "no", "n", "off", "":
			return false, nil
		}
	case int:
		if x == 0 || x == 1 {
			return x == 1, nil
		}
	}
	return false, errWantBool
}

func toInt(v any) (int, error) {
	switch x := v.(type) {
	case int:
		return x, nil
	case int64:
		if x >= math.MinInt && x <= math.MaxInt {
			return int(x), nil
		}
	case uint64:
		if x <= math.MaxInt {
			return int(x), nil
		}
	case float64:
		if x == math.Trunc(x) && x >= math.MinInt && x < math.MaxInt {
			return int(x), nil
		}
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return n, nil
		}
	}
	return 0, errWantInt
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}

// toDuration accepts Go durations ("90s", "2m", "1m30s") and bare numbers of seconds
// (120, 1.5, "120"). Only positive durations are valid: a call always has a limit.
func toDuration(v any) (time.Duration, error) {
	var d time.Duration
	switch x := v.(type) {
	case time.Duration:
		d = x
	case string:
		s := strings.TrimSpace(x)
		if secs, ok := toFloat(s); ok {
			return secondsToDuration(secs)
		}
		parsed, err := time.ParseDuration(s)
		if err != nil {
			return 0, errWantDuration
		}
		d = parsed
	default:
		secs, ok := toFloat(v)
		if !ok {
			return 0, errWantDuration
		}
		return secondsToDuration(secs)
	}
	if d <= 0 {
		return 0, errors.New("must be positive")
	}
	return d, nil
}

func secondsToDuration(secs float64) (time.Duration, error) {
	if secs <= 0 {
		return 0, errors.New("must be positive")
	}
	if secs >= maxSeconds {
		return 0, errors.New("too long")
	}
	d := time.Duration(secs * float64(time.Second))
	if d <= 0 {
		return 0, errors.New("must be at least 1ns")
	}
	return d, nil
}

// toList accepts a YAML list of scalars or a string, which is split like $PATH (so
// FORGE_ALLOWED_ROOTS=/a:/b names two directories).
func toList(v any) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []string:
		for _, s := range x {
			if strings.ContainsRune(s, 0) {
				return nil, errNUL
			}
		}
		return append([]string(nil), x...), nil
	case string:
		if x == "" {
			return nil, nil
		}
		if strings.ContainsRune(x, 0) {
			return nil, errNUL
		}
		return filepath.SplitList(x), nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, err := toString(e)
			if errors.Is(err, errNUL) {
				return nil, err
			}
			if err != nil {
				return nil, errWantList
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, errWantList
}

// envNameRule is what a portable environment variable name looks like: what shells
// accept in "export NAME=value".
var envNameRule = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// toNames reads a list of environment variable names: a YAML list, or a string
// split at ":", "," or white space (FORGE_PASS_ENV="GH_TOKEN,NPM_TOKEN"), since no
// name contains them. Every name must match envNameRule.
func toNames(v any) ([]string, error) {
	var l []string
	if s, ok := v.(string); ok {
		l = strings.FieldsFunc(s, func(r rune) bool { return r == ':' || r == ',' || unicode.IsSpace(r) })
	} else {
		var err error
		if l, err = toList(v); err != nil {
			return nil, err
		}
	}
	out := make([]string, 0, len(l))
	for _, n := range l {
		if !envNameRule().MatchString(n) {
			return nil, fmt.Errorf("%q is not a variable name (letters, digits and _, not starting with a digit)", n)
		}
		out = append(out, n)
	}
	return out, nil
}

// oneOf returns s lower-cased when it is one of valid, else an error listing them.
func oneOf(v any, valid ...string) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	n := strings.ToLower(strings.TrimSpace(s))
	for _, ok := range valid {
		if n == ok {
			return n, nil
		}
	}
	return "", fmt.Errorf("must be one of %s", strings.Join(valid, ", "))
}

// display renders a value for an error message the way the user wrote it.
func display(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []string:
		return strings.Join(x, ",")
	case map[string]any, map[any]any:
		return "{...}"
	}
	return fmt.Sprint(v)
}
