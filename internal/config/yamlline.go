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
	lines := strings.SplitAfter(string(data), "\n")
	if terr := tabError(lines); terr != nil {
		return terr
	}
	m := yamlLine().FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	problem := m[2]
	line, _ := strconv.Atoi(m[1])
	if slices.Contains(parserProblems, problem) {
		line++
	}
	if len(lines) <= maxLineSearch {
		if n, _ := firstFailing(lines, problem); n > 0 {
			line = n
		}
	}
	if line < 1 || line > len(lines) {
		return errors.New("yaml: " + problem)
	}
	return errors.New("yaml: line " + strconv.Itoa(line) + ": " + problem + " (line " + strconv.Itoa(line) + " is " +
		quotedLine(strings.TrimSpace(lines[line-1])) + ")")
}

// quotedLine is a line of the file quoted for a message, cut when long.
func quotedLine(text string) string {
	if r := []rune(text); len(r) > 60 {
		text = string(r[:59]) + "…"
	}
	return strconv.Quote(text)
}

// tabError is the error of a file that cannot be read because a line is
// indented with a tab, which YAML does not allow and an editor does not
// show: its line and column, and the line quoted with the tab visible.
// The line is the last of the shortest beginning of the file that does
// not parse, when the parser blames a tab or a character that cannot
// start a token (what it says of a tab at the start of the file). nil
// otherwise.
func tabError(lines []string) error {
	if len(lines) > maxLineSearch {
		return nil
	}
	n, problem := firstFailing(lines, "")
	if n == 0 || !strings.Contains(problem, "tab character") && !strings.Contains(problem, "cannot start any token") {
		return nil
	}
	l := strings.TrimRight(lines[n-1], "\r\n")
	indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	col := strings.IndexByte(indent, '\t')
	if col < 0 {
		return nil
	}
	return errors.New("yaml: line " + strconv.Itoa(n) + ", column " + strconv.Itoa(col+1) +
		": a tab in the indentation; YAML indents with spaces only (line " + strconv.Itoa(n) + " is " + quotedLine(l) + ")")
}

// firstFailing is the number of lines of the shortest beginning of the
// file that fails with problem, or with any problem when problem is "",
// and the problem it fails with; 0 when none does.
func firstFailing(lines []string, problem string) (int, string) {
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l)
		var n yaml.Node
		err := yaml.Unmarshal([]byte(b.String()), &n)
		if err == nil {
			continue
		}
		if problem == "" {
			return i + 1, err.Error()
		}
		if m := yamlLine().FindStringSubmatch(err.Error()); m != nil && m[2] == problem {
			return i + 1, problem
		}
	}
	return 0, ""
}
