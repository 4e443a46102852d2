package tools

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// fuzzParams covers every type, nesting, enums, constraints and defaults.
func fuzzParams() []Parameter {
	return append(editParams(),
		Parameter{Name: "s", Type: TypeString, Enum: []any{"x", "yy", "日本"}, MinLength: Int(1), MaxLength: Int(2)},
		Parameter{Name: "i", Type: TypeInteger, Minimum: Float(-5), Maximum: Float(5), Default: 1},
		Parameter{Name: "n", Type: TypeNumber, Minimum: Float(0.5)},
		Parameter{Name: "nested", Type: TypeArray, Items: &Parameter{Type: TypeArray, Items: &Parameter{Type: TypeNumber}}},
	)
}

// FuzzValidate feeds arbitrary JSON arguments to Validate: it must never
// panic, an accepted call must validate again to the same value, and the
// schema forge advertises must accept what Validate returns.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}]}`,
		`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b","count":2.0}],"lines":[1,2],"scale":0.5,"flag":true}`,
		`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}],"s":"日本","i":-5,"n":1e2,"nested":[[1.5],[]]}`,
		`{"file_path":1}`, `{"file_path":"/a","edits":[null]}`, `{"bogus":true}`, `{"i":1e400}`, `{"meta":{"a":[{}]}}`,
	} {
		f.Add(s)
	}
	params := fuzzParams()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ParametersSchema(params)))
	if err != nil {
		f.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("mem://fuzz.json", doc); err != nil {
		f.Fatal(err)
	}
	sch, err := c.Compile("mem://fuzz.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data string) {
		dec := json.NewDecoder(bytes.NewReader([]byte(data)))
		dec.UseNumber()
		var args Args
		if dec.Decode(&args) != nil {
			return
		}
		out, verr := Validate(params, args)
		if verr != nil {
			if verr.Message == "" || verr.Path == "" {
				t.Fatalf("error without message or path: %+v", verr)
			}
			return
		}
		again, verr := Validate(params, out)
		if verr != nil {
			t.Fatalf("validated args refused on revalidation: %v\n%#v", verr, out)
		}
		if !reflect.DeepEqual(again, out) {
			t.Fatalf("revalidation changed the args:\n%#v\n%#v", out, again)
		}
		if reflect.ValueOf(again).Pointer() != reflect.ValueOf(out).Pointer() {
			t.Fatalf("normalised args copied again on revalidation: %#v", out)
		}
		inst, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(inst))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Fatalf("the advertised schema refuses validated args %s: %v", inst, err)
		}
	})
}
