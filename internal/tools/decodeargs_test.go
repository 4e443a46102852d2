package tools

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		in   string
		want Args
		err  string
	}{
		{"", Args{}, ""},
		{"  \n", Args{}, ""},
		{"null", Args{}, ""},
		{" null ", Args{}, ""},
		{"{}", Args{}, ""},
		{`{"limit": 42, "ratio": 4.2, "path": "/x", "deep": {"n": 1}, "list": [1, "a"]}`, Args{
			"limit": json.Number("42"), "ratio": json.Number("4.2"), "path": "/x",
			"deep": map[string]any{"n": json.Number("1")}, "list": []any{json.Number("1"), "a"},
		}, ""},
		{`[1, 2]`, nil, "Invalid JSON arguments: expected an object, got an array"},
		{`"text"`, nil, "Invalid JSON arguments: expected an object, got a string"},
		{`42`, nil, "Invalid JSON arguments: expected an object, got a number"},
		{`-1`, nil, "Invalid JSON arguments: expected an object, got a number"},
		{`true`, nil, "Invalid JSON arguments: expected an object, got a boolean"},
		{`{"a": 1} {"b": 2}`, nil, "Invalid JSON arguments: unexpected data after the object (at byte"},
		{`{"a": 1}x`, nil, "Invalid JSON arguments: "},
		{`{"a": 1`, nil, "Invalid JSON arguments: unexpected end of input"},
		{`{"a" 1}`, nil, "Invalid JSON arguments: invalid character '1' after object key (at byte"},
		{`{'a': 1}`, nil, "Invalid JSON arguments: invalid character '\\'' looking for beginning of object key string"},
		{`nul`, nil, "Invalid JSON arguments: "},
		{`{"a": 1e999}`, Args{"a": json.Number("1e999")}, ""},
	}
	for _, tc := range tests {
		got, err := DecodeArgs([]byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("DecodeArgs(%q) error = %v, want prefix %q", tc.in, err, tc.err)
			}
			if got != nil {
				t.Errorf("DecodeArgs(%q) = %v with an error", tc.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DecodeArgs(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
}

// FuzzDecodeArgs checks that DecodeArgs never panics, that it accepts
// exactly the JSON objects (and null and nothing), and that every error has
// the contract prefix.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{"", "null", "{}", `{"a":1}`, `{"a":[1,{"b":"c"}]}`, `[1]`, `{"a":1}{}`, `{"a":`, "\xff", `{"a":"\u00e9"}`, "\u00a0{}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := DecodeArgs(raw)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Invalid JSON arguments: ") {
				t.Fatalf("error %q lacks the prefix", err)
			}
			if args != nil {
				t.Fatal("args with an error")
			}
			return
		}
		if args == nil {
			t.Fatal("nil args without an error")
		}
		trimmed := strings.Trim(string(raw), " \t\r\n")
		if trimmed != "" && trimmed != "null" {
			var m map[string]any
			if json.Unmarshal(raw, &m) != nil {
				t.Fatalf("accepted %q, which encoding/json refuses as an object", raw)
			}
		}
	})
}
