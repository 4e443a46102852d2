package plugin

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/forgehq/forge/internal/tools"
)

var knownTypes = []string{tools.TypeString, tools.TypeInteger, tools.TypeNumber, tools.TypeBoolean, tools.TypeArray, tools.TypeObject}

// The fields of a parameter; items take the same but name and required.
var (
	paramFields = []string{"name", "type", "description", "required", "default", "enum", "min_length", "max_length", "minimum", "maximum", "items", "properties"}
	itemFields  = []string{"type", "description", "default", "enum", "min_length", "max_length", "minimum", "maximum", "items", "properties"}
)

// params decodes a list of parameters (the manifest's or an object's
// properties).
func (d *decoder) params(n *yaml.Node, field string, depth int) ([]tools.Parameter, error) {
	n, err := d.resolve(n, field, depth)
	if err != nil {
		return nil, err
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil, nil // "parameters:" with nothing after it: none
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.fail(n, field, "must be a list of parameters, got %s", kindName(n))
	}
	out := make([]tools.Parameter, 0, len(n.Content))
	seen := map[string]bool{}
	for i, c := range n.Content {
		at := fmt.Sprintf("%s[%d]", field, i)
		p, err := d.param(c, at, depth+1, true)
		if err != nil {
			return nil, err
		}
		if seen[p.Name] {
			return nil, d.fail(c, at+".name", "duplicate parameter %q", p.Name)
		}
		seen[p.Name] = true
		out = append(out, p)
	}
	return out, nil
}

// param decodes one parameter; named is false for an array's items.
func (d *decoder) param(n *yaml.Node, field string, depth int, named bool) (tools.Parameter, error) {
	var p tools.Parameter
	known := itemFields
	if named {
		known = paramFields
	}
	fs, err := d.fields(n, field, depth, known...)
	if err != nil {
		return p, err
	}
	var later laterNodes
	for _, kv := range fs {
		key := kv[0].Value
		if err := d.paramField(&p, &later, key, kv[1], join(field, key), depth+1); err != nil {
			return p, err
		}
	}
	if named && p.Name == "" {
		return p, d.fail(n, join(field, "name"), "missing")
	}
	if p.Type == "" {
		return p, d.fail(n, join(field, "type"), "missing (one of %s)", strings.Join(knownTypes, ", "))
	}
	if err := d.constraints(n, field, &p, later.minLength, later.minimum); err != nil {
		return p, err
	}
	if later.enum != nil {
		if err := d.enum(later.enum, join(field, "enum"), depth+1, &p); err != nil {
			return p, err
		}
	}
	if later.def != nil {
		if err := d.defaultValue(later.def, join(field, "default"), depth+1, &p); err != nil {
			return p, err
		}
	}
	return p, nil
}

// laterNodes keeps the nodes a parameter's later checks need once all its
// fields are read: the enum and the default are decoded against the type,
// whatever the order of the fields, and min_length and minimum locate the
// error of a range no value can satisfy.
type laterNodes struct {
	def, enum, minLength, minimum *yaml.Node
}

// paramField decodes the field key (its node v, at the path at) into p, or
// keeps v in later for the checks that need the whole parameter.
func (d *decoder) paramField(p *tools.Parameter, later *laterNodes, key string, v *yaml.Node, at string, depth int) error {
	var err error
	switch key {
	case "name":
		p.Name, err = d.paramName(v, at, depth)
	case "type":
		p.Type, err = d.paramType(v, at, depth)
	case "description":
		p.Description, err = d.str(v, at, depth)
	case "required":
		p.Required, err = d.boolean(v, at, depth)
	case "default":
		later.def = v
	case "enum":
		later.enum = v
	case "min_length":
		later.minLength = v
		p.MinLength, err = d.nonNegInt(v, at, depth)
	case "max_length":
		p.MaxLength, err = d.nonNegInt(v, at, depth)
	case "minimum":
		later.minimum = v
		p.Minimum, err = d.number(v, at, depth)
	case "maximum":
		p.Maximum, err = d.number(v, at, depth)
	case "items":
		var items tools.Parameter
		if items, err = d.param(v, at, depth, false); err == nil {
			p.Items = &items
		}
	case "properties":
		p.Properties, err = d.params(v, at, depth)
	}
	return err
}

// paramName decodes a parameter's name, which must be one every provider
// accepts as a property name.
func (d *decoder) paramName(n *yaml.Node, field string, depth int) (string, error) {
	name, err := d.str(n, field, depth)
	if err != nil {
		return "", err
	}
	if !tools.IsPropertyName(name) {
		return "", d.fail(n, field, "invalid parameter name %q: must match ^[a-zA-Z0-9_.-]{1,64}$", name)
	}
	return name, nil
}

// paramType decodes a parameter's type, one of knownTypes.
func (d *decoder) paramType(n *yaml.Node, field string, depth int) (string, error) {
	typ, err := d.str(n, field, depth)
	if err != nil {
		return "", err
	}
	if !slices.Contains(knownTypes, typ) {
		return "", d.fail(n, field, "unknown type %q (known: %s)", typ, strings.Join(knownTypes, ", "))
	}
	return typ, nil
}

// constraints refuses constraints that do not apply to the type, and ranges
// that no value can satisfy.
func (d *decoder) constraints(n *yaml.Node, field string, p *tools.Parameter, minLenNode, minNode *yaml.Node) error {
	lengthy := p.Type == tools.TypeString || p.Type == tools.TypeArray
	numeric := p.Type == tools.TypeInteger || p.Type == tools.TypeNumber
	switch {
	case !lengthy && (p.MinLength != nil || p.MaxLength != nil):
		return d.fail(n, join(field, "min_length"), "applies to string and array parameters only, not %s", p.Type)
	case !numeric && (p.Minimum != nil || p.Maximum != nil):
		return d.fail(n, join(field, "minimum"), "applies to integer and number parameters only, not %s", p.Type)
	case p.Items != nil && p.Type != tools.TypeArray:
		return d.fail(n, join(field, "items"), "applies to array parameters only, not %s", p.Type)
	case p.Properties != nil && p.Type != tools.TypeObject:
		return d.fail(n, join(field, "properties"), "applies to object parameters only, not %s", p.Type)
	case p.MinLength != nil && p.MaxLength != nil && *p.MinLength > *p.MaxLength:
		return d.fail(minLenNode, join(field, "min_length"), "%d is greater than max_length %d", *p.MinLength, *p.MaxLength)
	case p.Minimum != nil && p.Maximum != nil && *p.Minimum > *p.Maximum:
		return d.fail(minNode, join(field, "minimum"), "%g is greater than maximum %g", *p.Minimum, *p.Maximum)
	}
	return nil
}

// enum decodes the allowed values; each must itself be a valid value of
// the parameter (without the enum), or the parameter could never be given.
func (d *decoder) enum(n *yaml.Node, field string, depth int, p *tools.Parameter) error {
	v, err := d.value(n, field, depth)
	if err != nil {
		return err
	}
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return d.fail(n, field, "must be a non-empty list of values")
	}
	for i, e := range list {
		if msg := check(*p, e); msg != "" {
			return d.fail(n, fmt.Sprintf("%s[%d]", field, i), "%s", msg)
		}
	}
	p.Enum = list
	return nil
}

// defaultValue decodes the default, which must satisfy the parameter.
func (d *decoder) defaultValue(n *yaml.Node, field string, depth int, p *tools.Parameter) error {
	v, err := d.value(n, field, depth)
	if err != nil {
		return err
	}
	if v == nil {
		return nil // "default: null" is no default
	}
	if msg := check(*p, v); msg != "" {
		return d.fail(n, field, "%s", msg)
	}
	p.Default = v
	return nil
}

// check validates one value against p with forge's own validator, so that
// manifests and calls agree on what is valid. It returns the message or "".
func check(p tools.Parameter, v any) string {
	p.Required, p.Default = false, nil
	if p.Name == "" {
		p.Name = "value"
	}
	if _, err := tools.Validate([]tools.Parameter{p}, tools.Args{p.Name: v}); err != nil {
		return err.Message
	}
	return ""
}
