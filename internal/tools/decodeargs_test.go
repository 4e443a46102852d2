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
			"limit": 42, "ratio": json.Number("4.2"), "path": "/x",
			"deep": map[string]any{"n": 1}, "list": []any{1, "a"},
		}, ""},
		// Only plain integers that fit become int; the rest keep their text.
		{`{"a": -7, "b": -0, "c": 42.0, "d": 1e2, "e": 2147483647, "f": 9223372036854775808, "g": [[3], {"h": [4.5]}]}`, Args{
			"a": -7, "b": json.Number("-0"), "c": json.Number("42.0"), "d": json.Number("1e2"), "e": 2147483647,
			"f": json.Number("9223372036854775808"), "g": []any{[]any{3}, map[string]any{"h": []any{json.Number("4.5")}}},
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
// exactly the JSON objects (and null and nothing), that every error has
// the contract prefix, and that turning integers into ints changes no
// number's text.
func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{"", "null", "{}", `{"a":1}`, `{"a":[1,{"b":"c"}]}`, `[1]`, `{"a":1}{}`, `{"a":`, "\xff", `{"a":"\u00e9"}`, "\u00a0{}", `{"n":[-0,7,1e2,9223372036854775808,{"m":-12}]}`} {
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
			dec := json.NewDecoder(strings.NewReader(trimmed))
			dec.UseNumber()
			if dec.Decode(&m) != nil {
				t.Fatalf("accepted %q, which encoding/json refuses as an object", raw)
			}
			want, _ := json.Marshal(m)
			got, _ := json.Marshal(args)
			if string(got) != string(want) {
				t.Fatalf("numbers changed:\n got %s\nwant %s", got, want)
			}
		}
	})
}

// BenchmarkDecodeArgsRead decodes a Read-like call.
func BenchmarkDecodeArgsRead(b *testing.B) {
	raw := []byte(`{"file_path":"/home/user/project/main.go","offset":100,"limit":200}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeArgs(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func TestDecodeValueAgreesWithDecodeArgs(t *testing.T) {
	values := []string{`42`, `-7`, `3.14`, `1e2`, `42.0`, `-0`, `18446744073709551616`, `"x"`, `true`, `null`,
		`[1, 2.5, {"a": 3}]`, `{"k": [1]}`}
	for _, v := range values {
		got, err := DecodeValue([]byte(v))
		if err != nil {
			t.Fatalf("DecodeValue(%s): %v", v, err)
		}
		args, err := DecodeArgs([]byte(`{"v": ` + v + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, args["v"]) {
			t.Errorf("DecodeValue(%s) = %#v, DecodeArgs gives %#v", v, got, args["v"])
		}
	}
	for _, bad := range []string{``, `{`, `1 2`, `"a" x`} {
		if _, err := DecodeValue([]byte(bad)); err == nil {
			t.Errorf("DecodeValue(%q) accepted", bad)
		}
	}
}

func TestParseNumber(t *testing.T) {
	good := map[string]any{"42": 42, "-7": -7, "3.14": json.Number("3.14"), "1e3": json.Number("1e3"),
		"-0": json.Number("-0"), "99999999999999999999": json.Number("99999999999999999999")}
	for s, want := range good {
		got, ok := ParseNumber(s)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("ParseNumber(%q) = %#v, %v; want %#v", s, got, ok, want)
		}
	}
	for _, s := range []string{"", " 1", "1 ", "0x10", "1_000", "01", "+1", "1.", ".5", "NaN", "true", `"1"`, "[1]"} {
		if v, ok := ParseNumber(s); ok {
			t.Errorf("ParseNumber(%q) = %#v, want not a number", s, v)
		}
	}
}
