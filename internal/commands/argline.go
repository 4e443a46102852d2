package commands

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// maxArgFileSize bounds what key=@path may read, so that a mistaken
// @/dev/zero cannot exhaust memory.
const maxArgFileSize = 64 << 20

// ArgError is a malformed argument line: the message says what is wrong and
// where, for the person who typed it.
type ArgError struct {
	Msg string
}

func (e *ArgError) Error() string { return e.Msg }

func argErrorf(format string, a ...any) error { return &ArgError{Msg: fmt.Sprintf(format, a...)} }

// FileReader reads the file named by key=@path; the path is as typed.
type FileReader func(path string) ([]byte, error)

// ParseArgLine turns the argument part of a /run line into tool arguments.
//
// The rules (DESIGN.md, "The shell contract"):
//   - the line is one JSON object, or words separated by blanks, each
//     key=value; quotes group words as in a shell and brackets keep a JSON
//     value with blanks in one word;
//   - a bare value is typed by the parameter's declared type: offset=100 is an
//     integer, file_path=123 the string "123", enabled=true a boolean; a bare
//     value that does not fit its type is passed as a string so that
//     validation names the problem;
//   - a value in double quotes is a JSON string (offset="100" is the string
//     "100"), a value in single quotes the literal text inside;
//   - a value starting with [ or { for an array or object parameter is JSON;
//   - key=@path reads the value from a file (key=@@x is the text "@x").
//
// params may be nil (unknown tool): values are then typed by their look.
func ParseArgLine(line string, params []tools.Parameter, read FileReader) (tools.Args, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return tools.Args{}, nil
	}
	if line[0] == '{' {
		return parseJSONObject(line)
	}
	words, err := splitWords(line)
	if err != nil {
		return nil, err
	}
	return parseWords(words, params, read, false)
}

// ParseArgWords is ParseArgLine for words a shell has split and unquoted
// already (forge run's arguments): each word is one key=value, a bare value
// is taken literally, and a value that is a JSON string literal, array or
// object is still JSON. A single word starting with { is a JSON object.
func ParseArgWords(words []string, params []tools.Parameter, read FileReader) (tools.Args, error) {
	if len(words) == 1 && strings.HasPrefix(strings.TrimSpace(words[0]), "{") {
		return parseJSONObject(strings.TrimSpace(words[0]))
	}
	ws := make([]word, len(words))
	for i, w := range words {
		ws[i] = word{raw: w, text: w}
	}
	return parseWords(ws, params, read, true)
}

// parseWords turns key=value words into arguments; literal says the words
// have no shell quoting left in them.
func parseWords(words []word, params []tools.Parameter, read FileReader, literal bool) (tools.Args, error) {
	args := make(tools.Args, len(words))
	for _, w := range words {
		key, raw, ok := strings.Cut(w.raw, "=")
		if !ok || !validKey(key) {
			return nil, argErrorf("Expected key=value, got %s (example: file_path=go.mod)", quoteForMessage(w.text))
		}
		if _, dup := args[key]; dup {
			return nil, argErrorf("Duplicate parameter: %s", key)
		}
		p := findParam(params, key)
		v, err := parseValue(key, raw, p, read, literal)
		if err != nil {
			return nil, err
		}
		args[key] = v
	}
	return args, nil
}

// parseJSONObject decodes a whole-line JSON object with the core's decoder,
// so that the shell's arguments are typed exactly as a model's are.
func parseJSONObject(line string) (tools.Args, error) {
	args, err := tools.DecodeArgs([]byte(line))
	if err != nil {
		return nil, &ArgError{Msg: err.Error()}
	}
	return args, nil
}

func findParam(params []tools.Parameter, name string) *tools.Parameter {
	for i := range params {
		if params[i].Name == name {
			return &params[i]
		}
	}
	return nil
}

// validKey accepts the names tools declare: letters, digits, _ - and dots.
func validKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return true
}

// parseValue types one raw value (quotes still in place) for parameter p.
func parseValue(key, raw string, p *tools.Parameter, read FileReader, literal bool) (any, error) {
	typ := ""
	if p != nil {
		typ = p.Type
	}
	switch {
	case strings.HasPrefix(raw, "@@"):
		return typeBare(raw[1:], typ), nil
	case strings.HasPrefix(raw, "@"):
		return fileValue(key, raw[1:], typ, read, literal)
	case strings.HasPrefix(raw, `"`):
		if s, ok := jsonString(raw); ok {
			return s, nil
		}
	case !literal && strings.HasPrefix(raw, "'") && len(raw) >= 2 && strings.HasSuffix(raw, "'") && !strings.Contains(raw[1:len(raw)-1], "'"):
		return raw[1 : len(raw)-1], nil
	}
	if (typ == tools.TypeArray || typ == tools.TypeObject || typ == "") && opensJSONContainer(raw) {
		v, err := decodeJSONValue(raw)
		if err != nil {
			return nil, argErrorf("Invalid JSON value for %s: %v", key, err)
		}
		return v, nil
	}
	if literal {
		return typeBare(raw, typ), nil
	}
	text, err := unquote(raw)
	if err != nil {
		return nil, argErrorf("Invalid value for %s: %v", key, err)
	}
	return typeBare(text, typ), nil
}

// fileValue reads key=@path. A string parameter gets the file's bytes as
// they are; any other type parses the (trimmed) contents as a typed value.
func fileValue(key, rawPath, typ string, read FileReader, literal bool) (any, error) {
	path := rawPath
	if !literal {
		var err error
		if path, err = unquote(rawPath); err != nil {
			return nil, argErrorf("Invalid file name for %s: %v", key, err)
		}
	}
	if path == "" {
		return nil, argErrorf("Missing file name after @ for %s (example: %s=@notes.txt)", key, key)
	}
	if read == nil {
		return nil, argErrorf("Cannot read %s for %s: reading files is not available here", path, key)
	}
	b, err := read(path)
	if err != nil {
		return nil, argErrorf("Cannot read %s for %s: %v", path, key, err)
	}
	if typ == tools.TypeString {
		return string(b), nil
	}
	text := strings.TrimSpace(string(b))
	if typ == tools.TypeArray || typ == tools.TypeObject || (typ == "" && opensJSONContainer(text)) {
		v, err := decodeJSONValue(text)
		if err != nil {
			return nil, argErrorf("Invalid JSON in %s for %s: %v", path, key, err)
		}
		return v, nil
	}
	return typeBare(text, typ), nil
}

// opensJSONContainer reports whether s starts like a JSON array or object.
func opensJSONContainer(s string) bool {
	return strings.HasPrefix(s, "[") || strings.HasPrefix(s, "{")
}

// typeBare types an unquoted value by the declared type; a value that does
// not fit stays a string, for validation to report.
func typeBare(s, typ string) any {
	switch typ {
	case tools.TypeString:
		return s
	case tools.TypeInteger, tools.TypeNumber:
		if n, ok := tools.ParseNumber(s); ok {
			return n
		}
		if s == "null" {
			return nil
		}
		return s
	case tools.TypeBoolean:
		switch s {
		case "true":
			return true
		case "false":
			return false
		case "null":
			return nil
		}
		return s
	case tools.TypeArray, tools.TypeObject:
		if s == "null" {
			return nil
		}
		return s
	}
	// Undeclared parameter: type by look, as JSON would.
	switch s {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	if n, ok := tools.ParseNumber(s); ok {
		return n
	}
	return s
}

// jsonString decodes raw when it is exactly one JSON string literal.
func jsonString(raw string) (string, bool) {
	var s string
	dec := json.NewDecoder(strings.NewReader(raw))
	if err := dec.Decode(&s); err != nil {
		return "", false
	}
	if dec.InputOffset() != int64(len(raw)) {
		return "", false
	}
	return s, true
}

// decodeJSONValue decodes one JSON value with the core's decoder.
func decodeJSONValue(raw string) (any, error) {
	return tools.DecodeValue([]byte(raw))
}

// quoteForMessage shows a word in a message, shortened when long.
func quoteForMessage(s string) string {
	const max = 60
	if len(s) > max {
		s = s[:max] + "..."
	}
	b, _ := render.EncodeJSON(s) // a string always encodes
	return strings.TrimSuffix(string(b), "\n")
}
