package custom

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		kind     Kind
		in       string
		meta     Meta
		body     string
		warns    []Issue
		errLine  int    // > 0: Parse fails at this line
		errWords string // and says this
	}{
		{name: "no front matter", in: "Review the code.\n", body: "Review the code."},
		{name: "empty file", in: ""},
		{name: "empty body", in: "---\ndescription: d\n---\n", meta: Meta{Description: "d"}},
		{name: "empty front matter", in: "---\n---\nbody", body: "body"},
		{name: "comment-only front matter", in: "---\n# nothing\n---\nbody", body: "body"},
		{
			name: "every command key",
			in: "---\ndescription: Review a change\nargument-hint: [path] [focus]\nallowed-tools: Read, Grep, Bash(git diff:*, git log:*)\n" +
				"model: gpt-5-mini\n---\n\nReview $ARGUMENTS.\n",
			meta: Meta{Description: "Review a change", ArgumentHint: "[path] [focus]", Model: "gpt-5-mini",
				Tools: []string{"Read", "Grep", "Bash(git diff:*, git log:*)"}, ToolsSet: true},
			body: "Review $ARGUMENTS.",
		},
		{
			name: "CRLF",
			in:   "---\r\ndescription: crlf\r\nallowed-tools: [Read, \"Bash(ls:*)\"]\r\n---\r\nline one\r\nline two\r\n",
			meta: Meta{Description: "crlf", Tools: []string{"Read", "Bash(ls:*)"}, ToolsSet: true},
			body: "line one\nline two",
		},
		{name: "BOM", in: "\uFEFF---\ndescription: bom\n---\nx", meta: Meta{Description: "bom"}, body: "x"},
		{name: "hint as a YAML list", in: "---\nargument-hint: [message]\n---\n", meta: Meta{ArgumentHint: "[message]"}},
		{name: "empty tool list", kind: KindAgent, in: "---\ntools: []\n---\n", meta: Meta{Tools: []string{}, ToolsSet: true}},
		{name: "null tools", kind: KindAgent, in: "---\ntools:\n---\n", meta: Meta{Tools: []string{}, ToolsSet: true}},
		{
			name: "agent keys",
			kind: KindAgent,
			in:   "---\nname: x\ndescription: finds things\ntools: Read, Grep\nmodel: inherit\n---\nYou find things.",
			meta: Meta{Name: "x", Description: "finds things", Model: "inherit", Tools: []string{"Read", "Grep"}, ToolsSet: true},
			body: "You find things.",
		},
		{
			name: "keys forge does not read are ignored silently",
			in:   "---\ndescription: d\ncolor: blue\nname: n\nversion: 1.0\ntags: [a, b]\n---\nb",
			meta: Meta{Description: "d"},
			body: "b",
		},
		{
			name:  "a misspelt key warns",
			in:    "---\ndescription: d\nallowed_tools: Read\n---\nb",
			meta:  Meta{Description: "d"},
			body:  "b",
			warns: []Issue{{Line: 3, Msg: `unknown key "allowed_tools" ignored (did you mean "allowed-tools"?)`}},
		},
		{
			name: "a description over several lines with examples",
			kind: KindAgent,
			in: "---\nname: agent-creator\ndescription: Use this agent when the user asks to \"create an agent\". Examples:\n\n<example>\n" +
				"Context: User wants an agent\nuser: \"Create an agent\"\nassistant: \"I'll use it.\"\n</example>\nmodel: sonnet\ncolor: magenta\ntools: [\"Write\", \"Read\"]\n---\nYou create agents.",
			meta: Meta{Name: "agent-creator", Model: "sonnet", Tools: []string{"Write", "Read"}, ToolsSet: true,
				Description: "Use this agent when the user asks to \"create an agent\". Examples:\n\n<example>\nContext: User wants an agent\n" +
					"user: \"Create an agent\"\nassistant: \"I'll use it.\"\n</example>"},
			body: "You create agents.",
		},
		{
			name: "a one-line description with colons and escaped line breaks",
			kind: KindAgent,
			in:   "---\nname: x\ndescription: Use it. Examples: <example>Context: a\\nuser: \"/hookify\"</example>\nmodel: inherit\ntools: Read, Grep\n---\nbody",
			meta: Meta{Name: "x", Model: "inherit", Tools: []string{"Read", "Grep"}, ToolsSet: true,
				Description: `Use it. Examples: <example>Context: a\nuser: "/hookify"</example>`},
			body: "body",
		},
		{
			name: "a quoted value read line by line",
			in:   "---\ndescription: 'it''s: quoted'\nargument-hint: <file>: the file\n---\n",
			meta: Meta{Description: "it's: quoted", ArgumentHint: "<file>: the file"},
		},
		{
			name: "a skill",
			kind: KindSkill,
			in:   "---\nname: pdf\ndescription: Fill PDF forms\nallowed-tools: Read, Bash(python3:*)\ndisable-model-invocation: true\nlicense: MIT\n---\nSteps.",
			meta: Meta{Name: "pdf", Description: "Fill PDF forms", Tools: []string{"Read", "Bash(python3:*)"}, ToolsSet: true, NoModel: true},
			body: "Steps.",
		},
		{
			name:  "repeated key",
			in:    "---\nmodel: a\nmodel: b\n---\n",
			meta:  Meta{Model: "b"},
			warns: []Issue{{Line: 3, Msg: `key "model" given twice; the last one counts`}},
		},
		{name: "three dashes later are body", in: "text\n---\nmore", body: "text\n---\nmore"},
		{name: "not closed", in: "---\ndescription: d\nbody\n", errLine: 1, errWords: "not closed"},
		{name: "only the opening line", in: "---", errLine: 1, errWords: "not closed"},
		{name: "bad YAML read line by line", in: "---\ndescription: d\nmodel: [a\n---\n", meta: Meta{Description: "d", Model: "[a"}},
		{name: "bad YAML indented, read line by line", in: "---\ndescription: d\n  bad: indent\n---\n", meta: Meta{Description: "d\n  bad: indent"}},
		{name: "bad YAML without a key", in: "---\n[a\n---\n", errLine: 2, errWords: "not valid YAML"},
		{name: "bad YAML with text before the keys", in: "---\nsome text: [\ndescription: d\n---\n", errLine: 3, errWords: "not valid YAML"},
		{name: "not a mapping", in: "---\n- a\n- b\n---\n", errLine: 2, errWords: "keys with values"},
		{name: "wrong type", in: "---\ndescription:\n  a: b\n---\n", errLine: 3, errWords: "description: must be text"},
		{name: "wrong list type", in: "---\nallowed-tools: {a: b}\n---\n", errLine: 2, errWords: "list of tools"},
		{name: "binary", in: "---\nx\x00y\n---\n", errWords: "not a text file"},
		{name: "not UTF-8", in: "caf\xe9", errWords: "not a text file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, warns, err := Parse([]byte(tc.in), tc.kind)
			if tc.errWords != "" {
				is, ok := err.(Issue)
				if !ok || is.Line != tc.errLine || !strings.Contains(is.Msg, tc.errWords) {
					t.Fatalf("error %#v, want line %d with %q", err, tc.errLine, tc.errWords)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(doc.Meta, tc.meta) || doc.Body != tc.body {
				t.Errorf("got %+v body %q, want %+v body %q", doc.Meta, doc.Body, tc.meta, tc.body)
			}
			if !reflect.DeepEqual(warns, tc.warns) {
				t.Errorf("warnings %+v, want %+v", warns, tc.warns)
			}
		})
	}
}

func TestSplitTools(t *testing.T) {
	for in, want := range map[string][]string{
		"":                                       nil,
		"Read":                                   {"Read"},
		" Read ,, Grep ,":                        {"Read", "Grep"},
		"Bash(git add:*), Bash(ls)":              {"Bash(git add:*)", "Bash(ls)"},
		"Bash(a, (b, c)), Read":                  {"Bash(a, (b, c))", "Read"},
		"Bash(unclosed, Read":                    {"Bash(unclosed, Read"},
		"mcp__github__*, WebFetch(domain:x.org)": {"mcp__github__*", "WebFetch(domain:x.org)"},
	} {
		if got := splitTools(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitTools(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExpand(t *testing.T) {
	for _, tc := range []struct {
		body, args, want string
	}{
		{"Review $ARGUMENTS now.", "src/ carefully", "Review src/ carefully now."},
		{"Fix issue #$1 with priority $2.", `42 "high one"`, "Fix issue #42 with priority high one."},
		{"Only $1 and $9.", "a", "Only a and ."},
		{"Price: $5 and $$ and $X", "", "Price:  and $$ and $X"},
		{"Review the code.", "src/", "Review the code.\n\nARGUMENTS: src/"},
		{"Review the code.", "", "Review the code."},
		{"", "x", "ARGUMENTS: x"},
		{"$ARGUMENTS", "$1 $ARGUMENTS", "$1 $ARGUMENTS"}, // values are not expanded again
		{"trailing $", "", "trailing $"},
	} {
		words := strings.Fields(tc.args)
		if strings.Contains(tc.args, `"`) {
			words = []string{"42", "high one"}
		}
		if got := Expand(tc.body, tc.args, words); got != tc.want {
			t.Errorf("Expand(%q, %q) = %q, want %q", tc.body, tc.args, got, tc.want)
		}
	}
}
