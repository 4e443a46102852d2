package render

import (
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestMarkdownElements renders each element without colour, where the
// output is plain text that can be compared exactly.
func TestMarkdownElements(t *testing.T) {
	cases := []struct {
		name  string
		width int
		in    string
		want  string
	}{
		{"empty", 40, "", ""},
		{"blank lines only", 40, "\n\n  \n", ""},
		{"heading levels keep their markers", 40,
			"# One\n## Two\n###### Six",
			"# One\n\n## Two\n\n###### Six\n"},
		{"paragraph wraps at the width", 20,
			"one two three four five six seven eight nine",
			"one two three four\nfive six seven eight\nnine\n"},
		{"soft line breaks join, hard ones break", 40,
			"one\ntwo  \nthree\\\nfour",
			"one two\nthree\nfour\n"},
		{"emphasis keeps its markers without colour", 60,
			"**bold**, *italic*, _also_, ~~gone~~ and `code`",
			"**bold**, *italic*, *also*, ~~gone~~ and `code`\n"},
		{"code span keeps backslashes and joins lines", 40,
			"`a\\*b\nc`",
			"`a\\*b c`\n"},
		{"link shows its URL", 60,
			"see [the docs](https://go.dev/doc) now",
			"see the docs (https://go.dev/doc) now\n"},
		{"link whose text is its URL", 60,
			"[https://go.dev](https://go.dev) and <https://go.dev/blog>",
			"https://go.dev and https://go.dev/blog\n"},
		{"image", 60,
			"![a gopher](gopher.png)",
			"image: a gopher (gopher.png)\n"},
		{"escapes and entities", 60,
			"\\*not em\\* &amp; &lt;b&gt; &copy; &#65;&#x42; &bogus;",
			"*not em* & <b> © AB &bogus;\n"},
		{"fenced code is indented and never wrapped", 20,
			"```go\nfunc main() { fmt.Println(\"a long line\") }\n\n\tx := 1\n```",
			"  func main() { fmt.Println(\"a long line\") }\n\n          x := 1\n"},
		{"indented code", 40,
			"text\n\n    a := 1\n    b := 2",
			"text\n\n  a := 1\n  b := 2\n"},
		{"bullet lists nest", 40,
			"- one\n- two\n  - inner\n    - deepest\n- three",
			"• one\n• two\n  ◦ inner\n    ▪ deepest\n• three\n"},
		{"numbered list keeps its start and aligns numbers", 40,
			"8. eight\n9. nine\n10. ten",
			" 8. eight\n 9. nine\n10. ten\n"},
		{"list item text wraps under its text", 20,
			"1. alpha beta gamma delta epsilon",
			"1. alpha beta gamma\n   delta epsilon\n"},
		{"task list", 40,
			"- [x] done\n- [ ] to do",
			"• [x] done\n• [ ] to do\n"},
		{"empty list item keeps its marker", 40,
			"-\n- b",
			"•\n• b\n"},
		{"block quote", 20,
			"> quoted text that wraps here\n>\n> second",
			"│ quoted text that\n│ wraps here\n│\n│ second\n"},
		{"nested quote", 40,
			"> a\n> > b",
			"│ a\n│\n│ │ b\n"},
		{"horizontal rule spans the width", 20,
			"---",
			strings.Repeat("─", 20) + "\n"},
		{"table aligned when it fits", 40,
			"| a | long header | n |\n|---|:---:|--:|\n| x | y | 10 |\n| wider | z | 2 |",
			"a     │ long header │  n\n" +
				"──────┼─────────────┼───\n" +
				"x     │      y      │ 10\n" +
				"wider │      z      │  2\n"},
		{"table one row per line when too wide", 20,
			"| name | description |\n|---|---|\n| forge | a tool system for agents |",
			"name | description\nforge | a tool\nsystem for agents\n"},
		{"raw HTML is shown as text", 40,
			"<details>\n<summary>more</summary>\n</details>\n\ninline <br> tag",
			"<details>\n<summary>more</summary>\n</details>\n\ninline <br> tag\n"},
		{"link reference definitions draw nothing", 40,
			"[x]: https://example.com\n\nafter",
			"after\n"},
		{"width clamps to its minimum", 1,
			"one two three four five six seven eight nine",
			"one two three four\nfive six seven eight\nnine\n"},
		{"wide characters wrap by cells", 20,
			"日本語のテキストを折り返します",
			"日本語のテキストを折\nり返します\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := NewMarkdown(MarkdownOptions{Width: c.width}).Render(c.in)
			if got != c.want {
				t.Errorf("Render(%q):\n got: %q\nwant: %q\n%s", c.in, got, c.want, got)
			}
		})
	}
}

// TestMarkdownBlocks covers how a text is cut into blocks, which the stream
// renders one at a time: numbering across blocks, continuations and fences.
func TestMarkdownBlocks(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"loose list numbered on across blocks",
			"1. a\n\n1. b\n\n1. c",
			"1. a\n\n2. b\n\n3. c\n"},
		{"loose list keeps its first number",
			"3. a\n\n7. b",
			"3. a\n\n4. b\n"},
		{"a paragraph between lists restarts the numbers",
			"1. a\n\ntext\n\n1. b",
			"1. a\n\ntext\n\n1. b\n"},
		{"another delimiter starts another list",
			"1. a\n\n1) b",
			"1. a\n\n1) b\n"},
		{"a list after a cut continues from its number",
			"2. a\n\n   more of a\n\n3. b",
			"2. a\n\n   more of a\n\n3. b\n"},
		{"indented lines continue a list item",
			"- item\n\n  ```sh\n  make\n\n  make test\n  ```\n\n- next",
			"• item\n\n    make\n\n    make test\n\n• next\n"},
		{"blank lines inside a fence do not cut it",
			"```\na\n\n\nb\n```\nafter",
			"  a\n\n\n  b\n\nafter\n"},
		{"a longer fence is closed only by as long a run",
			"````\n```\n\nx\n````",
			"  ```\n\n  x\n"},
		{"an unclosed fence runs to the end",
			"```\ncode\n\nmore",
			"  code\n\n  more\n"},
		{"a fence inside a quote",
			"> ```\n> a\n>\n> b\n> ```",
			"│   a\n│\n│   b\n"},
		{"inline code at a line start is not a fence",
			"```a``` b\n\nc",
			"`a` b\n\nc\n"},
		{"a heading ends its block",
			"# Title\ntext right after",
			"# Title\n\ntext right after\n"},
		{"CRLF line endings",
			"# T\r\n\r\npara\r\nline\r\n",
			"# T\n\npara line\n"},
	}
	m := NewMarkdown(MarkdownOptions{Width: 40})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := m.Render(c.in); got != c.want {
				t.Errorf("Render(%q):\n got: %q\nwant: %q\n%s", c.in, got, c.want, got)
			}
		})
	}
}

// hostile holds every way a model could try to reach the terminal: raw ESC
// and CSI, C1 controls, bidi overrides, BEL, escapes written as entities, in
// every kind of element.
const hostile = "# head \x1b[2J\n\n" +
	"text \x1b]0;title\x07 and \u009b2J and \u202eevil &#27;[31m &#x9b;\n\n" +
	"`code \x1b[31m`\n\n" +
	"```\nblock \x1b[31mred\x1b[0m\r\n```\n\n" +
	"[link \x1b[1m](http://x/\x1b[2J)\n\n" +
	"| a \x1b[7m | b |\n|---|---|\n| \x1b[5m | &#27; |\n\n" +
	"- item \x1b[4m\n> quote \x1b[3m\n\n" +
	"<div>\x1b[8m</div>\n\n" +
	"<span \x1b[9m>\n"

// TestMarkdownSanitizes proves that no escape sequence from the model
// reaches the terminal: without colour the output has no ESC at all; with
// colour, removing forge's own styles leaves none.
func TestMarkdownSanitizes(t *testing.T) {
	for _, color := range []bool{false, true} {
		m := NewMarkdown(MarkdownOptions{Width: 60, Color: color})
		out := m.Render(hostile)
		if color {
			if !strings.Contains(out, "\x1b[") {
				t.Fatalf("colour output has no styles:\n%q", out)
			}
			out = stripStyles(m, out)
		}
		for _, bad := range []string{"\x1b", "\u009b", "\u202e", "\a", "\r"} {
			if strings.Contains(out, bad) {
				t.Errorf("color=%v: %q reached the output:\n%q", color, bad, out)
			}
		}
		if !strings.Contains(out, "^[[2J") || !strings.Contains(out, "^[[31m") {
			t.Errorf("color=%v: escapes are not shown as text:\n%s", color, out)
		}
	}
}

// stripStyles removes the sequences m emits itself.
func stripStyles(m *Markdown, s string) string {
	seqs := []string{m.reset}
	for _, o := range m.open {
		seqs = append(seqs, o)
	}
	for _, q := range seqs {
		if q != "" {
			s = strings.ReplaceAll(s, q, "")
		}
	}
	return s
}

// TestMarkdownColor checks that styles are emitted with colour, and that
// they never change the text or its wrapping.
func TestMarkdownColor(t *testing.T) {
	doc := answerDoc(t)
	for _, w := range []int{40, 80} {
		plain := NewMarkdown(MarkdownOptions{Width: w}).Render(doc)
		color := NewMarkdown(MarkdownOptions{Width: w, Color: true}).Render(doc)
		if strings.Contains(plain, "\x1b") {
			t.Errorf("width %d: escape code without colour", w)
		}
		// Markers of emphasis and code are drawn only without colour, and
		// take room: compare the words, without the quote bars and rules
		// whose place and length follow the wrapping.
		unmark := strings.NewReplacer("*", "", "~~", "", "`", "", "│", "", "─", "", "┼", "")
		want := strings.Fields(unmark.Replace(plain))
		got := strings.Fields(unmark.Replace(ansi.Strip(color)))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("width %d: the words differ with colour:\n%q\n%q", w, got, want)
		}
	}
	m := NewMarkdown(MarkdownOptions{Color: true})
	for in, want := range map[string]string{
		"# h":        "\x1b[1;35m# h\x1b[0m",
		"**b**":      "\x1b[1mb\x1b[0m",
		"`c`":        "\x1b[36mc\x1b[0m",
		"~~s~~":      "\x1b[9ms\x1b[0m",
		"***both***": "\x1b[1m\x1b[3mboth\x1b[0m",
	} {
		if got := m.Render(in); !strings.Contains(got, want) {
			t.Errorf("Render(%q) = %q, want it to hold %q", in, got, want)
		}
	}
}

// TestMarkdownWidth checks that wrapped text never passes the width, in
// nested containers and with colour, measured as the terminal does.
func TestMarkdownWidth(t *testing.T) {
	doc := "> " + strings.Repeat("word ", 60) + "\n\n" +
		"1. " + strings.Repeat("**bold** and `code` ", 20) + "\n" +
		"   - " + strings.Repeat("日本語 ", 30) + "\n\n" +
		"| a | b |\n|---|---|\n| " + strings.Repeat("cell ", 30) + " | x |\n"
	for _, w := range []int{20, 33, 40, 80, 120} {
		for _, color := range []bool{false, true} {
			out := NewMarkdown(MarkdownOptions{Width: w, Color: color}).Render(doc)
			for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if got := ansi.StringWidth(l); got > w {
					t.Errorf("width %d colour %v: line of %d cells: %q", w, color, got, l)
				}
			}
		}
	}
}

// TestMarkdownConcurrent proves one Markdown can render several answers at
// once (run with -race): every rendering equals the sequential one.
func TestMarkdownConcurrent(t *testing.T) {
	m := NewMarkdown(MarkdownOptions{Width: 60, Color: true})
	doc := answerDoc(t)
	want := m.Render(doc)
	got := make([]string, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = m.Render(doc) })
	}
	wg.Wait()
	for i, g := range got {
		if g != want {
			t.Errorf("rendering %d differs from the sequential one", i)
		}
	}
}
