package commands

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

var testParams = []tools.Parameter{
	{Name: "file_path", Type: tools.TypeString},
	{Name: "offset", Type: tools.TypeInteger},
	{Name: "ratio", Type: tools.TypeNumber},
	{Name: "all", Type: tools.TypeBoolean},
	{Name: "edits", Type: tools.TypeArray},
	{Name: "opts", Type: tools.TypeObject},
	{Name: "pattern", Type: tools.TypeString},
}

func testReader(files map[string]string) FileReader {
	return func(path string) ([]byte, error) {
		s, ok := files[path]
		if !ok {
			return nil, os.ErrNotExist
		}
		return []byte(s), nil
	}
}

func TestParseArgLine(t *testing.T) {
	read := testReader(map[string]string{"msg.txt": "hello\nworld\n", "n.txt": " 42\n", "e.json": `[{"old_string":"a"}]`})
	tests := []struct {
		name string
		line string
		want tools.Args
		err  string
	}{
		{"empty", "  ", tools.Args{}, ""},
		{"string typed bare", "file_path=123", tools.Args{"file_path": "123"}, ""},
		{"integer typed bare", "offset=100", tools.Args{"offset": 100}, ""},
		{"quoted integer stays string", `offset="100"`, tools.Args{"offset": "100"}, ""},
		{"bad integer passes as string", "offset=abc", tools.Args{"offset": "abc"}, ""},
		{"number", "ratio=3.5", tools.Args{"ratio": json.Number("3.5")}, ""},
		{"boolean", "all=true", tools.Args{"all": true}, ""},
		{"boolean false", "all=false", tools.Args{"all": false}, ""},
		{"boolean quoted", `all="true"`, tools.Args{"all": "true"}, ""},
		{"several", "file_path=go.mod offset=5", tools.Args{"file_path": "go.mod", "offset": 5}, ""},
		{"double quotes with blanks", `file_path="a b.txt"`, tools.Args{"file_path": "a b.txt"}, ""},
		{"json escapes", `file_path="a\nb"`, tools.Args{"file_path": "a\nb"}, ""},
		{"single quotes literal", `file_path='say "hi"'`, tools.Args{"file_path": `say "hi"`}, ""},
		{"shell quotes inside word", `file_path=echo" hi"`, tools.Args{"file_path": "echo hi"}, ""},
		{"array json", `edits=[{"old_string":"a b"}]`, tools.Args{"edits": []any{map[string]any{"old_string": "a b"}}}, ""},
		{"array json with blanks", `edits=[{"old_string": "a", "n": 1}]`, tools.Args{"edits": []any{map[string]any{"old_string": "a", "n": 1}}}, ""},
		{"object json", `opts={"k":true}`, tools.Args{"opts": map[string]any{"k": true}}, ""},
		{"bracket string param", `pattern=[a-z]+`, tools.Args{"pattern": "[a-z]+"}, ""},
		{"whole object", `{"file_path":"go.mod","offset":2}`, tools.Args{"file_path": "go.mod", "offset": 2}, ""},
		{"file value string", "file_path=@msg.txt", tools.Args{"file_path": "hello\nworld\n"}, ""},
		{"file value integer", "offset=@n.txt", tools.Args{"offset": 42}, ""},
		{"file value array", "edits=@e.json", tools.Args{"edits": []any{map[string]any{"old_string": "a"}}}, ""},
		{"at escape", "file_path=@@home", tools.Args{"file_path": "@home"}, ""},
		{"undeclared typed by look", "x=1 y=true z=abc", tools.Args{"x": 1, "y": true, "z": "abc"}, ""},
		{"null integer", "offset=null", tools.Args{"offset": nil}, ""},
		{"empty value", "file_path=", tools.Args{"file_path": ""}, ""},

		{"missing file", "file_path=@nope.txt", nil, "Cannot read nope.txt for file_path"},
		{"empty file name", "file_path=@", nil, "Missing file name after @"},
		{"not key=value", "go.mod", nil, `Expected key=value, got "go.mod"`},
		{"bad key", "a b=c", nil, `Expected key=value, got "a"`},
		{"duplicate", "offset=1 offset=2", nil, "Duplicate parameter: offset"},
		{"unterminated", `file_path="abc`, nil, "Unterminated \" quote"},
		{"bad array", `edits=[1,`, nil, "Invalid JSON value for edits"},
		{"bad object line", `{"a":`, nil, "Invalid JSON arguments"},
		{"trailing after object", `{"a":1} x`, nil, "unexpected data after the object"},
		{"bad json in file", "edits=@msg.txt", nil, "Invalid JSON in msg.txt for edits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseArgLine(tt.line, testParams, read)
			if tt.err != "" {
				var ae *ArgError
				if err == nil || !errors.As(err, &ae) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("ParseArgLine(%q) error = %v, want *ArgError containing %q", tt.line, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseArgLine(%q): %v", tt.line, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseArgLine(%q) = %#v, want %#v", tt.line, got, tt.want)
			}
		})
	}
}

// A quoted integer (offset="100") reaches validation as a string, so that
// the shell can show its "Invalid type" panel: quotes mean a string.
func TestParseArgLineQuotedIntegerFailsValidation(t *testing.T) {
	args, err := ParseArgLine(`file_path=x offset="100"`, testParams, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, verr := tools.Validate(testParams, args)
	if verr == nil || verr.Message != "Invalid type for offset: expected integer" || verr.Received != "100" {
		t.Fatalf("validation = %#v", verr)
	}
}

func TestFields(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"/tools --category file", []string{"/tools", "--category", "file"}},
		{`/help "run"`, []string{"/help", "run"}},
		{`a 'b c' d\ e`, []string{"a", "b c", "d e"}},
		{"", []string{}},
	}
	for _, tt := range tests {
		got, err := Fields(tt.line)
		if err != nil {
			t.Fatalf("Fields(%q): %v", tt.line, err)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Fields(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func FuzzParseArgLine(f *testing.F) {
	for _, s := range []string{
		"file_path=go.mod offset=5", `offset="100"`, `edits=[{"old_string":"a"}]`, `{"a":1}`,
		`x='y`, `a=@b`, `a=@@b`, `k="\u00e9"`, `[[[`, `a={"b":[1,2,{"c":null}]}`, "a=\\", `a="\`,
	} {
		f.Add(s)
	}
	read := testReader(map[string]string{"b": "[1]"})
	f.Fuzz(func(t *testing.T, line string) {
		args, err := ParseArgLine(line, testParams, read)
		if err == nil && args == nil {
			t.Fatalf("nil args without error for %q", line)
		}
		if err != nil {
			var ae *ArgError
			if !errors.As(err, &ae) {
				t.Fatalf("error of type %T for %q", err, line)
			}
		}
		_, _ = tools.Validate(testParams, args)
	})
}

func TestParseArgWords(t *testing.T) {
	tests := []struct {
		words []string
		want  tools.Args
		err   string
	}{
		{[]string{"file_path=a b.txt", "offset=3"}, tools.Args{"file_path": "a b.txt", "offset": 3}, ""},
		{[]string{`file_path=echo "hi"`}, tools.Args{"file_path": `echo "hi"`}, ""},
		{[]string{`offset="100"`}, tools.Args{"offset": "100"}, ""},
		{[]string{`{"offset": 1}`}, tools.Args{"offset": 1}, ""},
		{[]string{`edits=[1, 2]`}, tools.Args{"edits": []any{1, 2}}, ""},
		{[]string{"nokey"}, nil, "Expected key=value"},
	}
	for _, tt := range tests {
		got, err := ParseArgWords(tt.words, testParams, nil)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseArgWords(%q) error = %v, want %q", tt.words, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseArgWords(%q) = %#v, %v; want %#v", tt.words, got, err, tt.want)
		}
	}
}

// A value typed in the shell and the same value sent as JSON (by a model, an
// MCP client or forge run '{...}') reach the tool identical.
func TestArgLineAgreesWithJSON(t *testing.T) {
	params := []tools.Parameter{
		{Name: "file_path", Type: tools.TypeString}, {Name: "offset", Type: tools.TypeInteger},
		{Name: "ratio", Type: tools.TypeNumber}, {Name: "on", Type: tools.TypeBoolean},
		{Name: "edits", Type: tools.TypeArray}, {Name: "opts", Type: tools.TypeObject},
	}
	line := `file_path=go.mod offset=100 ratio=2.5 on=true edits=[{"n": 1, "x": 1.5}] opts={"k": [2]}`
	obj := `{"file_path": "go.mod", "offset": 100, "ratio": 2.5, "on": true, "edits": [{"n": 1, "x": 1.5}], "opts": {"k": [2]}}`
	fromLine, err := ParseArgLine(line, params, nil)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := tools.DecodeArgs([]byte(obj))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromLine, fromJSON) {
		t.Errorf("key=value gives %#v\nJSON gives      %#v", fromLine, fromJSON)
	}
}
