package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEncodeJSONEscapesControls(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"plain", "hello", `"hello"`},
		{"NEL", "a\u0085b", `"a\u0085b"`},
		{"CSI and OSC", "\u009b31m\u009d0;x\u009c", `"\u009b31m\u009d0;x\u009c"`},
		{"C1 bounds", "\u0080\u009f", `"\u0080\u009f"`},
		{"DEL", "a\x7fb", `"a\u007fb"`},
		{"ESC stays escaped", "\x1b[2J", `"\u001b[2J"`},
		{"not C1", "\u00a0é\u00c2\u0100 ✓", "\"\u00a0é\u00c2\u0100 ✓\""},
		{"keys too", map[string]string{"k\u0085": "v"}, `{"k\u0085":"v"}`},
		{"raw message", json.RawMessage("{\"d\":\"x\u009by\"}"), `{"d":"x\u009by"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := EncodeJSON(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if s := strings.TrimSuffix(string(got), "\n"); s != tt.want {
				t.Errorf("EncodeJSON = %s, want %s", s, tt.want)
			}
			got, err = marshal(tt.in, "  ")
			if err != nil {
				t.Fatal(err)
			}
			if hasRawControl(got) {
				t.Errorf("marshal left a raw control: %q", got)
			}
		})
	}
}

// hasRawControl reports whether b holds DEL or a C1 control as UTF-8.
func hasRawControl(b []byte) bool {
	for _, r := range string(b) {
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) {
			return true
		}
	}
	return false
}

// Whatever a string holds, its JSON has no raw control character and
// decodes back to the same string.
func FuzzEncodeJSONControls(f *testing.F) {
	for _, s := range []string{"", "a\u0085b", "\u009b31m", "\xc2\x9b", "\xc2", "\x7f\u0080\u009f\u00a0", "\xc2\xc2\x85", "ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := EncodeJSON(map[string]any{"s": s, s: []string{s}})
		if err != nil {
			t.Fatal(err)
		}
		if hasRawControl(got) {
			t.Fatalf("raw control in %q", got)
		}
		var back map[string]any
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("not JSON: %v: %q", err, got)
		}
		want, _ := json.Marshal(map[string]any{"s": s, s: []string{s}})
		var ref map[string]any
		_ = json.Unmarshal(want, &ref)
		a, _ := json.Marshal(back)
		b, _ := json.Marshal(ref)
		if !bytes.Equal(a, b) {
			t.Fatalf("decodes to %s, want %s", a, b)
		}
	})
}
