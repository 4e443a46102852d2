package render

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestMarkdownStreamWrites checks what each Write returns: every block that
// the delta completed, and nothing of the block still open.
func TestMarkdownStreamWrites(t *testing.T) {
	steps := []struct{ delta, want string }{
		{"# Ti", ""},
		{"tle\n", ""},            // a heading may be followed by anything
		{"Some", "# Title\n"},    // flush-left text: the heading is done
		{" text\n\n", ""},        // blank: the paragraph may go on
		{"  ", ""},               // indented or blank: not yet known
		{"\n`", "\nSome text\n"}, // a fence, or anything flush left, ends it
		{"``go\nx := 1\n\n", ""}, // blank lines inside a fence
		{"y := 2\n``", ""},       // half a closing fence
		{"`\n", ""},              // closed: the next line decides
		{"- a\n", "\n  x := 1\n\n  y := 2\n"},
		{"- b", ""},
	}
	s := NewMarkdown(MarkdownOptions{Width: 40}).Stream()
	for i, st := range steps {
		if got := s.Write(st.delta); got != st.want {
			t.Fatalf("step %d: Write(%q) = %q, want %q", i, st.delta, got, st.want)
		}
	}
	if got, want := s.Flush(), "\n• a\n• b\n"; got != want {
		t.Errorf("Flush() = %q, want %q", got, want)
	}
}

// TestMarkdownStreamFlushResets proves that Flush draws an unterminated
// last line and an unclosed fence, and leaves the stream ready for a new
// answer: no separator, no list numbering carried over.
func TestMarkdownStreamFlushResets(t *testing.T) {
	m := NewMarkdown(MarkdownOptions{Width: 40})
	s := m.Stream()
	if got := s.Write("1. a\n\n```\ncode"); got != "1. a\n" {
		t.Fatalf("Write = %q", got)
	}
	if got, want := s.Flush(), "\n  code\n"; got != want {
		t.Errorf("Flush() = %q, want %q", got, want)
	}
	if got := s.Flush(); got != "" {
		t.Errorf("second Flush() = %q, want nothing", got)
	}
	doc := "1. again\n\nend"
	if got, want := s.Write(doc)+s.Flush(), m.Render(doc); got != want {
		t.Errorf("after Flush the stream drew %q, want %q", got, want)
	}
}

// streamDocs are the seeds of the split property: every kind of block, and
// the places where cutting goes wrong (fences, lists, CRLF, wide text).
var streamDocs = []string{
	"",
	"plain",
	"# Title\ntext\n\n## Two\n\n- a\n- b\n\n1. x\n\n1. y\n\n   more\n\n1. z\n",
	"```go\nfunc f() {\n\n\treturn\n}\n```\nafter\n\n~~~\n```\n\n~~~\n",
	"> quote\n>\n> ```\n> a\n>\n> ```\n\nlazy\ncontinued\n\n    indented\n\n    code\n",
	"| a | b |\n|:--|--:|\n| 1 | 2 |\n\n- [x] done\n- [ ] todo\n\n---\n\n***\n",
	"CRLF\r\n\r\n# H\r\nx\r\n\r\n```\r\na\r\n\r\n```\r\n",
	"日本語の **テキスト** 😀\n\n`code`, [link](http://x), ~~gone~~ &amp; \\*\n",
	"\x1b[31mred\x1b[0m \u009b \u202e \xff\xfe\n\n```\n\x1b]0;t\x07\n```\n",
	"- a\n\n  b\n\n  - c\n\n    d\n\n- e\n\n<div>\nhtml\n</div>\n\n[r]: http://x\n\n[r]\n",
	"1. one\n   ```\n   code\n\n   more\n   ```\n2. two\n\n3) three\n\n4) four\n",
	"    \n\n  \n\t\nx\n\n\n\n  y\n",
}

// renderSplit feeds doc to a stream cut at the given points.
func renderSplit(s *MarkdownStream, doc string, cuts []int) string {
	var b strings.Builder
	prev := 0
	for _, c := range cuts {
		b.WriteString(s.Write(doc[prev:c]))
		prev = c
	}
	b.WriteString(s.Write(doc[prev:]))
	b.WriteString(s.Flush())
	return b.String()
}

// randomCuts returns sorted cut points in doc, as many as a model's tokens
// would make, from a deterministic source.
func randomCuts(doc string, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	if len(doc) == 0 {
		return nil
	}
	var cuts []int
	for i := rng.IntN(8); i < len(doc); i += 1 + rng.IntN(12) {
		cuts = append(cuts, i)
	}
	return cuts
}

// FuzzMarkdownStream proves that streaming changes nothing: a document cut
// at random points (inside words, UTF-8 characters, fences and CRLF) renders
// exactly as the whole document. It also checks what every rendering must
// hold: valid UTF-8, no escape code without colour, and with colour none
// but forge's own.
func FuzzMarkdownStream(f *testing.F) {
	for i, d := range streamDocs {
		f.Add(d, uint64(i), uint8(40), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, doc string, seed uint64, width uint8, color bool) {
		m := NewMarkdown(MarkdownOptions{Width: int(width), Color: color})
		whole := m.Render(doc)
		s := m.Stream()
		for _, cuts := range [][]int{randomCuts(doc, seed), everyByte(doc)} {
			if got := renderSplit(s, doc, cuts); got != whole {
				t.Fatalf("streamed in %d pieces:\n%q\nwhole:\n%q", len(cuts)+1, got, whole)
			}
		}
		if !utf8.ValidString(whole) {
			t.Fatalf("invalid UTF-8 in %q", whole)
		}
		out := whole
		if color {
			out = stripStyles(m, whole)
		}
		if strings.ContainsAny(out, "\x1b\u009b\r") {
			t.Fatalf("escape from the document in %q", out)
		}
	})
}

// everyByte cuts doc between every two bytes (short documents only: the
// fuzzer's long inputs get random cuts).
func everyByte(doc string) []int {
	if len(doc) > 2000 {
		return nil
	}
	cuts := make([]int, 0, len(doc))
	for i := 1; i < len(doc); i++ {
		cuts = append(cuts, i)
	}
	return cuts
}
