package render

import (
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// largeOutputs are 100,000-byte outputs (the default output cap): source
// lines, one line without a break, and mixed CJK text with escapes.
func largeOutputs() map[string]string {
	const size = tools.DefaultMaxOutputSize
	fill := func(unit string) string {
		s := strings.Repeat(unit, size/len(unit)+1)
		for len(s) > size {
			s = s[:len(s)-1]
		}
		return strings.ToValidUTF8(s, "")
	}
	return map[string]string{
		"lines":       fill("\tfunc (r *Renderer) Result(tool string, res tools.Result) string { // 80 cols\n"),
		"single_line": fill("abcdefghij"),
		"words":       fill("lorem ipsum dolor sit amet "),
		"unicode":     fill("日本語のテキスト 😀 \x1b[31mred\x1b[0m ok\n"),
	}
}

// BenchmarkResultLarge draws the result panel of a 100,000-byte output.
func BenchmarkResultLarge(b *testing.B) {
	r := New(Options{})
	for name, out := range largeOutputs() {
		b.Run(name, func(b *testing.B) {
			res := tools.OK(out)
			res.DurationMS = 12
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				_ = r.Result("Read", res, tools.Presentation{})
			}
		})
	}
}

// BenchmarkToolList draws the wireframe's tool list, the shell's most
// frequent panel after results.
func BenchmarkToolList(b *testing.B) {
	r := New(Options{Color: true})
	ds := wireframeTools()
	b.ReportAllocs()
	for b.Loop() {
		_ = r.ToolList(ds)
	}
}
