package tools

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCheckTool(t *testing.T) {
	str := func(name string) Parameter { return Parameter{Name: name, Type: TypeString, Description: "d"} }
	ok := Descriptor{Name: "Read", Description: "Read a file", Category: CategoryFile}
	with := func(params ...Parameter) Descriptor { d := ok; d.Parameters = params; return d }
	tests := []struct {
		name string
		d    Descriptor
		want string // "" for a valid tool; otherwise a part of the message
	}{
		{"valid", ok, ""},
		{"valid with every constraint", with(
			Parameter{Name: "format", Type: TypeString, Description: "d", Default: "json", Enum: []any{"json", "yaml"}},
			Parameter{Name: "timeout", Type: TypeInteger, Description: "d", Default: 120, Minimum: Float(1), Maximum: Float(600)},
			Parameter{Name: "name", Type: TypeString, Description: "d", MinLength: Int(1), MaxLength: Int(1)},
			Parameter{Name: "tags", Type: TypeArray, Description: "d", Items: &Parameter{Type: TypeString, Enum: []any{"a", "b"}}},
			Parameter{Name: "edit", Type: TypeObject, Description: "d", Properties: []Parameter{str("old"), str("new")}},
		), ""},
		{"name with space", Descriptor{Name: "Read File", Description: "d", Category: CategoryFile}, `Invalid tool name "Read File": must match ^[a-zA-Z0-9_-]{1,64}$`},
		{"empty name", Descriptor{Description: "d", Category: CategoryFile}, `Invalid tool name ""`},
		{"name too long", Descriptor{Name: strings.Repeat("a", 65), Description: "d", Category: CategoryFile}, "Invalid tool name"},
		{"name of 64", Descriptor{Name: strings.Repeat("a", 64), Description: "d", Category: CategoryFile}, ""},
		{"no description", Descriptor{Name: "Read", Description: "  ", Category: CategoryFile}, "Missing description"},
		{"unknown category", Descriptor{Name: "Read", Description: "d", Category: "files"}, `Unknown category "files" (known: file, execution, web, task, notebook, mcp, other)`},
		{"empty category", Descriptor{Name: "Read", Description: "d"}, `Unknown category ""`},
		{"duplicate parameter", with(str("path"), str("path")), "Duplicate parameter name: path"},
		{"empty parameter name", with(str("path"), str("")), "Parameter #2 has no name"},
		{"unknown type", with(Parameter{Name: "n", Type: "int"}), `Unknown type for parameter n: "int" (known: string, integer, number, boolean, array, object)`},
		{"enum of wrong type", with(Parameter{Name: "n", Type: TypeInteger, Enum: []any{1, "two"}}), `Invalid enum value "two" for parameter n: Invalid type for n: expected integer`},
		{"enum out of range", with(Parameter{Name: "n", Type: TypeInteger, Enum: []any{1, 700}, Maximum: Float(600)}), "Invalid enum value 700 for parameter n: Value for n exceeds maximum: 600"},
		{"default of wrong type", with(Parameter{Name: "n", Type: TypeInteger, Default: "120"}), `Invalid default "120" for parameter n: Invalid type for n: expected integer`},
		{"default below minimum", with(Parameter{Name: "timeout", Type: TypeInteger, Default: 0, Minimum: Float(1)}), "Invalid default 0 for parameter timeout: Value for timeout is below minimum: 1"},
		{"default not in enum", with(Parameter{Name: "format", Type: TypeString, Default: "xml", Enum: []any{"json", "yaml"}}), `Invalid default "xml" for parameter format: Invalid value for format: must be one of ['json', 'yaml']`},
		{"default too long", with(Parameter{Name: "s", Type: TypeString, Default: "abc", MaxLength: Int(2)}), "Value for s exceeds maximum length: 2"},
		{"minimum above maximum", with(Parameter{Name: "limit", Type: TypeInteger, Minimum: Float(10), Maximum: Float(1.5)}), "Parameter limit has minimum 10 greater than maximum 1.5"},
		{"NaN maximum", with(Parameter{Name: "n", Type: TypeNumber, Maximum: Float(math.NaN())}), "Parameter n has a maximum that is not a finite number: NaN"},
		{"infinite minimum", with(Parameter{Name: "n", Type: TypeNumber, Minimum: Float(math.Inf(-1))}), "Parameter n has a minimum that is not a finite number: -Inf"},
		{"infinite item maximum", with(Parameter{Name: "xs", Type: TypeArray, Items: &Parameter{Type: TypeNumber, Maximum: Float(math.Inf(1))}}), "Parameter xs[] has a maximum that is not a finite number: +Inf"},
		{"min_length above max_length", with(Parameter{Name: "s", Type: TypeString, MinLength: Int(5), MaxLength: Int(2)}), "Parameter s has min_length 5 greater than max_length 2"},
		{"negative min_length", with(Parameter{Name: "s", Type: TypeString, MinLength: Int(-1)}), "Parameter s has a negative min_length: -1"},
		{"negative max_length", with(Parameter{Name: "s", Type: TypeString, MaxLength: Int(-1)}), "Parameter s has a negative max_length: -1"},
		{"items on a string", with(Parameter{Name: "s", Type: TypeString, Items: &Parameter{Type: TypeString}}), "Parameter s declares items but is of type string, not array"},
		{"bad item type", with(Parameter{Name: "tags", Type: TypeArray, Items: &Parameter{Type: "text"}}), `Unknown type for parameter tags[]: "text"`},
		{"properties on an array", with(Parameter{Name: "o", Type: TypeArray, Properties: []Parameter{str("a")}}), "Parameter o declares properties but is of type array, not object"},
		{"duplicate property", with(Parameter{Name: "edit", Type: TypeObject, Properties: []Parameter{str("old"), str("old")}}), "Duplicate parameter name: edit.old"},
		{"nameless property", with(Parameter{Name: "edit", Type: TypeObject, Properties: []Parameter{{Type: TypeString}}}), "Parameter edit.#1 has no name"},
		{"bad property default", with(Parameter{Name: "edit", Type: TypeObject, Properties: []Parameter{{Name: "n", Type: TypeInteger, Default: true}}}), "Invalid default true for parameter edit.n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckTool(tc.d)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("CheckTool = %v, want nil", err)
				}
				return
			}
			var te *ToolError
			if !errors.As(err, &te) || !errors.Is(err, ErrInvalidTool) {
				t.Fatalf("CheckTool = %v (%T), want a *ToolError wrapping ErrInvalidTool", err, err)
			}
			if te.ToolName != tc.d.Name {
				t.Errorf("ToolName = %q, want %q", te.ToolName, tc.d.Name)
			}
			if !strings.Contains(te.Message, tc.want) {
				t.Errorf("message = %q, want it to contain %q", te.Message, tc.want)
			}
		})
	}
}

func TestRegisterRefusesMalformedTool(t *testing.T) {
	r := NewRegistry()
	bad := newTool("Read", CategoryFile, Parameter{Name: "limit", Type: TypeInteger, Minimum: Float(5), Maximum: Float(1)})
	err := r.Register(bad)
	if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), "Tool 'Read' error: Parameter limit has minimum 5 greater than maximum 1") {
		t.Errorf("Register = %v", err)
	}
	if r.Exists("Read") {
		t.Error("a malformed tool was registered")
	}
	err = r.RegisterLazy(Descriptor{Name: "Lazy", Category: CategoryOther}, func(context.Context, Deps) (Tool, error) { return nil, nil }, Singleton)
	if !errors.Is(err, ErrInvalidTool) || !strings.Contains(err.Error(), "Missing description") {
		t.Errorf("RegisterLazy without description = %v", err)
	}
}
