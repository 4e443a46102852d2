package config

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

var namedLine = regexp.MustCompile(`^yaml: line (\d+)(?:, column \d+)?: .* \(line (\d+) is "`)

// Whatever the file, a syntax error names a line the file has, and quotes
// that same line.
func FuzzYAMLSyntaxLine(f *testing.F) {
	for _, seed := range []string{
		"a: [1, 2\n", "a: 1\nb: {x: 1\nc: 2\n", "tools:\n  Read:\n    a: 1\n   b: 2\n", "a: 1\n- b\n",
		"a: \"x\n", "a: 1\n\tb: 2\n", "\tmodel: x\n", "a:\n  \t b: 1\n", "a: @x\n", "[\n", "a:\n  - x\n - y\n", "a: 1\r\nb: [\r\n", "x",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		if len(data) > 4096 {
			return
		}
		var n yaml.Node
		perr := yaml.Unmarshal([]byte(data), &n)
		if perr == nil {
			return
		}
		got := yamlSyntaxError([]byte(data), perr).Error()
		m := namedLine.FindStringSubmatch(got)
		if m == nil {
			if strings.HasPrefix(got, "yaml: line ") {
				t.Fatalf("%q: a line without its text: %s", data, got)
			}
			return
		}
		line, _ := strconv.Atoi(m[1])
		quoted, _ := strconv.Atoi(m[2])
		if lines := strings.SplitAfter(data, "\n"); line < 1 || line > len(lines) || quoted != line {
			t.Fatalf("%q (%d lines): %s", data, len(lines), got)
		}
	})
}
