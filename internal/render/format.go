package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/tools"
)

// formatDuration writes a duration in milliseconds, so that durations in a
// panel compare at a glance ("12ms", "1543ms", "120000ms"): whole
// milliseconds, rounded, from 1 ms up.
// Below that the integer would read as "0ms" for calls that did take time, so
// one decimal is shown ("0.4ms"), and "<0.1ms" below 0.05 ms. Zero, negative
// and NaN durations are "0ms".
func formatDuration(ms float64) string {
	switch {
	case math.IsNaN(ms) || ms <= 0:
		return "0ms"
	case ms < 0.05:
		return "<0.1ms"
	case ms < 0.95:
		return strconv.FormatFloat(ms, 'f', 1, 64) + "ms"
	case ms > 1e15 || math.IsInf(ms, 1):
		return strconv.FormatFloat(ms, 'g', 6, 64) + "ms"
	}
	return strconv.FormatInt(int64(math.Round(ms)), 10) + "ms"
}

// formatSeconds writes a timeout as the core's messages do: "120s", "1.5s".
func formatSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

// formatCount writes n with thousands separators: 100000 -> "100,000".
func formatCount(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// plural writes "1 tool", "3 tools".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// formatFloat writes a constraint as the schema does: 10000, 0.5.
func formatFloat(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// formatValue writes a value for a person: strings bare, everything else as
// compact JSON.
func formatValue(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return compactJSON(v)
}

// maxDepth bounds the nesting compactJSON follows, so a value that contains
// itself cannot recurse forever.
const maxDepth = 64

// compactJSON writes v as JSON on one line with ", " and ": " between
// elements, which reads better in a panel than encoding/json's dense form:
// {"command": "sleep 300", "timeout": 5000}. Object keys are sorted.
func compactJSON(v any) string {
	var b strings.Builder
	writeCompact(&b, v, 0)
	return b.String()
}

func writeCompact(b *strings.Builder, v any, depth int) {
	if depth > maxDepth {
		b.WriteString("…")
		return
	}
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		b.WriteString(quoteJSON(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case json.Number:
		if x == "" {
			b.WriteString("0")
		} else {
			b.WriteString(string(x))
		}
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		writeFloat(b, x)
	case tools.Args:
		writeObject(b, map[string]any(x), nil, depth)
	case map[string]any:
		writeObject(b, x, nil, depth)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeCompact(b, e, depth+1)
		}
		b.WriteByte(']')
	default:
		// Other Go values (structs, typed slices): through encoding/json,
		// then back as plain JSON values to print them the same way.
		raw, err := marshal(v, "")
		if err != nil {
			b.WriteString(quoteJSON(fmt.Sprint(v)))
			return
		}
		var plainV any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if dec.Decode(&plainV) != nil || isScalarKind(v) {
			b.Write(raw)
			return
		}
		writeCompact(b, plainV, depth+1)
	}
}

// isScalarKind reports values whose JSON is already as compact as it gets.
func isScalarKind(v any) bool {
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct, reflect.Pointer, reflect.Interface:
		return false
	}
	return true
}

func writeFloat(b *strings.Builder, f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		b.WriteString(quoteJSON(strconv.FormatFloat(f, 'g', -1, 64)))
		return
	}
	raw, _ := json.Marshal(f)
	b.Write(raw)
}

// writeObject writes m with the keys in order first, then the others sorted.
func writeObject(b *strings.Builder, m map[string]any, order []string, depth int) {
	b.WriteByte('{')
	for i, k := range objectKeys(m, order) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteJSON(k))
		b.WriteString(": ")
		writeCompact(b, m[k], depth+1)
	}
	b.WriteByte('}')
}

// objectKeys lists the keys of m: those named in order (and present) first,
// in that order, then the rest sorted.
func objectKeys(m map[string]any, order []string) []string {
	keys := make([]string, 0, len(m))
	seen := make(map[string]bool, len(order))
	for _, k := range order {
		if _, ok := m[k]; ok && !seen[k] {
			keys = append(keys, k)
			seen[k] = true
		}
	}
	rest := len(keys)
	for k := range m {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys[rest:])
	return keys
}

// quoteJSON writes s as a JSON string without HTML escaping ("<" stays).
func quoteJSON(s string) string {
	raw, err := marshal(s, "")
	if err != nil {
		return strconv.Quote(s)
	}
	return string(raw)
}

// marshal is json.Marshal (or MarshalIndent with indent) without HTML
// escaping, with no control character left raw (escapeControls), and
// without the encoder's final newline.
func marshal(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeControls(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// outputText is the text of a result's output: strings (and bytes) as they
// are, every other value as indented JSON.
func outputText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	}
	raw, err := marshal(v, "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(raw)
}

// jsonType names the JSON type of an argument as the validation messages do.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		return "number"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "integer"
	case float32, float64:
		return "number"
	case []any:
		return "array"
	case map[string]any, tools.Args:
		return "object"
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// maxReceived bounds how much of an offending argument a validation panel
// echoes: the value came from the caller, who has it; a megabyte string would
// only bury the message.
const maxReceived = 400

// shorten cuts s to at most n runes, saying how long it was.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for i < len(s) && k < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + fmt.Sprintf("… (%s bytes in all)", formatCount(len(s)))
}

// ByteSize is n bytes as a person reads a size: "312 bytes", "2.1 KB",
// "3.4 MB" (in units of 1024).
func ByteSize(n int) string {
	one := func(f float64, unit string) string {
		return strings.TrimSuffix(strconv.FormatFloat(f, 'f', 1, 64), ".0") + " " + unit
	}
	switch {
	case n < 1024:
		return plural(n, "byte")
	case n < 1<<20:
		return one(float64(n)/(1<<10), "KB")
	}
	return one(float64(n)/(1<<20), "MB")
}
