package render

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

func TestFormatDuration(t *testing.T) {
	tests := []struct {
		ms   float64
		want string
	}{
		{12, "12ms"},
		{1543.4, "1543ms"},
		{1543.5, "1544ms"},
		{120000, "120000ms"},
		{0.96, "1ms"},
		{0.4, "0.4ms"},
		{0.05, "0.1ms"},
		{0.049, "<0.1ms"},
		{0, "0ms"},
		{-3, "0ms"},
		{math.NaN(), "0ms"},
		{math.Inf(1), "+Infms"},
	}
	for _, tt := range tests {
		if got := formatDuration(tt.ms); got != tt.want {
			t.Errorf("formatDuration(%v) = %q, want %q", tt.ms, got, tt.want)
		}
	}
}

func TestFormatCountAndSeconds(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567", -1000: "-1,000"} {
		if got := formatCount(n); got != want {
			t.Errorf("formatCount(%d) = %q, want %q", n, got, want)
		}
	}
	for d, want := range map[time.Duration]string{120 * time.Second: "120s", 1500 * time.Millisecond: "1.5s", 0: "0s"} {
		if got := formatSeconds(d); got != want {
			t.Errorf("formatSeconds(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestCompactJSON(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"object sorted", map[string]any{"timeout": json.Number("5000"), "command": "sleep 300"}, `{"command": "sleep 300", "timeout": 5000}`},
		{"args", tools.Args{"a": []any{1, true, nil}}, `{"a": [1, true, null]}`},
		{"no html escaping", "<a&b>", `"<a&b>"`},
		{"float", 1.5, `1.5`},
		{"nan", math.NaN(), `"NaN"`},
		{"struct", struct {
			X int `json:"x"`
		}{3}, `{"x": 3}`},
		{"typed slice", []string{"a", "b"}, `["a", "b"]`},
		{"unmarshalable", make(chan int), `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compactJSON(tt.in)
			if tt.name == "unmarshalable" {
				if !strings.HasPrefix(got, tt.want) {
					t.Errorf("compactJSON = %q", got)
				}
				return
			}
			if got != tt.want {
				t.Errorf("compactJSON = %q, want %q", got, tt.want)
			}
		})
	}
	// A map that contains itself stops at maxDepth instead of recursing forever.
	loop := map[string]any{}
	loop["self"] = loop
	if got := compactJSON(loop); !strings.Contains(got, "…") {
		t.Errorf("cyclic map: %q", got)
	}
}

func TestOrderedKeys(t *testing.T) {
	m := map[string]any{"content": 1, "file_path": 2, "zeta": 3, "alpha": 4}
	got := strings.Join(objectKeys(m, []string{"file_path", "missing", "content"}), ",")
	if got != "file_path,content,alpha,zeta" {
		t.Errorf("objectKeys = %s", got)
	}
}

func TestOutputText(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, ""},
		{"as is\n", "as is\n"},
		{[]byte("bytes"), "bytes"},
		{42, "42"},
		{map[string]any{"b": 1, "a": "<x>"}, "{\n  \"a\": \"<x>\",\n  \"b\": 1\n}"},
		{[]any{"x"}, "[\n  \"x\"\n]"},
	}
	for _, tt := range tests {
		if got := outputText(tt.in); got != tt.want {
			t.Errorf("outputText(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestJSONType(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, "null"}, {"s", "string"}, {true, "boolean"}, {json.Number("3"), "integer"}, {json.Number("3.5"), "number"},
		{7, "integer"}, {2.5, "number"}, {[]any{}, "array"}, {map[string]any{}, "object"}, {[]string{}, "array"},
	}
	for _, tt := range tests {
		if got := jsonType(tt.in); got != tt.want {
			t.Errorf("jsonType(%#v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFirstSentence(t *testing.T) {
	tests := map[string]string{
		"Read contents of a file":             "Read contents of a file",
		"Write content to a file.":            "Write content to a file",
		"Edit a file. Exact matches only.":    "Edit a file",
		"Find files\nSorted by time.":         "Find files",
		"  padded.  ":                         "padded",
		"Version 1.2 is supported. More text": "Version 1.2 is supported",
		"":                                    "",
	}
	for in, want := range tests {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestShorten(t *testing.T) {
	if got := shorten("abc", 5); got != "abc" {
		t.Errorf("shorten kept = %q", got)
	}
	got := shorten(strings.Repeat("é", 1000), 10)
	if !strings.HasPrefix(got, strings.Repeat("é", 10)+"…") || !strings.Contains(got, "2,000 bytes") {
		t.Errorf("shorten = %q", got)
	}
}

func TestLookupParam(t *testing.T) {
	params := []tools.Parameter{
		{Name: "edits", Type: tools.TypeArray, Items: &tools.Parameter{Type: tools.TypeObject, Properties: []tools.Parameter{
			{Name: "old_string", Type: tools.TypeString, Required: true},
			{Name: "opts", Type: tools.TypeObject, Properties: []tools.Parameter{{Name: "mode", Type: tools.TypeString}}},
		}}},
		{Name: "limit", Type: tools.TypeInteger},
	}
	lookups := []struct {
		path       string
		want       string
		nestedList bool
	}{
		{"limit", "limit", false},
		{"edits[1].old_string", "old_string", true},
		{"edits[0].opts.mode", "mode", true},
		{"edits[x]", "", false},
		{"nope", "", false},
		{"", "", false},
	}
	for _, tt := range lookups {
		q, siblings := lookupParam(params, tt.path)
		got := ""
		if q != nil {
			got = q.Name
		}
		if got != tt.want || (siblings != nil) != tt.nestedList {
			t.Errorf("lookupParam(%q) = %q, siblings %v", tt.path, got, siblings)
		}
	}
}

func TestRegistrationFailedOtherErrors(t *testing.T) {
	r := newTest()
	plainErr := r.RegistrationFailed("X", errors.New("boom"))
	if !strings.Contains(plainErr, `Cannot register tool "X": boom.`) {
		t.Errorf("plain error:\n%s", plainErr)
	}
	wrapped := r.RegistrationFailed("Read", errWrap{&tools.ToolError{ToolName: "Read", Message: "Tool already registered", Err: tools.ErrAlreadyRegistered}})
	if !strings.Contains(wrapped, "a tool with this name already exists.") {
		t.Errorf("wrapped already-registered error:\n%s", wrapped)
	}
}

type errWrap struct{ err error }

func (e errWrap) Error() string { return "register: " + e.err.Error() }
func (e errWrap) Unwrap() error { return e.err }

func TestToolDetailsCyclicItems(t *testing.T) {
	q := &tools.Parameter{Name: "tree", Type: tools.TypeArray}
	q.Items = q // a descriptor that points at itself
	out := newTest().ToolDetails(tools.Descriptor{Name: "T", Parameters: []tools.Parameter{*q}})
	if !strings.Contains(out, "…") {
		t.Errorf("cyclic items not cut:\n%s", out)
	}
	assertAligned(t, "cyclic", out, DefaultWidth)
}
