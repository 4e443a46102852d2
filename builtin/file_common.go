package builtin

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/forgehq/forge/internal/tools"
)

// described gives a built tool the identity of its descriptor, so that the
// descriptor (what listing and schema export see) and the built tool can
// never disagree.
type described struct{ d tools.Descriptor }

func (x described) Name() string                  { return x.d.Name }
func (x described) Description() string           { return x.d.Description }
func (x described) Category() tools.Category      { return x.d.Category }
func (x described) Parameters() []tools.Parameter { return x.d.Parameters }

// configInt reads an integer setting from a tool's configuration section,
// whatever numeric form the configuration loader produced. A missing key
// gives def; a value that is not a positive integer is an error, so a typo in
// the configuration is reported when the tool is built instead of ignored.
func configInt(cfg map[string]any, key string, def int) (int, error) {
	v, ok := cfg[key]
	if !ok || v == nil {
		return def, nil
	}
	var n int64
	switch x := v.(type) {
	case int:
		n = int64(x)
	case int64:
		n = x
	case float64:
		if x != float64(int64(x)) {
			return 0, fmt.Errorf("config %s: %v is not an integer", key, v)
		}
		n = int64(x)
	case json.Number:
		i, err := x.Int64()
		if err != nil {
			return 0, fmt.Errorf("config %s: %v is not an integer", key, v)
		}
		n = i
	case string:
		i, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("config %s: %q is not an integer", key, x)
		}
		n = i
	default:
		return 0, fmt.Errorf("config %s: %v is not an integer", key, v)
	}
	if n <= 0 {
		return 0, fmt.Errorf("config %s: must be positive, got %d", key, n)
	}
	return int(n), nil
}

// configStrings reads a list of strings (or one string) from a tool's
// configuration section.
func configStrings(cfg map[string]any, key string) ([]string, error) {
	switch x := cfg[key].(type) {
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
				return nil, fmt.Errorf("config %s: %v is not a string", key, it)
			}
			out = append(out, s)
		}
		return out, nil
	default:
		return nil, fmt.Errorf("config %s: expected a list of paths, got %T", key, x)
	}
}

// intArg returns the integer argument name, def when absent, clamped to
// [lo, hi]: validation already enforces the schema's bounds, and this keeps a
// tool called directly (without the executor) within them too.
func intArg(args tools.Args, name string, def, lo, hi int) int {
	n := def
	if args.Has(name) && args[name] != nil {
		n = args.Int(name)
	}
	if n < lo {
		n = lo
	}
	if hi > 0 && n > hi {
		n = hi
	}
	return n
}

// boolArg returns the boolean argument name, or def when absent.
func boolArg(args tools.Args, name string, def bool) bool {
	if b, ok := args[name].(bool); ok {
		return b
	}
	return def
}

// maxOutput is the output budget of a call: the context's cap, or the
// default when the tool is called without the executor.
func maxOutput(ec tools.ExecutionContext) int {
	if ec.MaxOutputSize > 0 {
		return ec.MaxOutputSize
	}
	return tools.DefaultMaxOutputSize
}
