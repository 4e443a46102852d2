package custom

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzFastFront holds the fast reading of front matter to the YAML
// library's: when it reads a mapping, the library reads the same keys,
// values and lines; when it calls the text invalid, the library rejects
// it. Declining is always allowed. Its seed corpus is in
// testdata/fuzz/FuzzFastFront.
func FuzzFastFront(f *testing.F) {
	for _, seed := range fastFrontCases {
		f.Add(seed.front)
	}
	f.Fuzz(func(t *testing.T, front string) {
		checkFastFront(t, front)
	})
}

// checkFastFront fails t when fastFront and the YAML library disagree on
// front.
func checkFastFront(t *testing.T, front string) {
	t.Helper()
	got, v := fastFront(front)
	if v == declined {
		return
	}
	var root yaml.Node
	err := yaml.Unmarshal([]byte(front), &root)
	switch {
	case v == invalid && err == nil:
		t.Fatalf("fastFront(%q) = invalid; the YAML library reads it", front)
	case v == invalid:
		return
	case err != nil:
		t.Fatalf("fastFront(%q) read it; the YAML library: %v", front, err)
	case len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode:
		t.Fatalf("fastFront(%q) read a mapping; the YAML library does not", front)
	}
	if want, have := nodeString(root.Content[0]), nodeString(got); want != have {
		t.Fatalf("fastFront(%q):\n got %s\nwant %s", front, have, want)
	}
}

// nodeString is what decodeFront reads of n: kinds, values, whether a
// scalar is null, and lines.
func nodeString(n *yaml.Node) string {
	var b strings.Builder
	switch n.Kind {
	case yaml.ScalarNode:
		fmt.Fprintf(&b, "%q@%d", n.Value, n.Line)
		if n.Tag == "!!null" {
			b.WriteString("(null)")
		}
	default:
		fmt.Fprintf(&b, "%d@%d{", n.Kind, n.Line)
		for _, c := range n.Content {
			b.WriteString(nodeString(c) + " ")
		}
		b.WriteString("}")
	}
	return b.String()
}

// fastFrontCases are front matter and what fastFront makes of it.
var fastFrontCases = []struct {
	front string
	want  verdict
}{
	{"description: Review the code\nallowed-tools: Bash(git diff:*), Read\n", parsed},
	{"name: a\ndescription: \"Quoted: with a colon\"\nmodel: sonnet\ncolor: blue\n", parsed},
	{"name: a\ndescription: 'It''s # not a comment'\n", parsed},
	{"# a comment\n\nname: a # a comment\nversion: 1.0\n", parsed},
	{"tools: [Read, Grep, 'Bash(git diff:*)']\n", parsed},
	{"tools: []\nname: x\n", parsed},
	{"tools: [a?]\n", declined},
	{"tools:\n- Read\n- Grep\nmodel: ~\n", parsed},
	{"tools:\n  - Read\n  - \"Grep\"\n\nname: x\n", parsed},
	{"disable-model-invocation: true\nname: null\n", parsed},
	{"description: Use it — for “this” task ✓\n", parsed},
	{"description: Use this agent. Examples:\n<example>\nuser: \"x\"\n</example>\n", invalid},
	{"description: Use this agent when: the code changed\n", invalid},
	{"description: Use this agent\n<example>\nContext: x\n</example>\n", invalid},
	{"description: Use this agent\n  when: the code changed\n", invalid},
	{"description: a: b #c\n", invalid},
	{"name: a\nname: b\n", declined},
	{"description: |\n  block\n", declined},
	{"description: >\n  folded\n", declined},
	{"description: first\n  second\n", declined},
	{"description: \"esc\\\"aped\"\n", declined},
	{"description: &a x\n", declined},
	{"tools: [Read, [Grep]]\n", declined},
	{"tools:\n- a: b\n", declined},
	{"tools:\n  - a\n - b\n", declined},
	{"a:\tb\n", declined},
	{"key: 'open\n", declined},
	{"- a\n- b\n", declined},
	{"", declined},
	{strings.Repeat("k", 1100) + ": v\n", declined},
	{"# only a comment\n", declined},
}

func TestFastFront(t *testing.T) {
	for _, c := range fastFrontCases {
		t.Run(c.front, func(t *testing.T) {
			if _, v := fastFront(c.front); v != c.want {
				t.Fatalf("verdict %d, want %d", v, c.want)
			}
			checkFastFront(t, c.front)
		})
	}
}

// FuzzLenientValue holds lenientValue, which reads the common lists and
// quoted scalars by hand, to the YAML library's reading of the same text.
func FuzzLenientValue(f *testing.F) {
	for _, seed := range []string{"Read, Grep", "[Read, Grep]", "- Read\n- 'Bash(git:*)'", "'It''s'", `"a\"b"`,
		"[a, [b]]", "- a\nb: c", "# c\n- a", "&x [a]", "\"x\" # y", "'a' 'b'", "[]", "-", "- "} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, key := range []string{"tools", "description"} {
			got, want := nodeString(lenientValue(key, text, 3)), nodeString(lenientValueYAML(key, text, 3))
			if got != want {
				t.Fatalf("lenientValue(%q, %q):\n got %s\nwant %s", key, text, got, want)
			}
		}
	})
}

// lenientValueYAML is lenientValue as the YAML library alone reads it.
func lenientValueYAML(key, text string, line int) *yaml.Node {
	text = strings.TrimSpace(text)
	if listKeys[key] {
		var n yaml.Node
		if yaml.Unmarshal([]byte(text), &n) == nil && len(n.Content) == 1 && n.Content[0].Kind == yaml.SequenceNode {
			seq := n.Content[0]
			seq.Line = line
			return seq
		}
	}
	if len(text) >= 2 && (text[0] == '"' || text[0] == '\'') && text[len(text)-1] == text[0] && !strings.Contains(text, "\n") {
		var s string
		if yaml.Unmarshal([]byte(text), &s) == nil {
			text = s
		}
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: text, Line: line}
}

// FuzzLenientFront holds lenientFront, which reads the lines in place, to
// the same reading done on the lines split and joined again.
func FuzzLenientFront(f *testing.F) {
	for _, seed := range fastFrontCases {
		f.Add(seed.front)
	}
	f.Fuzz(func(t *testing.T, front string) {
		got, gotOK := lenientFront(front)
		want, wantOK := lenientFrontSplit(front)
		if gotOK != wantOK || gotOK && nodeString(got) != nodeString(want) {
			t.Fatalf("lenientFront(%q) = %v %s, want %v %s", front, gotOK, nodeString(got), wantOK, nodeString(want))
		}
	})
}

// lenientFrontSplit is lenientFront on the lines split and joined again.
func lenientFrontSplit(front string) (*yaml.Node, bool) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	var cur []string
	var key *yaml.Node
	flush := func() {
		if key != nil {
			m.Content = append(m.Content, key, lenientValue(key.Value, strings.Join(cur, "\n"), key.Line))
		}
	}
	examples := 0
	for i, line := range strings.Split(front, "\n") {
		name, value, isKey := frontKey(line)
		if isKey && examples == 0 && claudeKeys[name] {
			flush()
			key = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: i + 1}
			cur = []string{value}
		} else if key != nil {
			cur = append(cur, line)
		} else if strings.TrimSpace(line) != "" && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			return nil, false
		}
		examples += strings.Count(line, "<example>") - strings.Count(line, "</example>")
		examples = max(examples, 0)
	}
	flush()
	return m, len(m.Content) > 0
}
