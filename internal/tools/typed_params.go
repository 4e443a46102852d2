package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// fieldPlan says where one JSON property of a struct goes.
type fieldPlan struct {
	name  string // the JSON name
	index []int  // for reflect.Value.FieldByIndex (embedded structs flattened)
}

// deriver turns Go types into parameters and remembers, per struct type, the
// fields decoding fills.
type deriver struct {
	plans    map[reflect.Type][]fieldPlan
	visiting map[reflect.Type]bool // recursive types have no finite schema
}

func newDeriver() *deriver {
	return &deriver{plans: map[reflect.Type][]fieldPlan{}, visiting: map[reflect.Type]bool{}}
}

// structParams returns the parameters of a struct type, one per field.
func (d *deriver) structParams(t reflect.Type) ([]Parameter, error) {
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("must be a struct, not %s", t.Kind())
	}
	if d.visiting[t] {
		return nil, fmt.Errorf("recursive type %s", t)
	}
	d.visiting[t] = true
	defer delete(d.visiting, t)
	var params []Parameter
	var plan []fieldPlan
	if err := d.collect(t, nil, &params, &plan); err != nil {
		return nil, err
	}
	d.plans[t] = plan
	return params, nil
}

func (d *deriver) collect(t reflect.Type, index []int, params *[]Parameter, plan *[]fieldPlan) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" {
			continue
		}
		idx := append(append([]int(nil), index...), i)
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if f.Type.Kind() == reflect.Pointer {
					return fmt.Errorf("field %s: embedded pointer structs are not supported", f.Name)
				}
				if err := d.collect(ft, idx, params, plan); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		p, err := d.fieldParam(f, name, strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,"))
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		*params = append(*params, p)
		*plan = append(*plan, fieldPlan{name: name, index: idx})
	}
	return nil
}

func (d *deriver) fieldParam(f reflect.StructField, name string, omitempty bool) (Parameter, error) {
	t := f.Type
	optional := omitempty
	if t.Kind() == reflect.Pointer {
		t, optional = t.Elem(), true
	}
	p, err := d.typeParam(t)
	if err != nil {
		return p, err
	}
	p.Name = name
	p.Description = firstTag(f.Tag, "desc", "description", "jsonschema")
	if err := applyTags(&p, t, f.Tag); err != nil {
		return p, err
	}
	p.Required = !optional && p.Default == nil
	return p, nil
}

// typeParam returns the parameter of a Go type, without name or description.
func (d *deriver) typeParam(t reflect.Type) (Parameter, error) {
	switch t.Kind() {
	case reflect.String:
		return Parameter{Type: TypeString}, nil
	case reflect.Bool:
		return Parameter{Type: TypeBoolean}, nil
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		p := Parameter{Type: TypeInteger}
		if bits := t.Bits(); bits < 64 {
			p.Minimum, p.Maximum = Float(-math.Pow(2, float64(bits-1))), Float(math.Pow(2, float64(bits-1))-1)
		}
		return p, nil
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		p := Parameter{Type: TypeInteger, Minimum: Float(0)}
		if bits := t.Bits(); bits < 64 {
			p.Maximum = Float(math.Pow(2, float64(bits)) - 1)
		}
		return p, nil
	case reflect.Float32, reflect.Float64:
		return Parameter{Type: TypeNumber}, nil
	case reflect.Slice, reflect.Array:
		p := Parameter{Type: TypeArray}
		if t.Kind() == reflect.Array {
			p.MaxLength = Int(t.Len()) // a Go array holds no more
		}
		e := t.Elem()
		if e.Kind() == reflect.Pointer {
			e = e.Elem()
		}
		if e.Kind() != reflect.Interface {
			items, err := d.typeParam(e)
			if err != nil {
				return p, err
			}
			p.Items = &items
		}
		return p, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return Parameter{}, fmt.Errorf("map keys must be strings, not %s", t.Key())
		}
		if e := t.Elem(); e.Kind() != reflect.Interface {
			if _, err := d.typeParam(e); err != nil { // checked, not described: free-form object
				return Parameter{}, err
			}
		}
		return Parameter{Type: TypeObject}, nil
	case reflect.Struct:
		props, err := d.structParams(t)
		if err != nil {
			return Parameter{}, err
		}
		return Parameter{Type: TypeObject, Properties: props}, nil
	case reflect.Pointer:
		return d.typeParam(t.Elem())
	}
	return Parameter{}, fmt.Errorf("type %s is not supported", t)
}

func firstTag(tag reflect.StructTag, keys ...string) string {
	for _, k := range keys {
		if v, ok := tag.Lookup(k); ok {
			return v
		}
	}
	return ""
}

// applyTags sets the constraints of p from the field's tags. For slices, enum,
// min and max constrain the items; minLength and maxLength (or minItems and
// maxItems) the number of items.
func applyTags(p *Parameter, t reflect.Type, tag reflect.StructTag) error {
	target, elem := p, t
	if p.Type == TypeArray && p.Items != nil {
		target, elem = p.Items, t.Elem()
		if elem.Kind() == reflect.Pointer {
			elem = elem.Elem()
		}
	}
	if s, ok := tag.Lookup("default"); ok {
		v, err := parseTagValue(p.Type, t, s)
		if err != nil {
			return fmt.Errorf("default %q: %w", s, err)
		}
		p.Default = v
	}
	if s, ok := tag.Lookup("enum"); ok {
		for _, part := range strings.Split(s, ",") {
			v, err := parseTagValue(target.Type, elem, strings.TrimSpace(part))
			if err != nil {
				return fmt.Errorf("enum %q: %w", s, err)
			}
			target.Enum = append(target.Enum, v)
		}
	}
	// minimum and maximum are JSON Schema's names, the ones the exported
	// schema and the panels show: an author who writes them gets the
	// constraint, not a tag silently ignored.
	for _, c := range []struct {
		keys  [2]string
		dst   **float64
		upper bool
	}{{[2]string{"min", "minimum"}, &target.Minimum, false}, {[2]string{"max", "maximum"}, &target.Maximum, true}} {
		key, s, ok, err := oneTag(tag, c.keys)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if target.Type != TypeInteger && target.Type != TypeNumber {
			return fmt.Errorf("%s: only numbers have one, not %s (its length is minLength and maxLength)", key, article(target.Type))
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s %q: not a finite number", key, s)
		}
		// A sized integer (int8, uint16, ...) already carries its Go range:
		// a tag may narrow it, but a wider one would advertise values the
		// field cannot hold.
		if kind := *c.dst; kind != nil && (c.upper && f > *kind || !c.upper && f < *kind) {
			return fmt.Errorf("%s %q: beyond what %s holds (%s)", key, s, elem, formatFloat(*kind))
		}
		*c.dst = Float(f)
	}
	for _, c := range []struct {
		keys [2]string
		dst  **int
	}{{[2]string{"minLength", "minItems"}, &p.MinLength}, {[2]string{"maxLength", "maxItems"}, &p.MaxLength}} {
		key, s, ok, err := oneTag(tag, c.keys)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if p.Type != TypeString && p.Type != TypeArray {
			return fmt.Errorf("%s: only strings and slices have a length, not %s", key, article(p.Type))
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return fmt.Errorf("%s %q: not a length", key, s)
		}
		if held := *c.dst; held != nil && n > *held {
			return fmt.Errorf("%s %q: beyond what %s holds (%d)", key, s, t, *held)
		}
		*c.dst = Int(n)
	}
	return nil
}

// article puts "a" or "an" before a type's name.
func article(typ string) string {
	if strings.ContainsAny(typ[:1], "aeiou") {
		return "an " + typ
	}
	return "a " + typ
}

// oneTag returns the value of whichever of two synonymous tags is given;
// both at once is an error.
func oneTag(tag reflect.StructTag, keys [2]string) (key, value string, ok bool, err error) {
	first, hasFirst := tag.Lookup(keys[0])
	second, hasSecond := tag.Lookup(keys[1])
	switch {
	case hasFirst && hasSecond:
		return "", "", false, fmt.Errorf("both %s and %s given", keys[0], keys[1])
	case hasSecond:
		return keys[1], second, true, nil
	}
	return keys[0], first, hasFirst, nil
}

// parseTagValue reads a default or enum value written in a tag, in the
// representation validation produces (int, float64, string, bool; JSON for
// arrays and objects).
func parseTagValue(typ string, t reflect.Type, s string) (any, error) {
	switch typ {
	case TypeString:
		return s, nil
	case TypeBoolean:
		return strconv.ParseBool(s)
	case TypeInteger:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || t.Kind() < reflect.Uint && reflect.Zero(t).OverflowInt(n) {
			return nil, errors.New("not an integer of the field's type")
		}
		return int(n), nil
	case TypeNumber:
		return strconv.ParseFloat(s, 64)
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	return v, nil
}
