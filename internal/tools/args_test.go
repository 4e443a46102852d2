package tools

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestArgsAccessors(t *testing.T) {
	a := Args{
		"s": "text", "b": true, "i": 7, "i64": int64(8), "f": 2.5, "jn": json.Number("9"), "jf": json.Number("1.5"),
		"big": json.Number("1e400"), "list": []any{"x", 1, "y"}, "m": map[string]any{"k": "v"},
	}
	if !a.Has("s") || a.Has("nope") || a.String("s") != "text" || a.String("i") != "" || !a.Bool("b") || a.Bool("s") {
		t.Error("string/bool accessors")
	}
	ints := map[string]int{"i": 7, "i64": 8, "f": 2, "jn": 9, "jf": 1, "big": 0, "s": 0, "nope": 0}
	for k, want := range ints {
		if got := a.Int(k); got != want {
			t.Errorf("Int(%s) = %d, want %d", k, got, want)
		}
	}
	floats := map[string]float64{"i": 7, "i64": 8, "f": 2.5, "jn": 9, "jf": 1.5, "s": 0}
	for k, want := range floats {
		if got := a.Float(k); got != want {
			t.Errorf("Float(%s) = %g, want %g", k, got, want)
		}
	}
	if len(a.Slice("list")) != 3 || a.Slice("s") != nil {
		t.Error("Slice")
	}
	if got := a.Strings("list"); !reflect.DeepEqual(got, []string{"x", "y"}) {
		t.Errorf("Strings = %v", got)
	}
	if a.Map("m")["k"] != "v" || a.Map("s") != nil {
		t.Error("Map")
	}
}

func TestTagValues(t *testing.T) {
	type in struct {
		Tags  []string          `json:"tags" default:"[\"a\",\"b\"]" enum:"a,b,c"`
		Opts  map[string]string `json:"opts" default:"{\"k\":\"v\"}"`
		Ratio float32           `json:"ratio" default:"0.25" enum:"0.25,0.5"`
		On    bool              `json:"on" default:"true"`
		Bad   []int             `json:"bad,omitempty"`
	}
	p, err := newDeriver().structParams(reflect.TypeFor[in]())
	if err != nil {
		t.Fatal(err)
	}
	got := string(ParametersSchema(p))
	want := `{"type":"object","properties":{"tags":{"type":"array","default":["a","b"],"items":{"type":"string","enum":["a","b","c"]}},` +
		`"opts":{"type":"object","default":{"k":"v"}},"ratio":{"type":"number","default":0.25,"enum":[0.25,0.5]},` +
		`"on":{"type":"boolean","default":true},"bad":{"type":"array","items":{"type":"integer"}}},"required":[]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	out, verr := Validate(p, Args{})
	if verr != nil || !reflect.DeepEqual(out["tags"], []any{"a", "b"}) || out["on"] != true || out["ratio"] != 0.25 {
		t.Errorf("defaults: %v %#v", verr, out)
	}
	type badJSON struct {
		Tags []string `json:"tags" default:"[oops"`
	}
	if _, err := newDeriver().structParams(reflect.TypeFor[badJSON]()); err == nil {
		t.Error("bad JSON default accepted")
	}
	type badFloat struct {
		F float64 `json:"f" default:"x"`
	}
	if _, err := newDeriver().structParams(reflect.TypeFor[badFloat]()); err == nil {
		t.Error("bad float default accepted")
	}
}

func TestWriteValueUnencodable(t *testing.T) {
	p := Parameter{Name: "c", Type: TypeString, Default: make(chan int)}
	if got := string(p.JSONSchema()); got != `{"type":"string","default":null}` {
		t.Errorf("got %s", got)
	}
}

func TestCloneAndEqual(t *testing.T) {
	src := []string{"a"}
	c := cloneValue(src).([]any)
	c[0] = "b"
	if src[0] != "a" {
		t.Error("clone shares")
	}
	if m := cloneValue(map[string]int{"a": 1}).(map[string]any); m["a"] != 1 {
		t.Error("map clone")
	}
	cases := []struct {
		a, b any
		eq   bool
	}{
		{1, 1.0, true}, {"a", "a", true}, {"a", 1, false}, {nil, nil, true}, {true, false, false},
		{[]any{1}, []any{1, 2}, false}, {[]any{1}, "x", false}, {map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{map[string]any{"a": 1}, []any{}, false}, {struct{ X int }{1}, struct{ X int }{1}, true},
	}
	for _, c := range cases {
		if got := jsonEqual(c.a, c.b); got != c.eq {
			t.Errorf("jsonEqual(%v, %v) = %v", c.a, c.b, got)
		}
	}
}
