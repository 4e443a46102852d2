package tools

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rule names the check an argument failed, so that a caller can present
// the failure (the shell's panels pick their layout by it) without parsing
// the message.
type Rule string

// The checks validation makes, in the order it makes them.
const (
	RuleJSON      Rule = "json"       // the arguments were not a JSON object
	RuleUnknown   Rule = "unknown"    // an argument the tool does not declare
	RuleMissing   Rule = "missing"    // a required argument is absent or null
	RuleType      Rule = "type"       // the value has the wrong JSON type
	RuleEnum      Rule = "enum"       // the value is not one of the allowed ones
	RuleMinimum   Rule = "minimum"    // a number below the minimum
	RuleMaximum   Rule = "maximum"    // a number above the maximum
	RuleMinLength Rule = "min_length" // a string or array too short
	RuleMaxLength Rule = "max_length" // a string or array too long
	// RuleSchema: the arguments do not satisfy a tool's own JSON Schema
	// (see SchemaTool); the message names every place that is wrong.
	RuleSchema Rule = "schema"
)

// ValidationError says which argument is wrong and how. Message is the
// text users and models see ("Missing required parameter: file_path").
type ValidationError struct {
	Tool     string // the tool, when known
	Path     string // the parameter, with the path inside it: edits[1].old_string
	Rule     Rule   // the check that failed
	Message  string
	Received any // the offending value; nil for a missing parameter
}

// Error returns Message.
func (e *ValidationError) Error() string { return e.Message }

// Validate checks args against params and returns the Args a tool gets:
// defaults applied and numbers normalised (integer parameters as int, number
// parameters as float64, also inside declared items and properties). args is
// never modified. When nothing needed changing the result is args itself
// (and unchanged nested values are shared), so that a good call costs no
// copy: Args are read-only to tools.
//
// The rules, chosen for the mistakes models make:
//   - an integer is any mathematically integral number (42, 42.0, 4.2e1, as
//     JSON Schema defines it) that fits in an int; 3.14, "42" and true are not;
//   - a number is any int, uint, float or json.Number; a boolean never is;
//   - lengths count characters (runes), not bytes; for arrays they count items;
//   - an argument the tool does not declare is refused, naming the declared ones;
//   - null for a parameter means "not given": the default applies, and a
//     required parameter is missing (models send null for optional fields);
//   - checks run in the order presence, type, enum, range, length, so that
//     the first failure reported is the most basic one, with its path
//     (edits[1].old_string) in place of the name, except that undeclared
//     names in the same object are reported first (a misspelt "filepath" says
//     more than "Missing required parameter: file_path");
//   - a free-form object or array (no Properties, no Items) is passed through
//     as it came; declared items and properties are checked recursively and
//     copied where a value in them changes.
func Validate(params []Parameter, args Args) (Args, *ValidationError) {
	out, _, err := checkObject(params, nil, args)
	if err != nil {
		return nil, err
	}
	if out == nil {
		return Args{}, nil // a tool may count on a map, even for a call without arguments
	}
	return Args(out), nil
}

// path locates a value inside the arguments without building a string: the
// string is made only when a message needs it, so that validation of a good
// call does not allocate for it.
type path struct {
	parent *path
	name   string // the property name; "" for an array element
	index  int    // the element's index when name is ""
}

func (p *path) String() string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	p.write(&b)
	return b.String()
}

func (p *path) write(b *strings.Builder) {
	if p.parent != nil {
		p.parent.write(b)
	}
	if p.name == "" {
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(p.index))
		b.WriteByte(']')
		return
	}
	if p.parent != nil {
		b.WriteByte('.')
	}
	b.WriteString(p.name)
}

// checkObject validates the properties of one object (the arguments
// themselves when at is nil) and returns it normalised: m itself when no
// value changed, else a new map (copied on the first change), and whether
// it is new.
func checkObject(params []Parameter, at *path, m map[string]any) (map[string]any, bool, *ValidationError) {
	var out map[string]any // nil until a value differs from m's
	found := 0             // declared names present in m, to detect undeclared ones without ranging over m
	for i := range params {
		p := &params[i]
		v, ok := m[p.Name]
		if ok {
			found++
		}
		if !ok || v == nil {
			if p.Required {
				here := path{parent: at, name: p.Name}
				return nil, false, preferUnknown(params, at, m, &ValidationError{Path: here.String(), Rule: RuleMissing, Message: "Missing required parameter: " + here.String()})
			}
			if p.Default == nil && !ok {
				continue
			}
			// A default to add, or a null to drop: m no longer serves.
			if out == nil {
				out = copyDeclared(params[:i], m, len(params))
			}
			if p.Default != nil {
				out[p.Name] = defaultValue(p)
			}
			continue
		}
		nv, changed, err := checkValue(p, path{parent: at, name: p.Name}, v)
		if err != nil {
			return nil, false, preferUnknown(params, at, m, err)
		}
		if changed && out == nil {
			out = copyDeclared(params[:i], m, len(params))
		}
		if out != nil {
			out[p.Name] = nv
		}
	}
	if found != len(m) {
		return nil, false, unknownError(params, at, m)
	}
	if out == nil {
		return m, false, nil
	}
	return out, true, nil
}

// copyDeclared starts the normalised copy of m once a value has to change:
// the values of the parameters already checked, which were good as they
// came, without the nulls that stand for "not given".
func copyDeclared(checked []Parameter, m map[string]any, size int) map[string]any {
	out := make(map[string]any, size)
	for i := range checked {
		if v, ok := m[checked[i].Name]; ok && v != nil {
			out[checked[i].Name] = v
		}
	}
	return out
}

// checkValue validates one present, non-null value against p and returns
// it normalised, and whether that differs from v. The path is passed by
// value and copied to the heap only where nested values need a parent, so
// that a flat call allocates nothing for it; values already in their final
// representation are returned as the interface they came in, without
// boxing them again.
func checkValue(p *Parameter, here path, v any) (any, bool, *ValidationError) {
	// The scalar cases stay inline, calling out only for rules the parameter
	// has (numbers always check theirs at once): a flat call is the hot path.
	at := &here
	switch p.Type {
	case TypeString:
		s, ok := v.(string)
		if !ok {
			return nil, false, typeError(p, at, v)
		}
		if p.Enum != nil && !enumHasString(p.Enum, s) {
			return nil, false, enumError(p, at, v)
		}
		if p.MinLength != nil || p.MaxLength != nil {
			if err := checkLength(p, at, utf8.RuneCountInString(s), v); err != nil {
				return nil, false, err
			}
		}
		return v, false, nil
	case TypeInteger:
		n, ok := asInt(v)
		if !ok {
			return nil, false, typeError(p, at, v)
		}
		if err := checkNumberRules(p, at, float64(n), v); err != nil {
			return nil, false, err
		}
		if _, ok := v.(int); ok {
			return v, false, nil
		}
		return n, true, nil
	case TypeNumber:
		f, ok := asFloat(v)
		if !ok {
			return nil, false, typeError(p, at, v)
		}
		if err := checkNumberRules(p, at, f, v); err != nil {
			return nil, false, err
		}
		if _, ok := v.(float64); ok {
			return v, false, nil
		}
		return f, true, nil
	case TypeBoolean:
		if _, ok := v.(bool); !ok {
			return nil, false, typeError(p, at, v)
		}
		if p.Enum != nil && !enumHasValue(p.Enum, v) {
			return nil, false, enumError(p, at, v)
		}
		return v, false, nil
	case TypeArray:
		return checkArray(p, here, v)
	case TypeObject:
		return checkNestedObject(p, here, v)
	default:
		// Registration refuses unknown types (CheckTool); a tool built
		// without it gets its value unchecked rather than refused.
		return v, false, nil
	}
}

// checkNumberRules checks a number's enum, minimum and maximum; f is the
// number as a float64, v as it came.
func checkNumberRules(p *Parameter, at *path, f float64, v any) *ValidationError {
	switch {
	case p.Enum != nil && !enumHasNumber(p.Enum, f):
		return enumError(p, at, v)
	case p.Minimum != nil && f < *p.Minimum:
		return &ValidationError{Path: at.String(), Rule: RuleMinimum, Received: v,
			Message: "Value for " + at.String() + " is below minimum: " + formatFloat(*p.Minimum)}
	case p.Maximum != nil && f > *p.Maximum:
		return &ValidationError{Path: at.String(), Rule: RuleMaximum, Received: v,
			Message: "Value for " + at.String() + " exceeds maximum: " + formatFloat(*p.Maximum)}
	}
	return nil
}

// checkNestedObject checks an object value's enum and, when p declares
// properties, the properties themselves; a free-form object takes any keys
// and values. It returns the object as a map[string]any.
func checkNestedObject(p *Parameter, here path, v any) (any, bool, *ValidationError) {
	at := &here
	m, ok := asMap(v)
	if !ok {
		return nil, false, typeError(p, at, v)
	}
	if p.Enum != nil && !enumHasValue(p.Enum, m) {
		return nil, false, enumError(p, at, v)
	}
	_, same := v.(map[string]any)
	if len(p.Properties) == 0 {
		return m, !same, nil
	}
	parent := here // escapes: the properties' paths point to it
	out, changed, err := checkObject(p.Properties, &parent, m)
	return out, changed || !same, err
}

// checkArray checks an array value's enum and length and, when p declares
// items, every element; it returns the array as a []any.
func checkArray(p *Parameter, here path, v any) (any, bool, *ValidationError) {
	at := &here
	items, ok := asSlice(v)
	if !ok {
		return nil, false, typeError(p, at, v)
	}
	if p.Enum != nil && !enumHasValue(p.Enum, items) {
		return nil, false, enumError(p, at, v)
	}
	if p.MinLength != nil || p.MaxLength != nil {
		if err := checkLength(p, at, len(items), v); err != nil {
			return nil, false, err
		}
	}
	_, same := v.([]any)
	if p.Items == nil {
		return items, !same, nil
	}
	parent := here // escapes: the elements' paths point to it
	var out []any  // nil until an element differs from items'
	for i, it := range items {
		elem := path{parent: &parent, index: i}
		if it == nil {
			return nil, false, typeError(p.Items, &elem, it)
		}
		nv, changed, err := checkValue(p.Items, elem, it)
		if err != nil {
			return nil, false, err
		}
		if changed && out == nil {
			out = make([]any, len(items))
			copy(out, items[:i])
		}
		if out != nil {
			out[i] = nv
		}
	}
	if out == nil {
		return items, !same, nil
	}
	return out, true, nil
}

func checkLength(p *Parameter, at *path, n int, v any) *ValidationError {
	if p.MinLength != nil && n < *p.MinLength {
		return &ValidationError{Path: at.String(), Rule: RuleMinLength, Received: v,
			Message: "Value for " + at.String() + " is shorter than minimum length: " + strconv.Itoa(*p.MinLength)}
	}
	if p.MaxLength != nil && n > *p.MaxLength {
		return &ValidationError{Path: at.String(), Rule: RuleMaxLength, Received: v,
			Message: "Value for " + at.String() + " exceeds maximum length: " + strconv.Itoa(*p.MaxLength)}
	}
	return nil
}

func typeError(p *Parameter, at *path, v any) *ValidationError {
	return &ValidationError{Path: at.String(), Rule: RuleType, Received: v,
		Message: "Invalid type for " + at.String() + ": expected " + p.Type}
}

func enumError(p *Parameter, at *path, v any) *ValidationError {
	return &ValidationError{Path: at.String(), Rule: RuleEnum, Received: v,
		Message: "Invalid value for " + at.String() + ": must be one of " + pyList(p.Enum)}
}

// preferUnknown returns the error about undeclared arguments when there is
// one, else err: a misspelt name ("filepath") is better reported as unknown
// than as the required "file_path" missing.
func preferUnknown(params []Parameter, at *path, m map[string]any, err *ValidationError) *ValidationError {
	if u := unknownError(params, at, m); u != nil {
		return u
	}
	return err
}

// unknownError reports the arguments in m that params do not declare, sorted
// so that the message does not depend on map order, or nil.
func unknownError(params []Parameter, at *path, m map[string]any) *ValidationError {
	var unknown []string
	for k := range m {
		if !slices.ContainsFunc(params, func(p Parameter) bool { return p.Name == k }) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	names := make([]string, len(unknown))
	for i, k := range unknown {
		names[i] = (&path{parent: at, name: k}).String()
	}
	var b strings.Builder
	if len(names) == 1 {
		b.WriteString("Unknown parameter: ")
	} else {
		b.WriteString("Unknown parameters: ")
	}
	b.WriteString(strings.Join(names, ", "))
	if len(params) == 0 {
		b.WriteString(" (this tool takes no parameters)")
	} else {
		declared := make([]string, len(params))
		for i, p := range params {
			declared[i] = p.Name
		}
		b.WriteString(" (valid parameters: " + strings.Join(declared, ", ") + ")")
	}
	return &ValidationError{Path: names[0], Rule: RuleUnknown, Message: b.String(), Received: m[unknown[0]]}
}
