package tools

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzIndentSchema: never panics; whatever it prints is the same JSON.
func FuzzIndentSchema(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,"x",{"b":[]}],"c":null}`, `"s"`, `1e5`, `{"a":`, `[1,2]x`, `{"<&>":"\u2028"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := IndentSchema(src, "  ")
		if err != nil {
			return
		}
		var want, got bytes.Buffer
		if err := json.Compact(&want, src); err != nil {
			t.Fatalf("accepted invalid JSON %q", src)
		}
		if err := json.Compact(&got, out); err != nil {
			t.Fatalf("printed invalid JSON %q from %q", out, src)
		}
		var a, b any
		_ = json.Unmarshal(want.Bytes(), &a)
		_ = json.Unmarshal(got.Bytes(), &b)
		wa, _ := json.Marshal(a)
		wb, _ := json.Marshal(b)
		if !bytes.Equal(wa, wb) {
			t.Fatalf("changed the value:\n%s\n%s", want.Bytes(), got.Bytes())
		}
	})
}
