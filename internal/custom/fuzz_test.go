package custom

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse feeds arbitrary bytes to Parse as either kind: it returns a
// document or an Issue, never panics, and a document's tools are never
// empty strings.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"plain body",
		"---\ndescription: d\nargument-hint: [a] [b]\nallowed-tools: Read, Bash(git diff:*)\nmodel: m\n---\nbody $ARGUMENTS $1",
		"---\r\nname: x\r\ntools: [Read, Grep]\r\n---\r\nprompt\r\n",
		"---\ndescription: d\n",
		"---\n- a\n---\n",
		"---\ndescription: {a: b}\n---\n",
		"---\nx: &a [*a]\n---\n",
		"---\nargument-hint: [it's]\n---\n",
		"\uFEFF---\n---\n",
		"---\x00\n---\n",
		"---\n\xff\n---\n",
		"---\nname: a\ndescription: Use it. Examples:\n\n<example>\nuser: \"x\"\n</example>\ntools: [Read\n---\nbody",
		"---\ndescription: a: b: c\ncolor: <example>\nmodel: x\n</example>\nallowed_tools: Read\n---\n",
		"---\ntools:\n- LS\n- TodoWrite\n- MultiEdit(src/**)\n---\n",
		"---\nname: s\ndisable-model-invocation: yes\nallowed-tools: Bash(git:*)\n---\n# Skill\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range []Kind{KindCommand, KindAgent, KindSkill} {
			doc, warns, err := Parse(data, k)
			if err != nil {
				if _, ok := err.(Issue); !ok {
					t.Fatalf("error %T %v is not an Issue", err, err)
				}
				continue
			}
			for _, tool := range doc.Meta.Tools {
				if strings.TrimSpace(tool) == "" {
					t.Fatalf("empty tool in %q", doc.Meta.Tools)
				}
			}
			mapped, _ := MapTools(doc.Meta.Tools)
			for _, tool := range mapped {
				if strings.TrimSpace(tool) == "" {
					t.Fatalf("empty mapped tool in %q", mapped)
				}
			}
			if s := Summary(doc.Meta.Description, 100); utf8.RuneCountInString(s) > 100 || strings.ContainsAny(s, "\n\t") {
				t.Fatalf("summary %q", s)
			}
			for _, w := range warns {
				if w.Line < 1 || w.Msg == "" {
					t.Fatalf("warning %+v", w)
				}
			}
			if !utf8.ValidString(doc.Body) {
				t.Fatalf("body %q is not UTF-8", doc.Body)
			}
		}
	})
}

// FuzzExpand checks that arguments are put in as they are: with a body of
// only $ARGUMENTS the result is the trimmed arguments.
func FuzzExpand(f *testing.F) {
	f.Add("Review $ARGUMENTS and $1", "a b")
	f.Add("$", "$ARGUMENTS")
	f.Fuzz(func(t *testing.T, body, args string) {
		_ = Expand(body, args, strings.Fields(args))
		if got := Expand("$ARGUMENTS", args, nil); got != strings.TrimSpace(args) {
			t.Fatalf("Expand($ARGUMENTS, %q) = %q", args, got)
		}
	})
}
