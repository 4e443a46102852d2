package config

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// maxLineSearch bounds the lines of a file whose syntax error is placed by
// parsing its beginnings (see yamlSyntaxError): a config file has tens.
const maxLineSearch = 2000

// yamlLine is a syntax error of the YAML parser: "yaml: line 2: did not
// find expected key".
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// parserProblems are the YAML parser's own messages (not its scanner's),
// whose line it numbers from 0, one too few.
var parserProblems = []string{
	"did not find expected <stream-start>", "did not find expected <document start>", "found undefined tag handle",
	"did not find expected node content", "did not find expected '-' indicator", "did not find expected key",
	"did not find expected ',' or ']'", "did not find expected ',' or '}'", "found duplicate %YAML directive",
	"found incompatible YAML document", "found duplicate %TAG directive",
}

// yamlSyntaxError is err, a syntax error of data, pointing at the line
// where the mistake is and quoting it. The parser names the line where the
// construct it could not finish began (an unclosed "[" two lines up, the
// start of a mapping whose indentation went wrong further down), and
// numbers some lines from 0. The line where the mistake is, is the first
// that the file cannot go on from: the first beginning of the file that
// fails with the same problem.
func yamlSyntaxError(data []byte, err error) error {
	m := yamlLine().FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	problem := m[2]
	line, _ := strconv.Atoi(m[1])
	if slices.Contains(parserProblems, problem) {
		line++
	}
	lines := strings.SplitAfter(string(data), "\n")
	if len(lines) <= maxLineSearch {
		if n := firstFailing(lines, problem); n > 0 {
			line = n
		}
	}
	if line < 1 || line > len(lines) {
		return errors.New("yaml: " + problem)
	}
	text := strings.TrimSpace(lines[line-1])
	if r := []rune(text); len(r) > 60 {
		text = string(r[:59]) + "…"
	}
	return errors.New("yaml: line " + strconv.Itoa(line) + ": " + problem + " (line " + strconv.Itoa(line) + " is " + strconv.Quote(text) + ")")
}

// firstFailing is the number of lines of the shortest beginning of the
// file that fails with problem; 0 when none does.
func firstFailing(lines []string, problem string) int {
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		var n yaml.Node
		err := yaml.Unmarshal([]byte(b.String()), &n)
		if err == nil {
			continue
		}
		if m := yamlLine().FindStringSubmatch(err.Error()); m != nil && m[2] == problem {
			return i + 1
		}
	}
	return 0
}
