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
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, k := range []Kind{KindCommand, KindAgent} {
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
