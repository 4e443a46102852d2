package cfg

import (
	"encoding/json"
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	cases := []struct {
		v    any
		want time.Duration
		ok   bool
	}{
		{"30s", 30 * time.Second, true},
		{"1m30s", 90 * time.Second, true},
		{30, 30 * time.Second, true},
		{1.5, 1500 * time.Millisecond, true},
		{json.Number("2"), 2 * time.Second, true},
		{"2", 2 * time.Second, true},
		{"soon", 0, false},
		{true, 0, false},
	}
	for _, c := range cases {
		got, err := Duration(map[string]any{"Timeout": c.v}, "timeout", time.Hour)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("%#v: got %s, %v", c.v, got, err)
		}
	}
	if got, _ := Duration(nil, "timeout", time.Hour); got != time.Hour {
		t.Errorf("default: %s", got)
	}
}

func TestScalars(t *testing.T) {
	m := map[string]any{"a": "true", "b": false, "n": 5.0, "f": 2.5, "s": "x", "bad": []any{}}
	if v, err := Bool(m, "a", false); !v || err != nil {
		t.Error("Bool string")
	}
	if v, err := Bool(m, "b", true); v || err != nil {
		t.Error("Bool")
	}
	if _, err := Bool(m, "s", false); err == nil {
		t.Error("Bool of x")
	}
	if v, err := Int(m, "n", 0); v != 5 || err != nil {
		t.Error("Int")
	}
	if _, err := Int(m, "f", 0); err == nil {
		t.Error("Int of 2.5")
	}
	if v, _ := Int(m, "missing", 7); v != 7 {
		t.Error("Int default")
	}
	if v, err := String(m, "s", ""); v != "x" || err != nil {
		t.Error("String")
	}
	if _, err := String(m, "bad", ""); err == nil {
		t.Error("String of array")
	}
	if _, err := Float(m, "bad", 0); err == nil {
		t.Error("Float of array")
	}
}

func TestPositiveIntAndStrings(t *testing.T) {
	m := map[string]any{"limit": 5, "zero": 0, "neg": "-2", "frac": 1.5, "roots": []any{"/a", "/b"}, "one": "/c", "bad": []any{"/a", 3}, "num": 7}
	for _, tc := range []struct {
		key     string
		want    int
		wantErr bool
	}{{"limit", 5, false}, {"missing", 9, false}, {"zero", 0, true}, {"neg", 0, true}, {"frac", 0, true}} {
		got, err := PositiveInt(m, tc.key, 9)
		if (err != nil) != tc.wantErr || (!tc.wantErr && got != tc.want) {
			t.Errorf("PositiveInt(%s) = %d, %v", tc.key, got, err)
		}
	}
	if got, err := Strings(m, "roots"); err != nil || len(got) != 2 || got[1] != "/b" {
		t.Errorf("Strings(roots) = %v, %v", got, err)
	}
	if got, err := Strings(m, "one"); err != nil || len(got) != 1 || got[0] != "/c" {
		t.Errorf("Strings(one) = %v, %v", got, err)
	}
	if got, err := Strings(m, "missing"); err != nil || got != nil {
		t.Errorf("Strings(missing) = %v, %v", got, err)
	}
	for _, key := range []string{"bad", "num"} {
		if _, err := Strings(m, key); err == nil {
			t.Errorf("Strings(%s): no error", key)
		}
	}
}
