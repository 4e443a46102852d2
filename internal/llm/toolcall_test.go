package llm

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Whatever arguments a model sends, a call survives being written as
// JSON and read back: JSON stays JSON, anything else is kept as text (or
// as base64 when it is not UTF-8), never an error that would lose the
// message it belongs to.
func TestToolCallJSONKeepsAnyArguments(t *testing.T) {
	for _, tc := range []struct {
		name, args string
		want       string // a fragment of the encoding
	}{
		{"an object", `{"file_path": "go.mod"}`, `"arguments":{"file_path":"go.mod"}`},
		{"cut off", `{"file_path": "go.`, `"raw_arguments":"{\"file_path\": \"go."`},
		{"empty", ``, `"raw_arguments":""`},
		{"blank", `  `, `"raw_arguments":"  "`},
		{"not an object", `[1, 2]`, `"arguments":[1,2]`},
		{"a stray word", `file_path=go.mod`, `"raw_arguments":"file_path=go.mod"`},
		{"not UTF-8", "{\"a\": \"\xff\"}", `"raw_arguments_base64":"eyJhIjogIv8ifQ=="`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			msg := Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "call_1", Name: "Read", Arguments: json.RawMessage(tc.args)}}}
			b, err := json.Marshal(msg)
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("encoded %s, want it to hold %s", b, tc.want)
			}
			var back Message
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("unmarshal %s: %v", b, err)
			}
			got := back.ToolCalls[0]
			if got.ID != "call_1" || got.Name != "Read" || !sameArguments(got.Arguments, json.RawMessage(tc.args)) {
				t.Errorf("read back %+v (arguments %q), want the arguments %q", got, got.Arguments, tc.args)
			}
		})
	}
}

// A record that is damaged where the arguments are is an error, not a
// call with made-up arguments.
func TestToolCallJSONRefusesDamage(t *testing.T) {
	for _, in := range []string{
		`{"id":"c","name":"Read","raw_arguments":"x","raw_arguments_base64":"eA=="}`,
		`{"id":"c","name":"Read","raw_arguments_base64":"%%%"}`,
		`{"id":"c","name":"Read","raw_arguments":5}`,
	} {
		var c ToolCall
		if err := json.Unmarshal([]byte(in), &c); err == nil {
			t.Errorf("%s read as %+v", in, c)
		}
	}
}

// sameArguments compares arguments as a log gives them back: JSON may be
// spelled differently (compacted, "&" as "\u0026") but means the same,
// anything else must be byte for byte.
func sameArguments(got, want json.RawMessage) bool {
	if len(bytes.TrimSpace(want)) > 0 && json.Valid(want) {
		a, b := decodeNumbers(got), decodeNumbers(want)
		return a != nil && reflect.DeepEqual(a, b)
	}
	return bytes.Equal(got, want)
}

// decodeNumbers is b's value, numbers as written; nil when b is not JSON.
func decodeNumbers(b []byte) *any {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return &v
}

func FuzzToolCallJSON(f *testing.F) {
	for _, seed := range []string{`{"a":1}`, `{"a":`, ``, "\xff", `"x"`, `null`, `{"a":"\u00e9"}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		b, err := json.Marshal(ToolCall{ID: "c", Name: "n", Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("marshal %q: %v", args, err)
		}
		var back ToolCall
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("unmarshal %s: %v", b, err)
		}
		if !sameArguments(back.Arguments, json.RawMessage(args)) {
			t.Fatalf("arguments %q came back as %q", args, back.Arguments)
		}
	})
}
