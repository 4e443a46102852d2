package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestParseToolCalls(t *testing.T) {
	type call struct{ name, args string }
	cases := []struct {
		name  string
		text  string
		calls []call
		err   string // substring of the joined error; "" = no error
	}{
		{"seed 004 example", "I will multiply.\n<tool>\n{\n  \"server_name\": \"local\",\n  \"tool_name\": \"calculator\",\n  \"arguments\": {\n    \"operation\": \"multiply\",\n    \"a\": 15,\n    \"b\": 23\n  }\n}\n</tool>\nDone.",
			[]call{{"calculator", `{"operation":"multiply","a":15,"b":23}`}}, ""},
		{"no blocks", "just text, no calls", nil, ""},
		{"several blocks with text between",
			`a <tool>{"tool_name":"Read","arguments":{"file_path":"/a"}}</tool> b <tool> {"tool_name":"Glob"} </tool>c`,
			[]call{{"Read", `{"file_path":"/a"}`}, {"Glob", `{}`}}, ""},
		{"null arguments", `<tool>{"tool_name":"X","arguments":null}</tool>`, []call{{"X", `{}`}}, ""},
		{"closing tag inside a string", `<tool>{"tool_name":"Write","arguments":{"content":"a </tool> b"}}</tool>`,
			[]call{{"Write", `{"content":"a </tool> b"}`}}, ""},
		{"invalid JSON keeps the good ones", `<tool>{"tool_name":"A"}</tool><tool>{"tool_name": </tool><tool>{"tool_name":"C"}</tool>`,
			[]call{{"A", `{}`}, {"C", `{}`}}, "tool call 2: invalid JSON: unexpected end of JSON input"},
		{"other server", `<tool>{"server_name":"x","tool_name":"A"}</tool>`, nil, `tool call 1: server "x" is not supported: only "local"`},
		{"missing tool_name", `<tool>{"arguments":{}}</tool>`, nil, `tool call 1: missing "tool_name"`},
		{"tool_name not a string", `<tool>{"tool_name":5}</tool>`, nil, `tool call 1: invalid JSON: "tool_name" must not be a JSON number`},
		{"arguments not an object", `<tool>{"tool_name":"A","arguments":[1]}</tool>`, nil, `tool call 1: "arguments" must be a JSON object`},
		{"not an object", `<tool>["A"]</tool>`, nil, "tool call 1: invalid JSON: a tool call must be a JSON object"},
		{"empty block", `<tool>  </tool>`, nil, "tool call 1: empty <tool> block"},
		{"text after the JSON", `<tool>{"tool_name":"A"} and more</tool>`, nil, "tool call 1: invalid JSON: invalid character 'a' after top-level value"},
		{"unterminated", `<tool>{"tool_name":"A"}`, nil, "tool call 1: unterminated <tool> block: missing </tool>"},
		{"unterminated after a good one", `<tool>{"tool_name":"A"}</tool> then <tool>{"tool_name":`, []call{{"A", `{}`}}, "tool call 2: unterminated <tool> block"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseToolCalls(c.text)
			if c.err == "" && err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
				t.Fatalf("error %v, want %q", err, c.err)
			}
			if len(got) != len(c.calls) {
				t.Fatalf("got %d calls %+v, want %d", len(got), got, len(c.calls))
			}
			for i, w := range c.calls {
				if got[i].Name != w.name || compact(t, string(got[i].Arguments)) != w.args || got[i].Server != LocalServer {
					t.Errorf("call %d = %+v %s, want %s %s", i, got[i], got[i].Arguments, w.name, w.args)
				}
			}
		})
	}
}

func TestParseOpenAIToolCalls(t *testing.T) {
	msg := `{"role":"assistant","content":null,"tool_calls":[
		{"id":"call_1","type":"function","function":{"name":"Read","arguments":"{\"file_path\":\"/a\",\"limit\":5}"}},
		{"id":"call_2","type":"function","function":{"name":"Glob","arguments":""}},
		{"id":"call_3","type":"function","function":{"name":"Bash","arguments":{"command":"ls"}}}]}`
	for _, data := range []string{msg, `{"choices":[{"index":0,"message":` + msg + `}]}`} {
		calls, err := ParseOpenAIToolCalls([]byte(data))
		if err != nil || len(calls) != 3 {
			t.Fatalf("%v %+v", err, calls)
		}
		if calls[0].ID != "call_1" || calls[0].Name != "Read" || string(calls[0].Arguments) != `{"file_path":"/a","limit":5}` {
			t.Errorf("call 1: %+v %s", calls[0], calls[0].Arguments)
		}
		if string(calls[1].Arguments) != `{}` || string(calls[2].Arguments) != `{"command":"ls"}` {
			t.Errorf("args: %s %s", calls[1].Arguments, calls[2].Arguments)
		}
	}
	bare := `[{"id":"c","type":"function","function":{"name":"A","arguments":"{}"}}]`
	if calls, err := ParseOpenAIToolCalls([]byte(bare)); err != nil || len(calls) != 1 || calls[0].Name != "A" {
		t.Errorf("bare: %v %+v", err, calls)
	}
	single := `{"id":"c","type":"function","function":{"name":"A","arguments":"{}"}}`
	if calls, err := ParseOpenAIToolCalls([]byte(single)); err != nil || len(calls) != 1 {
		t.Errorf("single: %v %+v", err, calls)
	}
	if calls, err := ParseOpenAIToolCalls([]byte(`{"role":"assistant","content":"hi"}`)); err != nil || len(calls) != 0 {
		t.Errorf("no calls: %v %+v", err, calls)
	}
	bad := []struct{ data, want string }{
		{`[{"type":"function","function":{"name":"A","arguments":"{bad"}}]`, "tool call 1: invalid JSON in arguments"},
		{`[{"type":"function","function":{"name":"A","arguments":"[1]"}}]`, `tool call 1: "arguments" must be a JSON object`},
		{`[{"type":"custom","function":{"name":"A"}}]`, `tool call 1: unsupported type "custom"`},
		{`[{"ok":1},{"type":"function"}]`, `tool call 1: missing "function.name"`},
		{`[{"type":"function","function":{"name":"A","arguments":5}}]`, `"arguments" must be a JSON object`},
		{`[1]`, "tool call 1: invalid JSON: a tool call must be a JSON object"},
		{`[1`, "invalid JSON"},
		{`"x"`, "invalid JSON"},
		{`{"tool_calls":5}`, "invalid JSON"},
		{`[{"type":"function","function":{"name":"A","arguments":"\u0000\"x"}}]`, "invalid JSON in arguments"},
	}
	for _, b := range bad {
		if _, err := ParseOpenAIToolCalls([]byte(b.data)); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: got %v, want %q", b.data, err, b.want)
		}
	}
}

func TestParseAnthropicToolUse(t *testing.T) {
	msg := `{"role":"assistant","content":[
		{"type":"text","text":"Let me read it."},
		{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a"}},
		{"type":"tool_use","id":"toolu_2","name":"Glob"}]}`
	calls, err := ParseAnthropicToolUse([]byte(msg))
	if err != nil || len(calls) != 2 {
		t.Fatalf("%v %+v", err, calls)
	}
	if calls[0].ID != "toolu_1" || calls[0].Name != "Read" || string(calls[0].Arguments) != `{"file_path":"/a"}` || string(calls[1].Arguments) != "{}" {
		t.Errorf("%+v", calls)
	}
	if calls, err := ParseAnthropicToolUse([]byte(`[{"type":"tool_use","id":"t","name":"A","input":{}}]`)); err != nil || len(calls) != 1 {
		t.Errorf("bare: %v %+v", err, calls)
	}
	if calls, err := ParseAnthropicToolUse([]byte(`{"type":"tool_use","id":"t","name":"A","input":{"x":1}}`)); err != nil || len(calls) != 1 {
		t.Errorf("single: %v %+v", err, calls)
	}
	if calls, err := ParseAnthropicToolUse([]byte(`{"role":"assistant","content":"plain text"}`)); err != nil || len(calls) != 0 {
		t.Errorf("string content: %v %+v", err, calls)
	}
	bad := []struct{ data, want string }{
		{`[{"type":"tool_use","id":"t","input":{}}]`, `tool call 1: missing "name"`},
		{`[{"type":"tool_use","name":"A","input":"x"}]`, `tool call 1: "input" must be a JSON object`},
		{`[5]`, "tool call 1: invalid JSON"},
		{`[`, "invalid JSON"},
		{`{"content":[1}`, "invalid JSON"},
		{`{"content":[5]}`, "tool call 1: invalid JSON"},
	}
	for _, b := range bad {
		if _, err := ParseAnthropicToolUse([]byte(b.data)); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: got %v, want %q", b.data, err, b.want)
		}
	}
}

func FuzzParseToolCalls(f *testing.F) {
	for _, s := range []string{
		"", "<tool>", "</tool>", `<tool>{"tool_name":"A","arguments":{"x":1}}</tool>`,
		`x<tool> {"server_name":"local","tool_name":"B"} </tool>y<tool>{"tool_name":`,
		`<tool>{"tool_name":"W","arguments":{"c":"</tool>"}}</tool>`, `<tool>[1,2]</tool><tool>null</tool>`,
		`<tool><tool>{"tool_name":"A"}</tool></tool>`, "<tool>{\"tool_name\":\"\xff\"}</tool>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		calls, _ := ParseToolCalls(text)
		for _, c := range calls {
			if c.Name == "" || c.Server != LocalServer {
				t.Fatalf("bad call %+v", c)
			}
			var m map[string]any
			if err := json.Unmarshal(c.Arguments, &m); err != nil || m == nil {
				t.Fatalf("arguments not an object: %s", c.Arguments)
			}
		}
	})
}

func FuzzParseOpenAIToolCalls(f *testing.F) {
	f.Add([]byte(`{"tool_calls":[{"id":"c","type":"function","function":{"name":"A","arguments":"{\"x\":1}"}}]}`))
	f.Add([]byte(`{"choices":[{"message":{"tool_calls":[]}}]}`))
	f.Add([]byte(`[{"function":{"name":"A","arguments":{}}}]`))
	f.Add([]byte(`{"choices":[{"message":{"choices":[]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, _ := ParseOpenAIToolCalls(data)
		for _, c := range calls {
			if c.Name == "" || !json.Valid(c.Arguments) {
				t.Fatalf("bad call %+v", c)
			}
		}
	})
}

func FuzzParseAnthropicToolUse(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"x"},{"type":"tool_use","id":"t","name":"A","input":{"x":1}}]}`))
	f.Add([]byte(`[{"type":"tool_use","name":"A"}]`))
	f.Add([]byte(`{"type":"tool_use","name":"A","input":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		calls, _ := ParseAnthropicToolUse(data)
		for _, c := range calls {
			if c.Name == "" || !json.Valid(c.Arguments) {
				t.Fatalf("bad call %+v", c)
			}
		}
	})
}

// BenchmarkParseToolCalls parses a typical answer: text and two calls.
func BenchmarkParseToolCalls(b *testing.B) {
	text := "I'll read the file and search it.\n<tool>\n{\"server_name\":\"local\",\"tool_name\":\"Read\",\"arguments\":{\"file_path\":\"/home/user/main.go\",\"limit\":50}}\n</tool>\n" +
		"<tool>{\"server_name\":\"local\",\"tool_name\":\"Grep\",\"arguments\":{\"pattern\":\"func main\",\"path\":\"/home/user\"}}</tool>\nDone."
	b.ReportAllocs()
	for b.Loop() {
		if calls, err := ParseToolCalls(text); err != nil || len(calls) != 2 {
			b.Fatal(err)
		}
	}
}
