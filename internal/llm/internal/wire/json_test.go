package wire

import (
	"bytes"
	"encoding/json"
	"testing"
)

// stdString is s as encoding/json writes it with HTML escaping off.
func stdString(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "tab\t nl\n cr\r ff\f bs\b quote\" back\\ nul\x00 us\x1f del\x7f",
		"<html>&amp;", "é 日本 😀", "\u2028\u2029", "bad\xff\xfe\xc3", "\xed\xa0\x80 surrogate", "\xf4\x90\x80\x80 past U+10FFFF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := AppendString([]byte("x"), s)
		if want := append([]byte("x"), stdString(t, s)...); !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", s, got, want)
		}
	})
}

func TestAppendSchema(t *testing.T) {
	cases := []struct{ in, out string }{
		{"", `{"type":"object","properties":{}}`},
		{" \n\t", `{"type":"object","properties":{}}`},
		{" {\n \"type\": \"object\", \"maximum\": 10000000000000001 }\n", `{"type":"object","maximum":10000000000000001}`},
		{`{"description":"<a> & b"}`, `{"description":"<a> & b"}`},
	}
	for _, c := range cases {
		got, err := AppendSchema([]byte("x"), []byte(c.in))
		if err != nil || string(got) != "x"+c.out {
			t.Errorf("%q: %s %v", c.in, got, err)
		}
	}
	for _, bad := range []string{`[1]`, `"s"`, `{"type":`, `{} {}`, `{"a":1}x`} {
		if got, err := AppendSchema([]byte("x"), []byte(bad)); err == nil || string(got) != "x" {
			t.Errorf("%q: %s %v", bad, got, err)
		}
	}
}
