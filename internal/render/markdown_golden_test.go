package render

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// answerDoc is a representative answer: every element, wide text and
// escapes from the model.
func answerDoc(tb testing.TB) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "markdown", "answer.md"))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// TestMarkdownGolden compares the rendering of the representative answer,
// with and without colour, at widths 40 and 80, with its golden file.
func TestMarkdownGolden(t *testing.T) {
	doc := answerDoc(t)
	for _, width := range []int{40, 80} {
		for _, color := range []bool{false, true} {
			name := fmt.Sprintf("answer_w%d", width)
			if color {
				name += "_color"
			}
			t.Run(name, func(t *testing.T) {
				got := NewMarkdown(MarkdownOptions{Width: width, Color: color}).Render(doc)
				file := filepath.Join("testdata", "markdown", name+".golden")
				if *update {
					if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(file)
				if err != nil {
					t.Fatalf("%v (run go test ./internal/render -update)", err)
				}
				if got != string(want) {
					t.Errorf("%s differs from its golden file:\n got:\n%s\nwant:\n%s", name, got, want)
				}
			})
		}
	}
}
