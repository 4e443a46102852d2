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
