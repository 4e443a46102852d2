package llm

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestParseToolCalls(t *testing.T) {
	type call struct{ id, name, args string }
	cases := []struct {
		name  string
		text  string
		calls []call
		err   string // substring of the joined error; "" = no error
	}{
		{"a block among text", "I will multiply.\n<tool>\n{\n  \"server_name\": \"local\",\n  \"tool_name\": \"calculator\",\n  \"arguments\": {\n    \"operation\": \"multiply\",\n    \"a\": 15,\n    \"b\": 23\n  }\n}\n</tool>\nDone.",
			[]call{{"call_1", "calculator", `{"operation":"multiply","a":15,"b":23}`}}, ""},
		{"no blocks", "just text, no calls", nil, ""},
		{"several blocks with text between",
			`a <tool>{"tool_name":"Read","arguments":{"file_path":"/a"}}</tool> b <tool> {"tool_name":"Glob"} </tool>c`,
			[]call{{"call_1", "Read", `{"file_path":"/a"}`}, {"call_2", "Glob", `{}`}}, ""},
		{"null arguments", `<tool>{"tool_name":"X","arguments":null}</tool>`, []call{{"call_1", "X", `{}`}}, ""},
		{"closing tag inside a string", `<tool>{"tool_name":"Write","arguments":{"content":"a </tool> b"}}</tool>`,
			[]call{{"call_1", "Write", `{"content":"a </tool> b"}`}}, ""},
		{"invalid JSON keeps the good ones", `<tool>{"tool_name":"A"}</tool><tool>{"tool_name": </tool><tool>{"tool_name":"C"}</tool>`,
			[]call{{"call_1", "A", `{}`}, {"call_3", "C", `{}`}}, "tool call 2: invalid JSON: unexpected end of JSON input"},
		{"other server", `<tool>{"server_name":"x","tool_name":"A"}</tool>`, nil, `tool call 1: server "x" is not supported: only "local"`},
		{"missing tool_name", `<tool>{"arguments":{}}</tool>`, nil, `tool call 1: missing "tool_name"`},
		{"tool_name not a string", `<tool>{"tool_name":5}</tool>`, nil, `tool call 1: invalid JSON: "tool_name" must not be a JSON number`},
		{"arguments not an object", `<tool>{"tool_name":"A","arguments":[1]}</tool>`, nil, `tool call 1: "arguments" must be a JSON object`},
		{"not an object", `<tool>["A"]</tool>`, nil, "tool call 1: invalid JSON: a tool call must be a JSON object"},
		{"empty block", `<tool>  </tool>`, nil, "tool call 1: empty <tool> block"},
		{"text after the JSON", `<tool>{"tool_name":"A"} and more</tool>`, nil, "tool call 1: invalid JSON: invalid character 'a' after top-level value"},
		{"unterminated", `<tool>{"tool_name":"A"}`, nil, "tool call 1: unterminated <tool> block: missing </tool>"},
		{"unterminated after a good one", `<tool>{"tool_name":"A"}</tool> then <tool>{"tool_name":`, []call{{"call_1", "A", `{}`}}, "tool call 2: unterminated <tool> block"},
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
				if got[i].ID != w.id || got[i].Name != w.name || compact(t, string(got[i].Arguments)) != w.args {
					t.Errorf("call %d = %+v %s, want %s %s %s", i, got[i], got[i].Arguments, w.id, w.name, w.args)
				}
			}
		})
	}
}

func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("not JSON: %s", s)
	}
	return b.String()
}

func FuzzParseToolCalls(f *testing.F) {
	for _, s := range []string{
		"", "<tool>", "</tool>", `<tool>{"tool_name":"A","arguments":{"x":1}}</tool>`,
		`x<tool> {"server_name":"local","tool_name":"B"} </tool>y<tool>{"tool_name":`,
		`<tool>{"tool_name":"W","arguments":{"c":"</tool>"}}</tool>`, `<tool>[1,2]</tool><tool>null</tool>`,
		`<tool><tool>{"tool_name":"A"}</tool></tool>`, "<tool>{\"tool_name\":\"\xff\"}</tool>",
		`<tool>{"tool_name":"A"}</tool><tool>{"tool_name":"A"}</tool><tool>{"tool_name":"A","arguments":{}}</tool>`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		calls, err := ParseToolCalls(text)
		ids := map[string]bool{}
		for _, c := range calls {
			if c.Name == "" || !strings.HasPrefix(c.ID, "call_") || ids[c.ID] {
				t.Fatalf("bad call %+v", c)
			}
			ids[c.ID] = true
			var m map[string]any
			if err := json.Unmarshal(c.Arguments, &m); err != nil || m == nil {
				t.Fatalf("arguments not an object: %s", c.Arguments)
			}
		}
		if len(calls) == 0 && err == nil && strings.Contains(text, "<tool>") {
			t.Fatalf("a <tool> block gave neither a call nor an error: %q", text)
		}
		if err != nil && strings.Contains(err.Error(), "\n") && !strings.Contains(text, "\n") {
			// errors.Join separates blocks' errors with newlines; one
			// block's own error is one line.
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "tool call ") {
					t.Fatalf("error line %q does not name its block", line)
				}
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

func TestTextToolPrompt(t *testing.T) {
	if got := TextToolPrompt(nil); got != "" {
		t.Errorf("no tools: %q", got)
	}
	specs := []ToolSpec{
		{Name: "Read", Description: "Reads a file.", InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"file_path": {"type": "string"}, "limit": {"type": "integer"}},
			"required": ["file_path"]}`)},
		{Name: "Clock", Description: "Tells the time."},
	}
	p := TextToolPrompt(specs)
	for _, want := range []string{
		"## Read\nReads a file.\nArguments: {\"type\":\"object\",\"properties\":{\"file_path\":{\"type\":\"string\"},\"limit\":{\"type\":\"integer\"}},\"required\":[\"file_path\"]}\n",
		"## Clock\nTells the time.\nArguments: {\"type\":\"object\"}\n",
		"<tool>\n{\"server_name\":\"local\",\"tool_name\":\"Read\",\"arguments\":{\"file_path\":\"...\"}}\n</tool>",
		"<tool_result", "is_error=\"true\"",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q:\n%s", want, p)
		}
	}
	// The example in the prompt is itself a call the parser accepts.
	calls, err := ParseToolCalls(p)
	if err != nil || len(calls) != 1 || calls[0].Name != "Read" {
		t.Errorf("the prompt's example does not parse: %v %+v", err, calls)
	}
}

func TestFormatTextToolResults(t *testing.T) {
	got := FormatTextToolResults([]ToolResult{
		{CallID: "call_1", Name: "Read", Content: "line 1\nline 2\n"},
		{CallID: "call_2", Name: "Bash", Content: "exit status 1", IsError: true},
	})
	want := `<tool_result tool_name="Read" call_id="call_1">
line 1
line 2
</tool_result>

<tool_result tool_name="Bash" call_id="call_2" is_error="true">
exit status 1
</tool_result>
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if FormatTextToolResults(nil) != "" {
		t.Error("no results should give no text")
	}
}
