package tools

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// IsToolName says name is what every provider accepts as a function name:
// ^[a-zA-Z0-9_-]{1,64}$. A loop, not a regular expression, since every
// start of forge checks each tool it registers, and compiling that
// expression costs more than all the checks.
func IsToolName(name string) bool {
	return isName(name, "_-")
}

// isName says s is 1 to 64 ASCII letters, digits or bytes of extra.
func isName(s, extra string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// IsPropertyName says name is what every provider accepts as a property
// name (Anthropic's rule is the strictest): ^[a-zA-Z0-9_.-]{1,64}$.
func IsPropertyName(name string) bool {
	return isName(name, "_.-")
}

// knownTypes are the parameter types a tool may declare.
var knownTypes = []string{TypeString, TypeInteger, TypeNumber, TypeBoolean, TypeArray, TypeObject}

// CheckTool reports what is wrong with a tool's descriptor, as a *ToolError
// wrapping ErrInvalidTool, or nil. Registration calls it, so that a mistake
// in a tool is found when forge starts, not when a model first calls it.
func CheckTool(d Descriptor) error {
	bad := func(format string, a ...any) error {
		return &ToolError{ToolName: d.Name, Message: fmt.Sprintf(format, a...), Err: ErrInvalidTool}
	}
	if !IsToolName(d.Name) {
		return bad("Invalid tool name %q: must match ^[a-zA-Z0-9_-]{1,64}$", d.Name)
	}
	if strings.TrimSpace(d.Description) == "" {
		return bad("Missing description")
	}
	if !d.Category.Valid() {
		return bad("Unknown category %q (known: %s)", d.Category, categoryNames())
	}
	if msg := checkParams(d.Parameters, ""); msg != "" {
		return bad("%s", msg)
	}
	return nil
}

// checkParams checks a parameter list (a tool's, or an object parameter's
// properties under prefix) and returns what is wrong, or "".
func checkParams(params []Parameter, prefix string) string {
	seen := make(map[string]bool, len(params))
	for i, p := range params {
		if p.Name == "" {
			return fmt.Sprintf("Parameter %s#%d has no name", prefix, i+1)
		}
		path := prefix + p.Name
		if seen[p.Name] {
			return "Duplicate parameter name: " + path
		}
		seen[p.Name] = true
		if msg := checkParam(p, path); msg != "" {
			return msg
		}
	}
	return ""
}

// checkParam checks one parameter whose path (for messages) is path.
func checkParam(p Parameter, path string) string {
	if !slices.Contains(knownTypes, p.Type) {
		return fmt.Sprintf("Unknown type for parameter %s: %q (known: %s)", path, p.Type, strings.Join(knownTypes, ", "))
	}
	if p.MinLength != nil && *p.MinLength < 0 {
		return fmt.Sprintf("Parameter %s has a negative min_length: %d", path, *p.MinLength)
	}
	if p.MaxLength != nil && *p.MaxLength < 0 {
		return fmt.Sprintf("Parameter %s has a negative max_length: %d", path, *p.MaxLength)
	}
	if p.MinLength != nil && p.MaxLength != nil && *p.MinLength > *p.MaxLength {
		return fmt.Sprintf("Parameter %s has min_length %d greater than max_length %d", path, *p.MinLength, *p.MaxLength)
	}
	// NaN and ±Inf have no JSON form: the exported schema would not parse,
	// and a NaN bound compares false with everything, so it would never hold.
	if msg := checkFinite(p.Minimum, "minimum", path); msg != "" {
		return msg
	}
	if msg := checkFinite(p.Maximum, "maximum", path); msg != "" {
		return msg
	}
	if p.Minimum != nil && p.Maximum != nil && *p.Minimum > *p.Maximum {
		return fmt.Sprintf("Parameter %s has minimum %s greater than maximum %s", path, formatFloat(*p.Minimum), formatFloat(*p.Maximum))
	}
	if p.Items != nil {
		if p.Type != TypeArray {
			return fmt.Sprintf("Parameter %s declares items but is of type %s, not array", path, p.Type)
		}
		item := *p.Items
		item.Name = p.Name // items have no name of their own; messages use the array's
		if msg := checkParam(item, path+"[]"); msg != "" {
			return msg
		}
	}
	if len(p.Properties) > 0 {
		if p.Type != TypeObject {
			return fmt.Sprintf("Parameter %s declares properties but is of type %s, not object", path, p.Type)
		}
		if msg := checkParams(p.Properties, path+"."); msg != "" {
			return msg
		}
	}
	// Enum values and the default must satisfy the parameter's own type and
	// constraints: a tool that advertises a value it would refuse confuses
	// every model that reads its schema.
	for _, v := range p.Enum {
		q := p
		q.Enum, q.Default = nil, nil
		if verr := validateOne(q, v); verr != nil {
			return fmt.Sprintf("Invalid enum value %s for parameter %s: %s", showValue(v), path, verr.Message)
		}
	}
	if p.Default != nil {
		q := p
		q.Default = nil
		if verr := validateOne(q, p.Default); verr != nil {
			return fmt.Sprintf("Invalid default %s for parameter %s: %s", showValue(p.Default), path, verr.Message)
		}
	}
	return ""
}

// validateOne validates v as the value of p alone, with the rules a call's
// argument meets.
func validateOne(p Parameter, v any) (verr *ValidationError) {
	defer func() {
		if r := recover(); r != nil {
			verr = &ValidationError{Message: fmt.Sprintf("validation panicked: %v", r)}
		}
	}()
	p.Required = true
	_, verr = Validate([]Parameter{p}, Args{p.Name: v})
	return verr
}

func showValue(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

func categoryNames() string {
	cs := Categories()
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}

// describeSafe returns t's descriptor, or an error when t is nil or one of
// its methods panics (a nil pointer behind the interface, typically).
func describeSafe(t Tool) (d Descriptor, err error) {
	if t == nil {
		return Descriptor{}, &ToolError{Message: "Cannot register a nil tool", Err: ErrInvalidTool}
	}
	defer func() {
		if p := recover(); p != nil {
			err = &ToolError{ToolName: d.Name, Message: fmt.Sprintf("Tool panicked while describing itself: %v", p), Err: ErrInvalidTool}
		}
	}()
	d.Name = t.Name()
	d = Describe(t)
	return d, nil
}

// checkFinite refuses a bound that is NaN or infinite.
func checkFinite(bound *float64, which, path string) string {
	if bound != nil && (math.IsNaN(*bound) || math.IsInf(*bound, 0)) {
		return fmt.Sprintf("Parameter %s has a %s that is not a finite number: %s", path, which, formatFloat(*bound))
	}
	return ""
}
