package plugin

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// badField is a manifest field with a value of the wrong type and one out of range.
type badField struct {
	field      string // the field as the error names it
	template   string // the manifest with one %s for the field's line(s)
	wrongType  string
	outOfRange string // "" when every value of the right type is valid
}

// paramManifest is a valid manifest with one parameter p, whose other fields go
// where %s is.
const paramManifest = "name: x\ndescription: d\ncommand: c\nparameters:\n  - name: p\n    %s\n"

// topField is a manifest template with field written last, as %s, and the other
// required fields valid.
func topField(field string) string {
	var b strings.Builder
	for _, f := range []string{"name: x", "description: d", "command: c"} {
		if !strings.HasPrefix(f, field+":") {
			b.WriteString(f + "\n")
		}
	}
	return b.String() + field + ": %s\n"
}

// badFields covers every field of a manifest and of a parameter;
// TestBadFieldsCoverEveryField fails when a field is added without a row.
var badFields = []badField{
	{field: "name", template: topField("name"), wrongType: "[x]", outOfRange: "x y"},
	{field: "description", template: topField("description"), wrongType: "{a: b}", outOfRange: `"  "`},
	{field: "category", template: topField("category"), wrongType: "[web]", outOfRange: "files"},
	{field: "parameters", template: topField("parameters"), wrongType: "{a: b}", outOfRange: "[5]"},
	{field: "command", template: topField("command"), wrongType: "{a: b}", outOfRange: "[]"},
	{field: "timeout", template: topField("timeout"), wrongType: "[1]", outOfRange: "-1s"},
	{field: "read_only", template: topField("read_only"), wrongType: "sometimes"},

	{field: "parameters[0].name", template: "name: x\ndescription: d\ncommand: c\nparameters:\n  - type: string\n    %s\n",
		wrongType: "name: [p]", outOfRange: "name: 'a b'"},
	{field: "parameters[0].type", template: "name: x\ndescription: d\ncommand: c\nparameters:\n  - name: p\n    %s\n",
		wrongType: "type: [string]", outOfRange: "type: strng"},
	{field: "parameters[0].description", template: paramManifest, wrongType: "type: string\n    description: [d]"},
	{field: "parameters[0].required", template: paramManifest, wrongType: "type: string\n    required: yes please", outOfRange: "type: string\n    required: 2"},
	{field: "parameters[0].default", template: paramManifest, wrongType: "type: integer\n    default: ten", outOfRange: "type: integer\n    minimum: 1\n    default: 0"},
	{field: "parameters[0].enum", template: paramManifest, wrongType: "type: string\n    enum: {a: b}", outOfRange: "type: string\n    enum: []"},
	{field: "parameters[0].min_length", template: paramManifest, wrongType: "type: string\n    min_length: short", outOfRange: "type: string\n    min_length: -1"},
	{field: "parameters[0].max_length", template: paramManifest, wrongType: "type: string\n    max_length: [1]", outOfRange: "type: string\n    max_length: -1"},
	{field: "parameters[0].minimum", template: paramManifest, wrongType: "type: number\n    minimum: low", outOfRange: "type: number\n    minimum: .nan"},
	{field: "parameters[0].maximum", template: paramManifest, wrongType: "type: number\n    maximum: [1]", outOfRange: "type: number\n    maximum: .inf"},
	{field: "parameters[0].items", template: paramManifest, wrongType: "type: array\n    items: [string]", outOfRange: "type: array\n    items: {type: strng}"},
	{field: "parameters[0].properties", template: paramManifest, wrongType: "type: object\n    properties: {a: b}", outOfRange: "type: object\n    properties: [5]"},
}

// TestBadFieldsCoverEveryField: every field the decoder knows, as its own "unknown
// field" message lists them, has a row in badFields.
func TestBadFieldsCoverEveryField(t *testing.T) {
	known := func(yaml string) []string {
		_, err := ParseManifest("x.yaml", []byte(yaml))
		m := regexp.MustCompile(`known: ([a-z_, ]+)\)`).FindStringSubmatch(fmt.Sprint(err))
		if m == nil {
			t.Fatalf("no list of known fields in %v", err)
		}
		return strings.Split(m[1], ", ")
	}
	var have []string
	for _, b := range badFields {
		have = append(have, b.field)
	}
	for _, f := range known("name: x\ndescription: d\ncommand: c\nzzzzzzzz: 1\n") {
		if !slices.Contains(have, f) {
			t.Errorf("manifest field %q has no row in badFields", f)
		}
	}
	for _, f := range known("name: x\ndescription: d\ncommand: c\nparameters:\n  - {name: p, type: string, zzzzzzzz: 1}\n") {
		if !slices.Contains(have, "parameters[0]."+f) {
			t.Errorf("parameter field %q has no row in badFields", f)
		}
	}
}

// TestBadFieldValues: a wrong-typed or out-of-range value of any field is a
// FieldError naming the file, the field and its line.
func TestBadFieldValues(t *testing.T) {
	for _, b := range badFields {
		for kind, v := range map[string]string{"wrong type": b.wrongType, "out of range": b.outOfRange} {
			if v == "" {
				continue
			}
			t.Run(b.field+"/"+kind, func(t *testing.T) {
				src := fmt.Sprintf(b.template, v)
				m, err := ParseManifest("plugins/x.yaml", []byte(src))
				if err == nil {
					t.Fatalf("accepted %q: %+v", src, m)
				}
				var fe *FieldError
				if !errors.As(err, &fe) {
					t.Fatalf("%v is not a *FieldError", err)
				}
				if fe.File != "plugins/x.yaml" || !strings.HasPrefix(fe.Field, b.field) || fe.Line < 1 {
					t.Errorf("%q: error %q has file %q, field %q, line %d; want plugins/x.yaml, %s and a line",
						src, err, fe.File, fe.Field, fe.Line, b.field)
				}
			})
		}
	}
}

// TestUnknownFieldSuggestion: a misspelt field is refused with the field it was
// probably meant to be.
func TestUnknownFieldSuggestion(t *testing.T) {
	const head = "name: x\ndescription: d\ncommand: c\n"
	tests := []struct{ yaml, want string }{
		{head + "timout: 5s\n", `plugins/x.yaml: timout: unknown field (did you mean "timeout"? known: name, description, category, parameters, command, timeout, read_only) (line 4)`},
		{"Name: x\ndescription: d\ncommand: c\n", `plugins/x.yaml: Name: unknown field (did you mean "name"? known: `},
		{head + "parameters:\n  - {name: a, type: string, requird: true}\n", `plugins/x.yaml: parameters[0].requird: unknown field (did you mean "required"? known: `},
		{head + "parameters:\n  - {name: a, type: array, items: {type: string, max_lenght: 3}}\n", `plugins/x.yaml: parameters[0].items.max_lenght: unknown field (did you mean "max_length"? known: `},
		{head + "colour: red\n", `plugins/x.yaml: colour: unknown field (known: name, description, category, parameters, command, timeout, read_only) (line 4)`},
	}
	for _, tt := range tests {
		_, err := ParseManifest("plugins/x.yaml", []byte(tt.yaml))
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: error\n %v\nwant prefix\n %s", tt.yaml, err, tt.want)
		}
	}
}
