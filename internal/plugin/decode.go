package plugin

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/forgehq/forge/internal/tools"
)

// Bounds that keep a hostile manifest (deep nesting, alias bombs) cheap.
const (
	maxDepth = 32
	maxNodes = 100000
)

// decoder walks the YAML node tree itself rather than unmarshalling into
// structs: that is what lets every error name the field by its path
// (parameters[1].items.type) instead of a Go type.
type decoder struct {
	file  string
	nodes int
}

func (d *decoder) fail(n *yaml.Node, field, format string, a ...any) error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &FieldError{File: d.file, Field: field, Line: line, Message: fmt.Sprintf(format, a...)}
}

// resolve follows aliases and counts nodes, refusing alias bombs and cycles.
func (d *decoder) resolve(n *yaml.Node, field string, depth int) (*yaml.Node, error) {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode; hops++ {
		if hops > maxDepth {
			return nil, d.fail(n, field, "too many aliases")
		}
		n = n.Alias
	}
	d.nodes++
	if d.nodes > maxNodes {
		return nil, d.fail(n, field, "manifest too large once its aliases are expanded")
	}
	if depth > maxDepth {
		return nil, d.fail(n, field, "manifest nested too deeply")
	}
	if n == nil {
		return nil, d.fail(nil, field, "missing value")
	}
	return n, nil
}

// fields returns the key/value pairs of a mapping, refusing duplicates and
// keys outside known. Order is kept for messages.
func (d *decoder) fields(n *yaml.Node, field string, depth int, known ...string) ([][2]*yaml.Node, error) {
	n, err := d.resolve(n, field, depth)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.MappingNode {
		what := "a mapping"
		if field == "" {
			what = "a mapping of name, description, parameters, command..."
		}
		return nil, d.fail(n, field, "must be %s, got %s", what, kindName(n))
	}
	var out [][2]*yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, err := d.resolve(n.Content[i], field, depth+1)
		if err != nil {
			return nil, err
		}
		if k.Kind != yaml.ScalarNode {
			return nil, d.fail(k, field, "keys must be plain names")
		}
		key := k.Value
		if seen[key] {
			return nil, d.fail(k, join(field, key), "defined twice")
		}
		seen[key] = true
		if !slices.Contains(known, key) {
			hint := ""
			if s := tools.Suggest(key, known, 1); len(s) > 0 {
				hint = fmt.Sprintf("did you mean %q? ", s[0])
			}
			return nil, d.fail(k, join(field, key), "unknown field (%sknown: %s)", hint, strings.Join(known, ", "))
		}
		out = append(out, [2]*yaml.Node{k, n.Content[i+1]})
	}
	return out, nil
}

func join(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "something else"
}

// scalar returns a scalar's value, refusing mappings, lists and null.
func (d *decoder) scalar(n *yaml.Node, field string, depth int) (*yaml.Node, error) {
	n, err := d.resolve(n, field, depth)
	if err != nil {
		return nil, err
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return nil, d.fail(n, field, "must be a single value, got %s", kindName(n))
	}
	return n, nil
}

func (d *decoder) str(n *yaml.Node, field string, depth int) (string, error) {
	n, err := d.scalar(n, field, depth)
	if err != nil {
		return "", err
	}
	if n.Tag != "!!str" {
		return "", d.fail(n, field, "must be a string, got %s", kindName(n))
	}
	return n.Value, nil
}

func (d *decoder) boolean(n *yaml.Node, field string, depth int) (bool, error) {
	n, err := d.scalar(n, field, depth)
	if err != nil {
		return false, err
	}
	if n.Tag != "!!bool" {
		return false, d.fail(n, field, "must be true or false, got %s", kindName(n))
	}
	var b bool
	if err := n.Decode(&b); err != nil {
		return false, d.fail(n, field, "must be true or false, got %s", kindName(n))
	}
	return b, nil
}

func (d *decoder) nonNegInt(n *yaml.Node, field string, depth int) (*int, error) {
	n, err := d.scalar(n, field, depth)
	if err != nil {
		return nil, err
	}
	v, err := strconv.ParseInt(n.Value, 0, 32)
	if n.Tag != "!!int" || err != nil || v < 0 {
		return nil, d.fail(n, field, "must be a whole number >= 0, got %s", kindName(n))
	}
	return tools.Int(int(v)), nil
}

func (d *decoder) number(n *yaml.Node, field string, depth int) (*float64, error) {
	n, err := d.scalar(n, field, depth)
	if err != nil {
		return nil, err
	}
	var f float64
	if (n.Tag != "!!int" && n.Tag != "!!float") || n.Decode(&f) != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, d.fail(n, field, "must be a finite number, got %s", kindName(n))
	}
	return tools.Float(f), nil
}

// value decodes any YAML value (a default, an enum entry) to the Go values
// arguments have: string, bool, int, float64, []any, map[string]any.
func (d *decoder) value(n *yaml.Node, field string, depth int) (any, error) {
	n, err := d.resolve(n, field, depth)
	if err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, d.fail(n, field, "%v", err)
		}
		if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return nil, d.fail(n, field, "must be a finite number")
		}
		return v, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, c := range n.Content {
			v, err := d.value(c, fmt.Sprintf("%s[%d]", field, i), depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := d.str(n.Content[i], field, depth+1)
			if err != nil {
				return nil, d.fail(n.Content[i], field, "keys must be strings")
			}
			if _, dup := out[k]; dup {
				return nil, d.fail(n.Content[i], join(field, k), "defined twice")
			}
			v, err := d.value(n.Content[i+1], join(field, k), depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	}
	return nil, d.fail(n, field, "unsupported value")
}

// manifest decodes the top-level mapping into m and checks it.
func (d *decoder) manifest(n *yaml.Node, m *Manifest) error {
	fs, err := d.fields(n, "", 0, "name", "description", "category", "parameters", "command", "timeout", "read_only")
	if err != nil {
		return err
	}
	var haveCommand bool
	for _, kv := range fs {
		key, v := kv[0].Value, kv[1]
		switch key {
		case "name":
			if m.Name, err = d.str(v, key, 1); err != nil {
				return err
			}
			if !tools.IsToolName(m.Name) {
				return d.fail(v, key, "invalid name %q: must match ^[a-zA-Z0-9_-]{1,64}$", m.Name)
			}
		case "description":
			if m.Description, err = d.str(v, key, 1); err != nil {
				return err
			}
		case "category":
			c, err := d.str(v, key, 1)
			if err != nil {
				return err
			}
			m.Category = tools.Category(c)
			if !m.Category.Valid() {
				names := make([]string, 0, 7)
				for _, c := range tools.Categories() {
					names = append(names, string(c))
				}
				return d.fail(v, key, "unknown category %q (known: %s)", c, strings.Join(names, ", "))
			}
		case "parameters":
			if m.Parameters, err = d.params(v, key, 1); err != nil {
				return err
			}
		case "command":
			if m.Command, err = d.command(v, key); err != nil {
				return err
			}
			haveCommand = true
		case "timeout":
			if m.Timeout, err = d.duration(v, key); err != nil {
				return err
			}
		case "read_only":
			if m.ReadOnly, err = d.boolean(v, key, 1); err != nil {
				return err
			}
		}
	}
	switch {
	case m.Name == "":
		return d.fail(n, "name", "missing (the tool's name)")
	case strings.TrimSpace(m.Description) == "":
		return d.fail(n, "description", "missing (what the tool does, for the model)")
	case !haveCommand:
		return d.fail(n, "command", "missing (the program to run)")
	}
	return nil
}

// command accepts a string (split on white space) or a list of strings.
func (d *decoder) command(n *yaml.Node, field string) ([]string, error) {
	n, err := d.resolve(n, field, 1)
	if err != nil {
		return nil, err
	}
	var argv []string
	switch n.Kind {
	case yaml.ScalarNode:
		s, err := d.str(n, field, 1)
		if err != nil {
			return nil, err
		}
		argv = strings.Fields(s)
	case yaml.SequenceNode:
		for i, c := range n.Content {
			s, err := d.str(c, fmt.Sprintf("%s[%d]", field, i), 2)
			if err != nil {
				return nil, err
			}
			argv = append(argv, s)
		}
	default:
		return nil, d.fail(n, field, "must be a string or a list of strings, got %s", kindName(n))
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, d.fail(n, field, "empty command")
	}
	if strings.ContainsRune(argv[0], 0) {
		return nil, d.fail(n, field, "program name contains a NUL byte")
	}
	return argv, nil
}

// duration accepts a Go duration ("30s", "1m30s") or a number of seconds.
func (d *decoder) duration(n *yaml.Node, field string) (time.Duration, error) {
	n, err := d.scalar(n, field, 1)
	if err != nil {
		return 0, err
	}
	var dur time.Duration
	switch n.Tag {
	case "!!int", "!!float":
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || math.IsNaN(f) || f > math.MaxInt64/float64(time.Second) {
			return 0, d.fail(n, field, "must be a duration such as 30s or a number of seconds, got %s", kindName(n))
		}
		dur = time.Duration(f * float64(time.Second))
	default:
		dur, err = time.ParseDuration(n.Value)
		if err != nil {
			return 0, d.fail(n, field, "must be a duration such as 30s or a number of seconds, got %s", kindName(n))
		}
	}
	if dur <= 0 {
		return 0, d.fail(n, field, "must be positive, got %s", kindName(n))
	}
	return dur, nil
}
