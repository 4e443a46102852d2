package render

import (
	"strings"
	"testing"
)

// largeAnswer is a 20 KB answer: the representative document (code blocks,
// nested lists, a table, a quote, wide text) repeated.
func largeAnswer(tb testing.TB) string {
	doc := answerDoc(tb)
	return strings.Repeat(doc+"\n", 20_000/len(doc)+1)
}

// BenchmarkMarkdownRender renders a whole 20 KB answer.
func BenchmarkMarkdownRender(b *testing.B) {
	doc := largeAnswer(b)
	for _, c := range []struct {
		name  string
		color bool
	}{{"plain", false}, {"color", true}} {
		b.Run(c.name, func(b *testing.B) {
			m := NewMarkdown(MarkdownOptions{Width: 80, Color: c.color})
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				_ = m.Render(doc)
			}
		})
	}
}

// BenchmarkMarkdownStream streams the same answer in pieces of 4 bytes, about
// a model's token.
func BenchmarkMarkdownStream(b *testing.B) {
	doc := largeAnswer(b)
	m := NewMarkdown(MarkdownOptions{Width: 80, Color: true})
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		s := m.Stream()
		for i := 0; i < len(doc); i += 4 {
			_ = s.Write(doc[i:min(i+4, len(doc))])
		}
		_ = s.Flush()
	}
}

// BenchmarkNewMarkdown measures building a renderer (styles and parser),
// paid once per start of forge.
func BenchmarkNewMarkdown(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = NewMarkdown(MarkdownOptions{Width: 80, Color: true})
	}
}
