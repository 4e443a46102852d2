package custom

import (
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// claudeKeys are front matter keys that files written for Claude Code and
// its plugins carry. forge reads some of them; the others are accepted
// without a word. Read line by line, only these start a new key, so that
// "user: ..." inside a description's example stays text.
var claudeKeys = map[string]bool{
	"name": true, "description": true, "tools": true, "allowed-tools": true, "model": true, "argument-hint": true,
	"color": true, "version": true, "tags": true, "license": true, "metadata": true, "author": true, "category": true,
	"disable-model-invocation": true, "user-invocable": true, "when_to_use": true, "when-to-use": true,
	"permissionMode": true, "permission-mode": true, "skills": true, "hooks": true, "mcpServers": true,
	"mcp-servers": true, "disallowedTools": true, "disallowed-tools": true, "context": true, "agent": true,
	"effort": true, "keywords": true, "type": true, "title": true, "icon": true, "emoji": true,
}

// frontKey splits a line that starts a key (no indentation, a name, a
// colon and a space or the end of the line) into the key and its value;
// ok is false for any other line. By hand, not a regular expression: it
// runs on every line of hundreds of files at start.
func frontKey(line string) (key, value string, ok bool) {
	i := 0
	for i < len(line) {
		c := line[i]
		letter := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '_' || c == '-')) {
			break
		}
		i++
	}
	if i == 0 || i == len(line) || line[i] != ':' {
		return "", "", false
	}
	rest := line[i+1:]
	if rest == "" {
		return line[:i], "", true
	}
	if rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false
	}
	return line[:i], strings.TrimLeft(rest, " \t"), true
}

// lenientFront reads front matter that is not valid YAML the way Claude
// Code does: a line "key: value" whose key is one such files use starts a
// key, and every other line continues the value before it (inside an
// <example> block, even one that looks like a key). ok is false when no
// line starts a key: the file is then reported as not valid YAML.
func lenientFront(front string) (*yaml.Node, bool) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	var key *yaml.Node
	start, end := 0, 0 // the value of key: front[start:end], its lines as they are
	flush := func() {
		if key != nil {
			m.Content = append(m.Content, key, lenientValue(key.Value, front[start:end], key.Line))
		}
	}
	examples := 0
	for i, off := 0, 0; off < len(front); i++ {
		line, _, _ := strings.Cut(front[off:], "\n")
		name, value, isKey := frontKey(line)
		switch {
		case isKey && examples == 0 && claudeKeys[name]:
			flush()
			key = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: i + 1}
			start = off + len(line) - len(value)
		case key != nil:
		case strings.TrimSpace(line) != "" && !strings.HasPrefix(strings.TrimSpace(line), "#"):
			return nil, false // text before any key: not front matter forge can read
		}
		end = off + len(line)
		if strings.IndexByte(line, '<') >= 0 {
			examples += strings.Count(line, "<example>") - strings.Count(line, "</example>")
			examples = max(examples, 0)
		}
		off += len(line) + 1
	}
	flush()
	return m, len(m.Content) > 0
}

// lenientValue is one key's value read line by line: a list for the tool
// keys when it is written as one (YAML's [a, b] or "- a" lines), a quoted
// scalar unquoted, and text otherwise. The common forms are read by hand;
// the YAML library reads what may be a list or a quoted scalar otherwise.
func lenientValue(key, text string, line int) *yaml.Node {
	text = strings.TrimSpace(text)
	if listKeys[key] && maybeList(text) {
		if seq, ok := blockList(text); ok {
			seq.Line = line
			return seq
		}
		var n yaml.Node
		if yaml.Unmarshal([]byte(text), &n) == nil && len(n.Content) == 1 && n.Content[0].Kind == yaml.SequenceNode {
			seq := n.Content[0]
			seq.Line = line
			return seq
		}
	}
	if len(text) >= 2 && (text[0] == '"' || text[0] == '\'') && text[len(text)-1] == text[0] && !strings.Contains(text, "\n") {
		if s, after, ok := quoted(text); ok && after == "" && simpleText(text) {
			text = s
		} else {
			var s string
			if yaml.Unmarshal([]byte(text), &s) == nil {
				text = s
			}
		}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text, Line: line}
}

// maybeList says the YAML library may read text, a value without blanks
// around it, as a list: one on one line starts with "[" or "- ", or with
// an anchor, a tag or a directive before one.
func maybeList(text string) bool {
	return strings.Contains(text, "\n") || text != "" && strings.ContainsRune("[-&!%#?*{|>", rune(text[0]))
}

// blockList reads text as a "[a, b]" list or as "- a" lines, as
// fastFront reads them; ok is false for any other text.
func blockList(text string) (*yaml.Node, bool) {
	if m, v := fastFront("k: " + text); v == parsed && len(m.Content) == 2 && m.Content[1].Kind == yaml.SequenceNode {
		return m.Content[1], true
	}
	if m, v := fastFront("k:\n" + text); v == parsed && len(m.Content) == 2 && m.Content[1].Kind == yaml.SequenceNode {
		for _, item := range m.Content[1].Content {
			item.Line-- // the line of "k:" before them
		}
		return m.Content[1], true
	}
	return nil, false
}

// misspelt is the key of kind k that name was probably meant to be
// (allowed_tools for allowed-tools, descripton for description); "" for a
// key Claude Code's files use, or one far from any forge reads. Those are
// ignored silently; a misspelt one is worth a warning, since what it
// meant to say (narrowing the tools) is lost.
func misspelt(name string, k Kind) string {
	if claudeKeys[name] {
		return ""
	}
	norm := strings.ReplaceAll(strings.ToLower(name), "_", "-")
	for _, want := range slices.Sorted(maps.Keys(keys[k])) {
		if norm == want || distance(norm, want) <= 1 || len(want) > 6 && distance(norm, want) <= 2 {
			return want
		}
	}
	return ""
}

// distance is the Levenshtein distance between a and b, which are short.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
