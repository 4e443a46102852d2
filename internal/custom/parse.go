// Package custom reads custom slash commands, custom subagents and skills
// from Markdown files with YAML front matter, in the format Claude Code
// uses (and gemini-cli, opencode and crush copy): a command's body is a
// prompt with $ARGUMENTS and $1..$9 to fill in, an agent's body is its
// system prompt, a skill's body its instructions. Front matter is read as
// leniently as Claude Code reads it, and tool names of Claude Code's are
// mapped to forge's. It reads files and returns plain values with
// warnings; it never prints, and knows neither the command table nor the
// agent.
package custom

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Kind is what a file defines, which decides the keys its front matter may
// have.
type Kind int

// The kinds of file.
const (
	KindCommand Kind = iota
	KindAgent
	KindSkill
)

// keys are the front matter keys each kind reads. Others are ignored
// without a word, as Claude Code ignores them (color, version, tags...),
// unless one looks like a misspelling of a key forge reads.
var keys = map[Kind]map[string]bool{
	KindCommand: {"description": true, "argument-hint": true, "allowed-tools": true, "model": true},
	KindAgent:   {"name": true, "description": true, "tools": true, "model": true},
	KindSkill:   {"name": true, "description": true, "allowed-tools": true, "model": true, "disable-model-invocation": true},
}

// listKeys hold lists of tools: a comma-separated string or a YAML list.
var listKeys = map[string]bool{"allowed-tools": true, "tools": true}

// Meta is a file's front matter, the keys its kind reads.
type Meta struct {
	Name         string
	Description  string
	ArgumentHint string
	Model        string
	// Tools is allowed-tools (a command, a skill) or tools (an agent).
	// ToolsSet says the key was given: an empty list then means no tools
	// at all.
	Tools    []string
	ToolsSet bool
	// NoModel is a skill's disable-model-invocation: it is not offered
	// to the model.
	NoModel bool
}

// Doc is one parsed file.
type Doc struct {
	Meta Meta
	// Body is the Markdown after the front matter, blank lines around it
	// removed.
	Body string
}

// Issue is a problem at a line of a file (1-based; 0 when it is the whole
// file's).
type Issue struct {
	Line int
	Msg  string
}

// Error lets a fatal Issue be an error.
func (i Issue) Error() string {
	if i.Line > 0 {
		return fmt.Sprintf("line %d: %s", i.Line, i.Msg)
	}
	return i.Msg
}

// Parse reads one file of kind k. A problem that leaves the file unusable
// (not text, front matter not closed or not YAML, a key of the wrong type)
// is the error, an Issue; lesser ones (unknown or repeated keys) are
// returned as warnings.
func Parse(data []byte, k Kind) (Doc, []Issue, error) {
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return Doc{}, nil, Issue{Msg: "not a text file (it holds NUL bytes or is not UTF-8)"}
	}
	text := strings.TrimPrefix(string(data), "\uFEFF")
	text = strings.ReplaceAll(text, "\r\n", "\n")
	front, body, err := split(text)
	if err != nil {
		return Doc{}, nil, err
	}
	doc := Doc{Body: strings.TrimSpace(body)}
	if front == "" {
		return doc, nil, nil
	}
	var warns []Issue
	doc.Meta, warns, err = parseFront(front, k)
	return doc, warns, err
}

// split cuts text into its front matter (without the --- lines; "" when
// there is none) and body.
func split(text string) (front, body string, err error) {
	first, rest, ok := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return "", text, nil
	}
	for off := 0; ok; {
		line, after, more := strings.Cut(rest[off:], "\n")
		if strings.TrimRight(line, " \t") == "---" {
			return rest[:off], after, nil
		}
		if !more {
			break
		}
		off += len(line) + 1
	}
	return "", "", Issue{Line: 1, Msg: "front matter not closed: no --- line after the opening one"}
}

// yamlLine finds the line number in a yaml error message.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })

// parseFront decodes the front matter, which starts at the file's line 2.
// Front matter that is not valid YAML is read again line by line, as
// Claude Code reads it: many published agents have descriptions written
// over several lines without quotes, with <example> blocks and colons.
// The simple form most files use is read without the YAML library.
func parseFront(front string, k Kind) (Meta, []Issue, error) {
	front = quoteBracketHint(front)
	switch m, v := fastFront(front); v {
	case parsed:
		return decodeFront(m, k)
	case invalid:
		if m, ok := lenientFront(front); ok {
			return decodeFront(m, k)
		}
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(front), &root); err != nil {
		if m, ok := lenientFront(front); ok {
			return decodeFront(m, k)
		}
		return Meta{}, nil, yamlIssue(err)
	}
	if len(root.Content) == 0 {
		return Meta{}, nil, nil // only comments or blank lines
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return Meta{}, nil, Issue{Line: m.Line + 1, Msg: "front matter must be keys with values (key: value)"}
	}
	return decodeFront(m, k)
}

// quoteBracketHint quotes an argument-hint written as Claude Code's
// examples write it, "[pr-number] [priority]", which is not valid YAML
// unquoted.
func quoteBracketHint(front string) string {
	const key = "argument-hint"
	if !strings.Contains(front, key) {
		return front
	}
	lines := strings.Split(front, "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, key)
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if rest, ok = strings.CutPrefix(rest, ":"); !ok {
			continue
		}
		v := strings.TrimLeft(rest, " \t")
		if !strings.HasPrefix(v, "[") {
			continue
		}
		v = strings.TrimRight(v, " \t")
		lines[i] = l[:len(l)-len(strings.TrimLeft(rest, " \t"))] + "'" + strings.ReplaceAll(v, "'", "''") + "'"
	}
	return strings.Join(lines, "\n")
}

// decodeFront reads the keys of the mapping m that kind k uses.
func decodeFront(m *yaml.Node, k Kind) (Meta, []Issue, error) {
	var meta Meta
	var warns []Issue
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], m.Content[i+1]
		name := key.Value
		line := key.Line + 1
		if !keys[k][name] {
			if near := misspelt(name, k); near != "" {
				warns = append(warns, Issue{Line: line, Msg: fmt.Sprintf("unknown key %q ignored (did you mean %q?)", name, near)})
			}
			continue
		}
		if seen[name] {
			warns = append(warns, Issue{Line: line, Msg: fmt.Sprintf("key %q given twice; the last one counts", name)})
		}
		seen[name] = true
		if err := meta.set(name, val); err != nil {
			return Meta{}, nil, Issue{Line: val.Line + 1, Msg: name + ": " + err.Error()}
		}
	}
	return meta, warns, nil
}

// yamlIssue turns a YAML error into an Issue at the file's line.
func yamlIssue(err error) Issue {
	msg := err.Error()
	if sub := yamlLine().FindStringSubmatch(msg); sub != nil {
		n, _ := strconv.Atoi(sub[1])
		return Issue{Line: n + 1, Msg: "front matter is not valid YAML: " + msg[len(sub[0]):]}
	}
	return Issue{Line: 2, Msg: "front matter is not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")}
}

// set stores one known key's value.
func (m *Meta) set(name string, val *yaml.Node) error {
	if listKeys[name] {
		list, err := toolList(val)
		if err != nil {
			return err
		}
		m.Tools, m.ToolsSet = list, true
		return nil
	}
	s, err := text(val)
	if err != nil {
		return err
	}
	switch name {
	case "name":
		m.Name = s
	case "description":
		m.Description = s
	case "argument-hint":
		m.ArgumentHint = s
	case "model":
		m.Model = s
	case "disable-model-invocation":
		m.NoModel = strings.EqualFold(s, "true") || strings.EqualFold(s, "yes")
	}
	return nil
}

// text is a scalar's value; null is "".
func text(n *yaml.Node) (string, error) {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		return "", nil
	case n.Kind == yaml.ScalarNode:
		return strings.TrimSpace(n.Value), nil
	}
	return "", errors.New("must be text, not a list or a mapping")
}

// toolList is a list of tools: "Read, Grep, Bash(git diff:*)" (commas
// inside parentheses do not split) or a YAML list of such strings.
func toolList(n *yaml.Node) ([]string, error) {
	out := []string{}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return out, nil
		}
		return append(out, splitTools(n.Value)...), nil
	case yaml.SequenceNode:
		for _, item := range n.Content {
			s, err := text(item)
			if err != nil {
				return nil, errors.New("each tool must be text, as in [Read, Grep]")
			}
			out = append(out, splitTools(s)...)
		}
		return out, nil
	}
	return nil, errors.New("must be a list of tools: Read, Grep or [Read, Grep]")
}

// splitTools splits at commas outside parentheses, dropping empty entries.
func splitTools(s string) []string {
	var out []string
	depth, start := 0, 0
	add := func(end int) {
		if t := strings.TrimSpace(s[start:end]); t != "" {
			out = append(out, t)
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case ',':
			if depth == 0 {
				add(i)
				start = i + 1
			}
		}
	}
	add(len(s))
	return out
}
