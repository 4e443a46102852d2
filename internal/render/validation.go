package render

import (
	"cmp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/tools"
)

// rule is the check the arguments failed, as the core recorded it.
func rule(res tools.Result) tools.Rule {
	r, _ := res.Metadata["rule"].(string)
	return tools.Rule(r)
}

// ValidationError draws the "Validation Error" panel for a result of kind
// validation: Tool and Error, then what fits the error: the required
// parameters ("• name (type) - description") for a missing one; Received
// (with its JSON type) and Expected for a wrong type; Received and Valid
// options for a value outside an enum; Received and Constraints for a value
// out of range or of the wrong length. res.Metadata["parameter"] is the
// parameter's path (edits[1].old_string) and res.Metadata["received"] the
// value as given; the parameter's declaration is looked up in d.
func (r *Renderer) ValidationError(d tools.Descriptor, res tools.Result) string {
	p := r.newPanel()
	p.title("Validation Error")
	p.section()
	p.field(0, "Tool: ", cmp.Or(d.Name, "(unknown)"), &r.st.title)
	p.field(0, "Error: ", cmp.Or(res.Error, "(no message)"), &r.st.failure)

	path, _ := res.Metadata["parameter"].(string)
	received, hasReceived := res.Metadata["received"]
	param, parent := lookupParam(d.Parameters, path)
	switch failed := rule(res); failed {
	case tools.RuleMissing:
		r.requiredParams(p, requiredOf(d.Parameters, parent))
	case tools.RuleType:
		p.blank()
		p.field(0, "Received: ", r.receivedText(received, true), nil)
		if param != nil {
			p.field(0, "Expected: ", param.Type, nil)
		}
	case tools.RuleEnum:
		p.blank()
		p.field(0, "Received: ", r.receivedText(received, false), nil)
		if param != nil && len(param.Enum) > 0 {
			p.field(0, "Valid options: ", enumList(param.Enum), nil)
		}
	case tools.RuleMinimum, tools.RuleMaximum, tools.RuleMinLength, tools.RuleMaxLength:
		r.outOfBounds(p, param, failed, received)
	default:
		if hasReceived && received != nil {
			p.blank()
			p.field(0, "Received: ", r.receivedText(received, true), nil)
		}
	}
	return p.String()
}

// requiredParams lists the required parameters, one "• name (type) -
// description" each, after a blank line; nothing when there are none.
func (r *Renderer) requiredParams(p *panel, required []tools.Parameter) {
	if len(required) == 0 {
		return
	}
	p.blank()
	p.text("Required parameters:", &r.st.label, 0)
	for _, q := range required {
		label := "• " + q.Name + " (" + typeName(q) + ")"
		if q.Description == "" {
			p.text(label, nil, 2)
			continue
		}
		p.flow(2, label+" - ", &r.st.name, q.Description, nil, 4)
	}
}

// outOfBounds shows a value out of range or of the wrong length: Received
// with its length (characters for a string that failed a length check,
// items for an array), then the parameter's Constraints.
func (r *Renderer) outOfBounds(p *panel, param *tools.Parameter, failed tools.Rule, received any) {
	p.blank()
	text := r.receivedText(received, false)
	isLength := failed == tools.RuleMinLength || failed == tools.RuleMaxLength
	if s, ok := received.(string); ok && isLength {
		text += " (" + plural(utf8.RuneCountInString(s), "character") + ")"
	} else if a, ok := received.([]any); ok {
		text += " (" + plural(len(a), "item") + ")"
	}
	p.field(0, "Received: ", text, nil)
	if param != nil {
		if c := constraints(*param, false); c != "" {
			p.field(0, "Constraints: ", c, nil)
		}
	}
}

// receivedText writes an offending value as JSON (strings quoted), cut to
// maxReceived characters, optionally followed by its JSON type.
func (r *Renderer) receivedText(v any, withType bool) string {
	s := shorten(compactJSON(v), maxReceived)
	if withType {
		s += " (" + jsonType(v) + ")"
	}
	return s
}

// lookupParam finds the declaration of the parameter at path ("edits",
// "edits[1].old_string", "config.mode") and the list of parameters it
// belongs to (nil for the top level, which is params).
func lookupParam(params []tools.Parameter, path string) (param *tools.Parameter, siblings []tools.Parameter) {
	if path == "" {
		return nil, nil
	}
	list := params
	var cur *tools.Parameter
	var owner []tools.Parameter
	names := 0 // property names walked: more than one means nested
	for _, seg := range splitPath(path) {
		if seg == "[]" {
			if cur == nil || cur.Items == nil {
				return nil, nil
			}
			cur = cur.Items
			list = cur.Properties
			continue
		}
		owner = list
		names++
		cur = nil
		for i := range list {
			if list[i].Name == seg {
				cur = &list[i]
				break
			}
		}
		if cur == nil {
			return nil, nil
		}
		list = cur.Properties
	}
	if names <= 1 {
		return cur, nil
	}
	return cur, owner
}

// splitPath splits "edits[1].old_string" into "edits", "[]", "old_string".
func splitPath(path string) []string {
	var segs []string
	for path != "" {
		switch {
		case path[0] == '.':
			path = path[1:]
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(segs, path)
			}
			if _, err := strconv.Atoi(path[1:end]); err != nil {
				return append(segs, path)
			}
			segs = append(segs, "[]")
			path = path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			segs = append(segs, path[:end])
			path = path[end:]
		}
	}
	return segs
}

// requiredOf lists the required parameters among siblings, or among the
// tool's own parameters when siblings is nil.
func requiredOf(params, siblings []tools.Parameter) []tools.Parameter {
	list := params
	if siblings != nil {
		list = siblings
	}
	var out []tools.Parameter
	for _, q := range list {
		if q.Required {
			out = append(out, q)
		}
	}
	return out
}

// typeName is a parameter's type as the panels write it; arrays say what
// they hold when declared: "array of string".
func typeName(q tools.Parameter) string {
	t := q.Type
	if t == "" {
		t = "any"
	}
	if t == tools.TypeArray && q.Items != nil && q.Items.Type != "" {
		return "array of " + q.Items.Type
	}
	return t
}

// enumList writes enum values for a person: openai, anthropic, langchain.
func enumList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = formatValue(v)
	}
	return strings.Join(parts, ", ")
}

// constraints writes a parameter's constraints: "minimum=1, maximum=10000",
// "min_length=1", and with withEnum its enum as "one of: a, b".
func constraints(q tools.Parameter, withEnum bool) string {
	var parts []string
	if q.Minimum != nil {
		parts = append(parts, "minimum="+formatFloat(*q.Minimum))
	}
	if q.Maximum != nil {
		parts = append(parts, "maximum="+formatFloat(*q.Maximum))
	}
	if q.MinLength != nil {
		parts = append(parts, "min_length="+strconv.Itoa(*q.MinLength))
	}
	if q.MaxLength != nil {
		parts = append(parts, "max_length="+strconv.Itoa(*q.MaxLength))
	}
	s := strings.Join(parts, ", ")
	if withEnum && len(q.Enum) > 0 {
		if s != "" {
			s += "; "
		}
		s += "one of: " + enumList(q.Enum)
	}
	return s
}
