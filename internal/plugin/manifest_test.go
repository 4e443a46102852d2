package plugin

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

func TestParseManifestGood(t *testing.T) {
	m, err := ParseManifest("plugins/x.yaml", []byte(`
name: x
description: Does x.
category: web
parameters:
  - name: url
    type: string
    description: Where.
    required: true
    min_length: 1
    max_length: 2048
  - name: limit
    type: integer
    default: 10
    minimum: 1
    maximum: 100
  - name: mode
    type: string
    enum: [fast, slow]
    default: fast
  - name: tags
    type: array
    items: {type: string, max_length: 20}
  - name: opts
    type: object
    properties:
      - {name: deep, type: boolean, default: false}
command: [bin/x, --flag, "two words"]
timeout: 1m30s
read_only: true
`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "x" || m.Description != "Does x." || m.Category != tools.CategoryWeb || m.Dir != "plugins" {
		t.Errorf("header = %+v", m)
	}
	if got := strings.Join(m.Command, "|"); got != "bin/x|--flag|two words" {
		t.Errorf("command = %q", got)
	}
	if m.Timeout != 90*time.Second {
		t.Errorf("timeout = %v", m.Timeout)
	}
	if !m.ReadOnly || !m.Descriptor().ReadOnly || !tools.IsReadOnly(newPlugin(m)) {
		t.Errorf("read_only: true not carried: manifest %v, descriptor %v, tool %v", m.ReadOnly, m.Descriptor().ReadOnly, tools.IsReadOnly(newPlugin(m)))
	}
	if len(m.Parameters) != 5 {
		t.Fatalf("parameters = %+v", m.Parameters)
	}
	p := m.Parameters
	if !p[0].Required || *p[0].MinLength != 1 || *p[0].MaxLength != 2048 {
		t.Errorf("url = %+v", p[0])
	}
	if p[1].Default != 10 || *p[1].Minimum != 1 || *p[1].Maximum != 100 {
		t.Errorf("limit = %+v", p[1])
	}
	if len(p[2].Enum) != 2 || p[2].Default != "fast" {
		t.Errorf("mode = %+v", p[2])
	}
	if p[3].Items == nil || p[3].Items.Type != "string" || *p[3].Items.MaxLength != 20 {
		t.Errorf("tags = %+v", p[3])
	}
	if len(p[4].Properties) != 1 || p[4].Properties[0].Default != false {
		t.Errorf("opts = %+v", p[4])
	}
	// The executor accepts these parameters and applies the defaults.
	args, verr := tools.Validate(m.Parameters, tools.Args{"url": "u"})
	if verr != nil || args["limit"] != 10 || args["mode"] != "fast" {
		t.Errorf("Validate = %v, %v", args, verr)
	}
}

func TestParseManifestDefaults(t *testing.T) {
	m, err := ParseManifest("/p/y.yml", []byte("name: y\ndescription: d\ncommand: run  this\nparameters:\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Category != tools.CategoryOther || m.Timeout != 0 || len(m.Parameters) != 0 || strings.Join(m.Command, "|") != "run|this" ||
		m.ReadOnly || tools.IsReadOnly(newPlugin(m)) || m.Descriptor().ReadOnly {
		t.Errorf("manifest = %+v", m)
	}
	m, err = ParseManifest("z.yaml", []byte("name: z\ndescription: d\ncommand: c\ntimeout: 2.5\n"))
	if err != nil || m.Timeout != 2500*time.Millisecond {
		t.Errorf("numeric timeout: %v %v", m, err)
	}
}

func TestParseManifestErrors(t *testing.T) {
	const head = "name: x\ndescription: d\ncommand: c\n"
	for _, tc := range []struct {
		name, yaml, want string
	}{
		{"unknown type", head + "parameters:\n  - {name: a, type: string}\n  - {name: b, type: strng}\n",
			`plugins/x.yaml: parameters[1].type: unknown type "strng" (known: string, integer, number, boolean, array, object) (line 6)`},
		{"unknown field", head + "colour: red\n", `plugins/x.yaml: colour: unknown field (known: name, description, category, parameters, command, timeout, read_only) (line 4)`},
		{"read_only not bool", head + "read_only: yes please\n", `plugins/x.yaml: read_only: must be true or false, got "yes please" (line 4)`},
		{"read_only list", head + "read_only: [true]\n", `plugins/x.yaml: read_only: must be a single value, got a list`},
		{"unknown param field", head + "parameters:\n  - name: a\n    type: string\n    requird: true\n", `plugins/x.yaml: parameters[0].requird: unknown field`},
		{"missing name", "description: d\ncommand: c\n", `plugins/x.yaml: name: missing`},
		{"missing description", "name: x\ncommand: c\n", `plugins/x.yaml: description: missing`},
		{"missing command", "name: x\ndescription: d\n", `plugins/x.yaml: command: missing`},
		{"bad name", "name: x y\ndescription: d\ncommand: c\n", `plugins/x.yaml: name: invalid name "x y"`},
		{"name not string", "name: [a]\ndescription: d\ncommand: c\n", `plugins/x.yaml: name: must be a single value, got a list`},
		{"bad category", head + "category: files\n", `plugins/x.yaml: category: unknown category "files"`},
		{"empty command", "name: x\ndescription: d\ncommand: []\n", `plugins/x.yaml: command: empty command`},
		{"command map", "name: x\ndescription: d\ncommand: {a: b}\n", `plugins/x.yaml: command: must be a string or a list of strings, got a mapping`},
		{"command number", "name: x\ndescription: d\ncommand: [c, 1]\n", `plugins/x.yaml: command[1]: must be a string, got "1"`},
		{"bad timeout", head + "timeout: soon\n", `plugins/x.yaml: timeout: must be a duration such as 30s or a number of seconds, got "soon"`},
		{"negative timeout", head + "timeout: -1s\n", `plugins/x.yaml: timeout: must be positive`},
		{"duplicate key", head + "name: y\n", `plugins/x.yaml: name: defined twice`},
		{"duplicate param", head + "parameters:\n  - {name: a, type: string}\n  - {name: a, type: string}\n", `plugins/x.yaml: parameters[1].name: duplicate parameter "a"`},
		{"param missing type", head + "parameters:\n  - {name: a}\n", `plugins/x.yaml: parameters[0].type: missing`},
		{"param missing name", head + "parameters:\n  - {type: string}\n", `plugins/x.yaml: parameters[0].name: missing`},
		{"parameters not list", head + "parameters: {a: b}\n", `plugins/x.yaml: parameters: must be a list of parameters, got a mapping`},
		{"required not bool", head + "parameters:\n  - {name: a, type: string, required: yes please}\n", `plugins/x.yaml: parameters[0].required: must be true or false`},
		{"bad default", head + "parameters:\n  - {name: limit, type: integer, default: ten}\n", `plugins/x.yaml: parameters[0].default: Invalid type for limit: expected integer`},
		{"default below minimum", head + "parameters:\n  - {name: n, type: number, minimum: 1, default: 0}\n", `plugins/x.yaml: parameters[0].default: Value for n is below minimum: 1`},
		{"default not in enum", head + "parameters:\n  - {name: f, type: string, enum: [a, b], default: c}\n", `plugins/x.yaml: parameters[0].default: Invalid value for f: must be one of ['a', 'b']`},
		{"enum wrong type", head + "parameters:\n  - {name: f, type: integer, enum: [1, two]}\n", `plugins/x.yaml: parameters[0].enum[1]: Invalid type for f: expected integer`},
		{"enum empty", head + "parameters:\n  - {name: f, type: integer, enum: []}\n", `plugins/x.yaml: parameters[0].enum: must be a non-empty list`},
		{"min > max", head + "parameters:\n  - {name: n, type: integer, minimum: 5, maximum: 1}\n", `plugins/x.yaml: parameters[0].minimum: 5 is greater than maximum 1`},
		{"min_length > max_length", head + "parameters:\n  - {name: s, type: string, min_length: 5, max_length: 1}\n", `plugins/x.yaml: parameters[0].min_length: 5 is greater than max_length 1`},
		{"negative length", head + "parameters:\n  - {name: s, type: string, min_length: -1}\n", `plugins/x.yaml: parameters[0].min_length: must be a whole number >= 0`},
		{"length on integer", head + "parameters:\n  - {name: s, type: integer, max_length: 3}\n", `plugins/x.yaml: parameters[0].min_length: applies to string and array parameters only, not integer`},
		{"minimum on string", head + "parameters:\n  - {name: s, type: string, minimum: 3}\n", `plugins/x.yaml: parameters[0].minimum: applies to integer and number parameters only, not string`},
		{"items on string", head + "parameters:\n  - {name: s, type: string, items: {type: string}}\n", `plugins/x.yaml: parameters[0].items: applies to array parameters only`},
		{"items with name", head + "parameters:\n  - {name: s, type: array, items: {name: q, type: string}}\n", `plugins/x.yaml: parameters[0].items.name: unknown field`},
		{"nested bad type", head + "parameters:\n  - name: o\n    type: object\n    properties:\n      - {name: p, type: strng}\n", `plugins/x.yaml: parameters[0].properties[0].type: unknown type "strng"`},
		{"bad param name", head + "parameters:\n  - {name: 'a b', type: string}\n", `plugins/x.yaml: parameters[0].name: invalid parameter name "a b"`},
		{"not a mapping", "- a\n- b\n", `plugins/x.yaml: must be a mapping`},
		{"empty", "", `plugins/x.yaml: empty manifest`},
		{"syntax", "name: [\n", `plugins/x.yaml: line`},
		{"self alias", "a: &a [*a]\n", `plugins/x.yaml: `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := ParseManifest("plugins/x.yaml", []byte(tc.yaml))
			if err == nil {
				t.Fatalf("accepted: %+v", m)
			}
			if !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %q\nwant prefix %q", err.Error(), tc.want)
			}
			if !errors.Is(err, ErrBadManifest) {
				t.Errorf("error %v does not wrap ErrBadManifest", err)
			}
		})
	}
}

func TestParseManifestAliasBomb(t *testing.T) {
	// Nine levels of ten aliases each: 10^9 values once expanded.
	var b strings.Builder
	b.WriteString("name: x\ndescription: d\ncommand: c\nparameters:\n  - name: a\n    type: array\n    default:\n      - &a0 [1,1,1,1,1,1,1,1,1,1]\n")
	for i := 1; i < 9; i++ {
		p := fmt.Sprintf("*a%d", i-1)
		fmt.Fprintf(&b, "      - &a%d [%s]\n", i, strings.Repeat(p+",", 9)+p)
	}
	start := time.Now()
	_, err := ParseManifest("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "bomb.yaml") {
		t.Errorf("error = %v", err)
	}
	t.Logf("refused in %v: %v", time.Since(start), err)
}

// FuzzManifest feeds arbitrary bytes to ParseManifest: it must return a manifest
// the registry accepts or an error naming the file, never panic. The corpus holds
// good manifests and, from badFields, every field with a value of the wrong type
// and one out of range.
func FuzzManifest(f *testing.F) {
	for _, b := range badFields {
		for _, v := range []string{b.wrongType, b.outOfRange} {
			if v != "" {
				f.Add(fmt.Appendf(nil, b.template, v))
			}
		}
	}
	f.Add([]byte("name: x\ndescription: d\ncommand: c\n"))
	f.Add([]byte("name: x\ndescription: d\ncommand: [a, b]\nparameters:\n  - {name: a, type: string, enum: [x, y], default: x}\n"))
	f.Add([]byte("name: x\ndescription: d\ncommand: c\nparameters:\n  - {name: o, type: object, properties: [{name: p, type: array, items: {type: integer, minimum: 1}}]}\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("x: &x {y: *x}\nname: *x\n"))
	f.Add([]byte("name: x\ndescription: d\ncommand: c\ntimeout: 1e300\n"))
	f.Add([]byte("{{{{"))
	f.Add([]byte("name: x\ndescription: d\ncommand: c\nparameters:\n  - {name: n, type: number, default: .nan}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest("f.yaml", data)
		if err == nil {
			if m.Name == "" || len(m.Command) == 0 || m.Description == "" {
				t.Fatalf("accepted an incomplete manifest: %+v", m)
			}
			if err := tools.CheckTool(m.Descriptor()); err != nil {
				t.Fatalf("accepted a manifest the registry refuses: %v", err)
			}
			return
		}
		if !strings.HasPrefix(err.Error(), "f.yaml: ") {
			t.Fatalf("error does not name the file: %v", err)
		}
	})
}
