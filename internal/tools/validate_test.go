package tools

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// vArgs decodes a JSON object the way arguments arrive from a model.
func vArgs(t testing.TB, s string) Args {
	t.Helper()
	a, err := DecodeArgs([]byte(s))
	if err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return a
}

func TestValidateScenarios(t *testing.T) {
	str := func(name string) []Parameter { return []Parameter{{Name: name, Type: TypeString}} }
	typed := func(name, typ string) []Parameter { return []Parameter{{Name: name, Type: typ}} }
	cases := []struct {
		scenario string
		params   []Parameter
		args     Args
		want     string // "" = valid
	}{
		// Scenario: Tool validates required parameter present
		{"required present", []Parameter{{Name: "file_path", Type: TypeString, Required: true}}, Args{"file_path": "/some/path"}, ""},
		// Scenario: Tool validates required parameter missing
		{"required missing", []Parameter{{Name: "file_path", Type: TypeString, Required: true}}, Args{}, "Missing required parameter: file_path"},
		// Scenario: Tool validates parameter type - string
		{"string ok", str("name"), Args{"name": "hello"}, ""},
		{"string 123", str("name"), Args{"name": 123}, "Invalid type for name: expected string"},
		// Scenario: Tool validates parameter type - integer
		{"integer 42", typed("count", TypeInteger), Args{"count": 42}, ""},
		{"integer \"42\"", typed("count", TypeInteger), Args{"count": "42"}, "Invalid type for count: expected integer"},
		{"integer 3.14", typed("count", TypeInteger), Args{"count": 3.14}, "Invalid type for count: expected integer"},
		// Scenario: Tool validates parameter type - number
		{"number 42", typed("value", TypeNumber), Args{"value": 42}, ""},
		{"number 3.14", typed("value", TypeNumber), Args{"value": 3.14}, ""},
		{"number \"3.14\"", typed("value", TypeNumber), Args{"value": "3.14"}, "Invalid type for value: expected number"},
		// Scenario: Tool validates parameter type - boolean
		{"boolean true", typed("enabled", TypeBoolean), Args{"enabled": true}, ""},
		{"boolean false", typed("enabled", TypeBoolean), Args{"enabled": false}, ""},
		{"boolean \"true\"", typed("enabled", TypeBoolean), Args{"enabled": "true"}, "Invalid type for enabled: expected boolean"},
		// Scenario: Tool validates parameter type - array
		{"array", typed("items", TypeArray), Args{"items": []any{1, 2, 3}}, ""},
		{"array string", typed("items", TypeArray), Args{"items": "[1, 2, 3]"}, "Invalid type for items: expected array"},
		// Scenario: Tool validates parameter type - object
		{"object", typed("config", TypeObject), Args{"config": map[string]any{"key": "value"}}, ""},
		{"object string", typed("config", TypeObject), Args{"config": "{'key': 'value'}"}, "Invalid type for config: expected object"},
		// Scenario: Tool validates enum constraint
		{"enum ok", []Parameter{{Name: "format", Type: TypeString, Enum: []any{"json", "yaml", "toml"}}}, Args{"format": "json"}, ""},
		{"enum bad", []Parameter{{Name: "format", Type: TypeString, Enum: []any{"json", "yaml", "toml"}}}, Args{"format": "xml"},
			"Invalid value for format: must be one of ['json', 'yaml', 'toml']"},
		// Scenario: Tool validates numeric minimum
		{"minimum ok", []Parameter{{Name: "timeout", Type: TypeInteger, Minimum: Float(1)}}, Args{"timeout": 1}, ""},
		{"minimum bad", []Parameter{{Name: "timeout", Type: TypeInteger, Minimum: Float(1)}}, Args{"timeout": 0}, "Value for timeout is below minimum: 1"},
		// Scenario: Tool validates numeric maximum
		{"maximum ok", []Parameter{{Name: "limit", Type: TypeInteger, Maximum: Float(1000)}}, Args{"limit": 1000}, ""},
		{"maximum bad", []Parameter{{Name: "limit", Type: TypeInteger, Maximum: Float(1000)}}, Args{"limit": 1001}, "Value for limit exceeds maximum: 1000"},
		// Scenario: Tool validates string min_length
		{"min_length ok", []Parameter{{Name: "content", Type: TypeString, MinLength: Int(1)}}, Args{"content": "hello"}, ""},
		{"min_length bad", []Parameter{{Name: "content", Type: TypeString, MinLength: Int(1)}}, Args{"content": ""}, "Value for content is shorter than minimum length: 1"},
		// Scenario: Tool validates string max_length
		{"max_length ok", []Parameter{{Name: "name", Type: TypeString, MaxLength: Int(50)}}, Args{"name": "short"}, ""},
		{"max_length bad", []Parameter{{Name: "name", Type: TypeString, MaxLength: Int(50)}}, Args{"name": strings.Repeat("x", 51)}, "Value for name exceeds maximum length: 50"},
	}
	for _, c := range cases {
		t.Run(c.scenario, func(t *testing.T) {
			_, err := Validate(c.params, c.args)
			got := ""
			if err != nil {
				got = err.Message
				if err.Error() != err.Message {
					t.Errorf("Error() = %q, Message = %q", err.Error(), err.Message)
				}
			}
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// Arguments decoded from JSON keep integers apart from fractions.
func TestValidateJSONNumbers(t *testing.T) {
	params := []Parameter{
		{Name: "count", Type: TypeInteger},
		{Name: "ratio", Type: TypeNumber},
	}
	cases := []struct {
		json      string
		want      string
		wantCount any
	}{
		{`{"count": 42}`, "", 42},
		{`{"count": -7}`, "", -7},
		{`{"count": 42.0}`, "", 42}, // integral, as JSON Schema defines integer
		{`{"count": 4.2e1}`, "", 42},
		{`{"count": 3.14}`, "Invalid type for count: expected integer", nil},
		{`{"count": "42"}`, "Invalid type for count: expected integer", nil},
		{`{"count": true}`, "Invalid type for count: expected integer", nil},
		{`{"count": 1e30}`, "Invalid type for count: expected integer", nil},
		{`{"count": 1e-400}`, "Invalid type for count: expected integer", nil},
		{`{"count": 1.0000000000000001}`, "Invalid type for count: expected integer", nil},
		{`{"count": 0.0e-99999999999}`, "", 0},
		{`{"count": 1e-99999999999}`, "Invalid type for count: expected integer", nil},
		{`{"count": 1e99999999999}`, "Invalid type for count: expected integer", nil},
		{`{"count": 120e-1}`, "", 12},
		{`{"count": 0.5e1}`, "", 5},
		{`{"count": 12.5e1}`, "", 125},
		{`{"count": 0.00000000000000000000000001e26}`, "", 1},
		{`{"count": -0.0}`, "", 0},
		{`{"count": ` + strconv.Itoa(math.MaxInt) + `}`, "", math.MaxInt},
		{`{"count": ` + strconv.FormatUint(math.MaxInt+1, 10) + `}`, "Invalid type for count: expected integer", nil},
		{`{"count": ` + strconv.FormatUint(math.MaxInt+1, 10) + `.0}`, "Invalid type for count: expected integer", nil},
		{`{"count": ` + strconv.Itoa(math.MinInt) + `}`, "", math.MinInt},
		{`{"count": -` + strconv.FormatUint(math.MaxInt+2, 10) + `}`, "Invalid type for count: expected integer", nil},
		{`{"count": [1]}`, "Invalid type for count: expected integer", nil},
		{`{"ratio": 42}`, "", nil},
		{`{"ratio": 3.14}`, "", nil},
		{`{"ratio": false}`, "Invalid type for ratio: expected number", nil},
		{`{"ratio": 1e400}`, "Invalid type for ratio: expected number", nil},
	}
	for _, c := range cases {
		t.Run(c.json, func(t *testing.T) {
			out, err := Validate(params, vArgs(t, c.json))
			got := ""
			if err != nil {
				got = err.Message
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			if c.wantCount != nil && out["count"] != c.wantCount {
				t.Errorf("count = %#v, want %#v", out["count"], c.wantCount)
			}
			if err == nil && out.Has("ratio") {
				if _, ok := out["ratio"].(float64); !ok {
					t.Errorf("ratio = %T, want float64", out["ratio"])
				}
			}
		})
	}
}

// Arguments built in Go code may use any numeric type.
func TestValidateGoNumbers(t *testing.T) {
	p := []Parameter{{Name: "n", Type: TypeInteger}, {Name: "x", Type: TypeNumber}}
	good := []any{int8(1), int16(1), int32(1), int64(1), uint(1), uint8(1), uint16(1), uint32(1), uint64(1), float32(1), float64(1), json.Number("1")}
	for _, v := range good {
		out, err := Validate(p, Args{"n": v, "x": v})
		if err != nil {
			t.Errorf("%T: %v", v, err)
			continue
		}
		if out["n"] != 1 || out["x"] != 1.0 {
			t.Errorf("%T: got n=%#v x=%#v", v, out["n"], out["x"])
		}
	}
	bad := []any{uint64(1 << 63), float32(1.5), json.Number("abc"), "1", true, nil}
	for _, v := range bad {
		if v == nil {
			continue // null means absent; covered elsewhere
		}
		if _, err := Validate(p[:1], Args{"n": v}); err == nil {
			t.Errorf("%T %v accepted as integer", v, v)
		}
	}
	for _, v := range []any{json.Number("x"), "1", false} {
		if _, err := Validate(p[1:], Args{"x": v}); err == nil {
			t.Errorf("%T %v accepted as number", v, v)
		}
	}
}

// Lengths count characters, not bytes.
func TestValidateLengthsCountRunes(t *testing.T) {
	p := []Parameter{{Name: "name", Type: TypeString, MaxLength: Int(3), MinLength: Int(3)}}
	if _, err := Validate(p, Args{"name": "äöü"}); err != nil { // 6 bytes, 3 characters
		t.Errorf("3 characters refused: %v", err)
	}
	if _, err := Validate(p, Args{"name": "日本語x"}); err == nil || err.Message != "Value for name exceeds maximum length: 3" {
		t.Errorf("4 characters: %v", err)
	}
}

func TestValidateUnknownParameter(t *testing.T) {
	read := []Parameter{
		{Name: "file_path", Type: TypeString, Required: true},
		{Name: "offset", Type: TypeInteger},
		{Name: "limit", Type: TypeInteger},
	}
	cases := []struct {
		args Args
		want string
	}{
		{Args{"file_path": "/a", "foo": 1}, "Unknown parameter: foo (valid parameters: file_path, offset, limit)"},
		// a misspelt required name is reported as unknown, not as missing
		{Args{"filepath": "/a"}, "Unknown parameter: filepath (valid parameters: file_path, offset, limit)"},
		{Args{"file_path": "/a", "zz": 1, "aa": 2}, "Unknown parameters: aa, zz (valid parameters: file_path, offset, limit)"},
		{Args{"file_path": 1, "x": 1}, "Unknown parameter: x (valid parameters: file_path, offset, limit)"},
	}
	for _, c := range cases {
		_, err := Validate(read, c.args)
		if err == nil || err.Message != c.want {
			t.Errorf("%v: got %v, want %q", c.args, err, c.want)
		}
	}
	_, err := Validate(nil, Args{"x": 1})
	if err == nil || err.Message != "Unknown parameter: x (this tool takes no parameters)" {
		t.Errorf("no params: %v", err)
	}
	if err.Path != "x" || err.Received != 1 {
		t.Errorf("path %q received %v", err.Path, err.Received)
	}
}

// Scenario: Optional parameter uses default when not provided
func TestValidateDefaults(t *testing.T) {
	params := []Parameter{
		{Name: "timeout", Type: TypeInteger, Default: 120},
		{Name: "ratio", Type: TypeNumber, Default: 1},
		{Name: "tags", Type: TypeArray, Default: []any{"a"}},
		{Name: "opts", Type: TypeObject, Default: map[string]any{"k": "v"}},
		{Name: "mode", Type: TypeString},
	}
	in := Args{"mode": nil} // null: not given
	out, err := Validate(params, in)
	if err != nil {
		t.Fatal(err)
	}
	want := Args{"timeout": 120, "ratio": 1.0, "tags": []any{"a"}, "opts": map[string]any{"k": "v"}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got %#v, want %#v", out, want)
	}
	out["tags"].([]any)[0] = "changed"
	out["opts"].(map[string]any)["k"] = "changed"
	again, _ := Validate(params, Args{})
	if again["tags"].([]any)[0] != "a" || again["opts"].(map[string]any)["k"] != "v" {
		t.Error("a tool changing its arguments changed the defaults")
	}
	if len(in) != 1 {
		t.Error("args modified")
	}
	// a given value wins over the default
	out, _ = Validate(params, vArgs(t, `{"timeout": 5}`))
	if out["timeout"] != 5 {
		t.Errorf("timeout = %#v", out["timeout"])
	}
	// null for a required parameter is missing
	_, verr := Validate([]Parameter{{Name: "file_path", Type: TypeString, Required: true}}, Args{"file_path": nil})
	if verr == nil || verr.Message != "Missing required parameter: file_path" || verr.Received != nil {
		t.Errorf("null required: %v", verr)
	}
}

func editParams() []Parameter {
	return []Parameter{
		{Name: "file_path", Type: TypeString, Required: true},
		{Name: "edits", Type: TypeArray, Required: true, MinLength: Int(1), Items: &Parameter{
			Type: TypeObject,
			Properties: []Parameter{
				{Name: "old_string", Type: TypeString, Required: true},
				{Name: "new_string", Type: TypeString, Required: true},
				{Name: "replace_all", Type: TypeBoolean, Default: false},
				{Name: "count", Type: TypeInteger, Minimum: Float(1)},
			},
		}},
		{Name: "lines", Type: TypeArray, Items: &Parameter{Type: TypeInteger, Maximum: Float(10)}},
		{Name: "scale", Type: TypeNumber, Enum: []any{0.5, 1, json.Number("2")}},
		{Name: "flag", Type: TypeBoolean, Enum: []any{true}},
		{Name: "meta", Type: TypeObject},
	}
}

// Arrays declare their items, objects their properties; both are validated
// recursively with the path in the message.
func TestValidateNested(t *testing.T) {
	cases := []struct {
		json string
		want string
		path string
	}{
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}]}`, "", ""},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"},{"new_string":"c"}]}`, "Missing required parameter: edits[1].old_string", "edits[1].old_string"},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"},{"old_string":5,"new_string":"c"}]}`, "Invalid type for edits[1].old_string: expected string", "edits[1].old_string"},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b","bogus":1}]}`, "Unknown parameter: edits[0].bogus (valid parameters: old_string, new_string, replace_all, count)", "edits[0].bogus"},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b","count":0}]}`, "Value for edits[0].count is below minimum: 1", "edits[0].count"},
		{`{"file_path":"/a","edits":[]}`, "Value for edits is shorter than minimum length: 1", "edits"},
		{`{"file_path":"/a","edits":["x"]}`, "Invalid type for edits[0]: expected object", "edits[0]"},
		{`{"file_path":"/a","edits":[null]}`, "Invalid type for edits[0]: expected object", "edits[0]"},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}],"lines":[1,2,11]}`, "Value for lines[2] exceeds maximum: 10", "lines[2]"},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}],"lines":[1.5]}`, "Invalid type for lines[0]: expected integer", "lines[0]"},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}],"scale":2}`, "", ""},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}],"scale":3}`, "Invalid value for scale: must be one of [0.5, 1, 2]", "scale"},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}],"flag":false}`, "Invalid value for flag: must be one of [true]", "flag"},
		{`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}],"meta":{"any":[1,{"x":null}]}}`, "", ""},
	}
	for _, c := range cases {
		t.Run(c.json, func(t *testing.T) {
			_, err := Validate(editParams(), vArgs(t, c.json))
			got, path := "", ""
			if err != nil {
				got, path = err.Message, err.Path
			}
			if got != c.want || path != c.path {
				t.Errorf("got %q at %q, want %q at %q", got, path, c.want, c.path)
			}
		})
	}
}

// Validated Args are a new map with integers as int and numbers as float64,
// nested where declared; args itself is never modified.
func TestValidateNormalises(t *testing.T) {
	in := vArgs(t, `{"file_path":"/a","edits":[{"old_string":"a","new_string":"b","count":2}],"lines":[3],"scale":1}`)
	before, _ := json.Marshal(in)
	out, err := Validate(editParams(), in)
	if err != nil {
		t.Fatal(err)
	}
	edit := out["edits"].([]any)[0].(map[string]any)
	if edit["count"] != 2 || edit["replace_all"] != false {
		t.Errorf("edit = %#v", edit)
	}
	if out["lines"].([]any)[0] != 3 || out["scale"] != 1.0 {
		t.Errorf("out = %#v", out)
	}
	after, _ := json.Marshal(in)
	if string(before) != string(after) {
		t.Errorf("args modified:\n%s\n%s", before, after)
	}
	if _, ok := in["edits"].([]any)[0].(map[string]any)["replace_all"]; ok {
		t.Error("a default was added to the input's nested object")
	}
	// The output validates again to itself.
	again, err := Validate(editParams(), out)
	if err != nil || !reflect.DeepEqual(again, out) {
		t.Errorf("revalidation: %v\n%#v\n%#v", err, again, out)
	}
}

// Values built in Go code: typed slices and maps are accepted and copied.
func TestValidateGoContainers(t *testing.T) {
	params := []Parameter{
		{Name: "tags", Type: TypeArray, Items: &Parameter{Type: TypeString}},
		{Name: "env", Type: TypeObject},
		{Name: "opts", Type: TypeObject, Properties: []Parameter{{Name: "n", Type: TypeInteger}}},
		{Name: "any", Type: "mystery"},
	}
	out, err := Validate(params, Args{"tags": []string{"a", "b"}, "env": map[string]string{"K": "V"}, "opts": Args{"n": int64(3)}, "any": 1})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out["tags"], []any{"a", "b"}) || !reflect.DeepEqual(out["env"], map[string]any{"K": "V"}) ||
		!reflect.DeepEqual(out["opts"], map[string]any{"n": 3}) || out["any"] != 1 {
		t.Errorf("out = %#v", out)
	}
	if _, err := Validate(params, Args{"env": map[int]string{1: "x"}}); err == nil {
		t.Error("map with int keys accepted as object")
	}
	if _, err := Validate(params, Args{"tags": [2]string{"a", "b"}}); err != nil {
		t.Errorf("array: %v", err)
	}
	if _, err := Validate(params, Args{"tags": []string(nil)}); err != nil {
		t.Errorf("nil slice: %v", err)
	}
}

func TestValidateEnums(t *testing.T) {
	cases := []struct {
		p    Parameter
		v    any
		ok   bool
		want string
	}{
		{Parameter{Name: "n", Type: TypeInteger, Enum: []any{1, 2}}, json.Number("2"), true, ""},
		{Parameter{Name: "n", Type: TypeInteger, Enum: []any{1, 2}}, 3, false, "Invalid value for n: must be one of [1, 2]"},
		{Parameter{Name: "s", Type: TypeString, Enum: []any{"it's", `back\slash`}}, "x", false, `Invalid value for s: must be one of ['it\'s', 'back\\slash']`},
		{Parameter{Name: "a", Type: TypeArray, Enum: []any{[]any{1, "x"}}}, []any{json.Number("1"), "x"}, true, ""},
		{Parameter{Name: "a", Type: TypeArray, Enum: []any{[]any{1, "x"}}}, []any{1}, false, `Invalid value for a: must be one of [[1,"x"]]`},
		{Parameter{Name: "o", Type: TypeObject, Enum: []any{map[string]any{"k": 1}}}, map[string]any{"k": 1.0}, true, ""},
		{Parameter{Name: "o", Type: TypeObject, Enum: []any{map[string]any{"k": 1}}}, map[string]any{"j": 1}, false, `Invalid value for o: must be one of [{"k":1}]`},
		{Parameter{Name: "b", Type: TypeBoolean, Enum: []any{true, nil}}, false, false, "Invalid value for b: must be one of [true, null]"},
	}
	for _, c := range cases {
		_, err := Validate([]Parameter{c.p}, Args{c.p.Name: c.v})
		if (err == nil) != c.ok || (err != nil && err.Message != c.want) {
			t.Errorf("%s=%v: got %v, want %q", c.p.Name, c.v, err, c.want)
		}
	}
}

func TestValidationNumbersInMessages(t *testing.T) {
	p := []Parameter{{Name: "x", Type: TypeNumber, Minimum: Float(1.5), Maximum: Float(1e6)}}
	if _, err := Validate(p, Args{"x": 1}); err == nil || err.Message != "Value for x is below minimum: 1.5" {
		t.Errorf("got %v", err)
	}
	if _, err := Validate(p, Args{"x": 2e6}); err == nil || err.Message != "Value for x exceeds maximum: 1000000" {
		t.Errorf("got %v", err)
	}
	if _, err := Validate([]Parameter{{Name: "a", Type: TypeArray, MaxLength: Int(1)}}, Args{"a": []any{1, 2}}); err == nil || err.Message != "Value for a exceeds maximum length: 1" {
		t.Errorf("got %v", err)
	}
}

func readLikeParams() []Parameter {
	return []Parameter{
		{Name: "file_path", Type: TypeString, Description: "Absolute path to the file to read", Required: true},
		{Name: "offset", Type: TypeInteger, Description: "Line number to start reading from", Minimum: Float(0)},
		{Name: "limit", Type: TypeInteger, Description: "Maximum number of lines to read", Minimum: Float(1), Maximum: Float(10000)},
	}
}

// BenchmarkValidateRead validates a Read call decoded from JSON (target <= 300 ns).
func BenchmarkValidateRead(b *testing.B) {
	params := readLikeParams()
	args := vArgs(b, `{"file_path":"/home/user/project/main.go","offset":100,"limit":200}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Validate(params, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateReadFloats validates the same call decoded by a caller's
// own json.Unmarshal, numbers as float64: the integers are normalised, so
// the arguments are copied.
func BenchmarkValidateReadFloats(b *testing.B) {
	params := readLikeParams()
	args := Args{"file_path": "/home/user/project/main.go", "offset": 100.0, "limit": 200.0}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Validate(params, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateNested validates a MultiEdit-like call with two edits.
func BenchmarkValidateNested(b *testing.B) {
	params := editParams()
	args := vArgs(b, `{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","count":2}]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Validate(params, args); err != nil {
			b.Fatal(err)
		}
	}
}

// A good call whose values are already in their final form is not copied;
// the first value that has to change (a default, a normalised number, a
// dropped null) makes a copy that keeps the values checked before it.
func TestValidateCopiesOnlyOnChange(t *testing.T) {
	three := 3
	params := []Parameter{
		{Name: "path", Type: TypeString, Required: true},
		{Name: "n", Type: TypeInteger},
		{Name: "limit", Type: TypeInteger, Default: 10},
		{Name: "items", Type: TypeArray, Items: &Parameter{Type: TypeObject, Properties: []Parameter{
			{Name: "k", Type: TypeString, Required: true},
			{Name: "w", Type: TypeNumber},
		}}},
		{Name: "max", Type: TypeInteger, Maximum: Float(5), Default: three},
	}
	item := map[string]any{"k": "a", "w": 1.5}
	cases := []struct {
		name    string
		args    Args
		shared  bool // the result is args itself
		want    Args
		itemSet bool // want["items"][0] is the very map item
	}{
		{"all final", Args{"path": "/a", "n": 1, "limit": 2, "items": []any{item}, "max": 4}, true,
			Args{"path": "/a", "n": 1, "limit": 2, "items": []any{item}, "max": 4}, true},
		{"default added", Args{"path": "/a", "n": 1, "max": 4}, false,
			Args{"path": "/a", "n": 1, "limit": 10, "max": 4}, false},
		{"number normalised after good ones", Args{"path": "/a", "n": json.Number("7"), "limit": 2, "max": 1}, false,
			Args{"path": "/a", "n": 7, "limit": 2, "max": 1}, false},
		{"null dropped", Args{"path": "/a", "n": nil, "limit": 2, "max": 1}, false,
			Args{"path": "/a", "limit": 2, "max": 1}, false},
		{"nested change copies the parents", Args{"path": "/a", "limit": 2, "max": 1, "items": []any{item, map[string]any{"k": "b", "w": 2}}}, false,
			Args{"path": "/a", "limit": 2, "max": 1, "items": []any{item, map[string]any{"k": "b", "w": 2.0}}}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := fmt.Sprintf("%#v", c.args)
			out, err := Validate(params, c.args)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(out, c.want) {
				t.Fatalf("got %#v, want %#v", out, c.want)
			}
			if got := reflect.ValueOf(out).Pointer() == reflect.ValueOf(c.args).Pointer(); got != c.shared {
				t.Errorf("result is args itself: %v, want %v", got, c.shared)
			}
			if items, ok := out["items"].([]any); ok && c.itemSet {
				if reflect.ValueOf(items[0]).Pointer() != reflect.ValueOf(item).Pointer() {
					t.Error("an unchanged nested object was copied")
				}
			}
			if after := fmt.Sprintf("%#v", c.args); after != before {
				t.Errorf("args modified:\n%s\n%s", before, after)
			}
		})
	}
}

// A call without arguments still gives the tool a map (MCP servers, for
// one, refuse a null arguments object).
func TestValidateNilArgsGiveAMap(t *testing.T) {
	for _, params := range [][]Parameter{nil, {{Name: "q", Type: TypeString}}} {
		out, err := Validate(params, nil)
		if err != nil || out == nil {
			t.Errorf("Validate(%v, nil) = %#v, %v; want an empty map", params, out, err)
		}
	}
}
