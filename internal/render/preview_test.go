package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/tools"
)

func TestPreviewHead(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want []string
		more int
	}{
		{name: "empty", text: "", want: nil},
		{name: "only blank lines", text: "\n \n\n", want: nil},
		{name: "one line", text: "ok\n", want: []string{"ok"}},
		{name: "four lines, all shown", text: "1\n2\n3\n4\n", want: []string{"1", "2", "3", "4"}},
		{name: "five lines: the fifth is shown rather than counted", text: "1\n2\n3\n4\n5", want: []string{"1", "2", "3", "4", "5"}},
		{name: "six lines: two counted", text: "1\n2\n3\n4\n5\n6\n", want: []string{"1", "2", "3", "4"}, more: 2},
		{name: "many lines", text: strings.Repeat("x\n", 100000), want: []string{"x", "x", "x", "x"}, more: 99996},
		{name: "blank lines inside are kept", text: "a\n\nb\n", want: []string{"a", "", "b"}},
		{name: "a long line is cut to the width", text: strings.Repeat("abcdefghij", 5), want: []string{"abcdefghijabcdefghi…"}},
		{name: "escapes are shown, not obeyed", text: "\x1b[31mred\x1b[0m\x07", want: []string{"^[[31mred^[[0m^G"}},
		{name: "a progress bar shows its last state", text: "10%\r50%\r100%\r\ndone", want: []string{"100%", "done"}},
		{name: "tabs become spaces", text: "a\tb", want: []string{"a       b"}},
		{name: "wide characters are cut between them", text: strings.Repeat("界", 15), want: []string{"界界界界界界界界界…"}},
		{name: "invalid UTF-8 is replaced", text: "a\xffb", want: []string{"a\ufffdb"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, more := previewHead(tc.text, previewLines, 20)
			if strings.Join(got, "|") != strings.Join(tc.want, "|") || more != tc.more {
				t.Errorf("previewHead = %q, +%d; want %q, +%d", got, more, tc.want, tc.more)
			}
			for _, l := range got {
				if w := textWidth(l); w > 20 {
					t.Errorf("line %q is %d cells wide, more than 20", l, w)
				}
			}
		})
	}
}

// TestCallLinesGolden compares the lines finished calls leave on a
// terminal (without colour, 60 columns) with their golden file.
func TestCallLinesGolden(t *testing.T) {
	r := New(Options{Width: 60})
	edit := change("package main\n\nfunc main() {\n\tprintln(\"hello\")\n}\n",
		"package main\n\nfunc main() {\n\tprintln(\"hello\")\n\tprintln(\"world\")\n}\n")
	rewrite := change(lines(30), strings.ReplaceAll(lines(30), "line", "LINE"))
	cases := []struct {
		name string
		c    callPreview
	}{
		{"output of a few lines", callPreview{Glyph: "✓", Headline: "Bash(ls)", Output: "go.mod\nmain.go\n"}},
		{"a long output", callPreview{Glyph: "✓", Headline: "Bash(seq 100)", Output: lines(100)}},
		{"no output", callPreview{Glyph: "✓", Headline: "Bash(true)", Output: ""}},
		{"a file read", callPreview{Glyph: "✓", Headline: "Read(main.go)", Brief: "120 lines", Output: "     1\tpackage main\n"}},
		{"an edit applied without a question", callPreview{Glyph: "✓", Headline: "Edit(main.go)", Change: &edit}},
		{"an edit approved after its diff was shown: its counts", callPreview{Glyph: "✓", Headline: "Edit(main.go)",
			Change: &edit, ChangeSeen: true}},
		{"a long rewrite", callPreview{Glyph: "✓", Headline: "Write(f.txt)", Change: &rewrite}},
		{"a new file", callPreview{Glyph: "✓", Headline: "Write(new.txt)",
			Change: &tools.Change{Path: "/p/new.txt", Created: true, New: []byte("one\ntwo\n")}}},
		{"a change forge cannot show", callPreview{Glyph: "✓", Headline: "Write(blob.bin)",
			Change: &tools.Change{Path: "/p/blob.bin", Unshown: "the file is binary (9 bytes)"}}},
		{"a new, empty file", callPreview{Glyph: "✓", Headline: "Write(empty)", Change: &tools.Change{Path: "/p/empty", Created: true}}},
		{"a cancelled command keeps its last lines", callPreview{Glyph: "⊘", Headline: "Bash(make)", Note: ": cancelled",
			Tail: []string{"step 7", "step 8", "step 9", "step 10"}, TailMore: 6}},
		{"the run's answer is shown once, by the run", callPreview{Glyph: "✓", Headline: "task_completion", Bare: true, Output: "All done."}},
		{"an escape in the output", callPreview{Glyph: "✓", Headline: "Bash(cat x)", Output: "\x1b]0;pwned\x07title\n"}},
		{"a long headline is cut to the width", callPreview{Glyph: "✓",
			Headline: "Bash(go test -race -count=1 ./internal/agent/... ./internal/render/...)", Output: "ok\n"}},
		{"a long sandboxed command: cut, its tag kept", callPreview{Glyph: "✓", Sandboxed: true,
			Headline: "Bash(go test -race -count=1 ./internal/agent/... ./internal/render/...)", Output: "ok\n"}},
		{"a short sandboxed command", callPreview{Glyph: "✓", Sandboxed: true, Headline: "Bash(ls)", Output: "go.mod\n"}},
		{"a long headline with a note", callPreview{Glyph: "✓",
			Headline: "Read(internal/render/testdata/markdown/answer_w80_color.golden)", Brief: "1,204 lines"}},
		{"a long headline with an edit's counts", callPreview{Glyph: "✓",
			Headline: "Edit(internal/render/testdata/markdown/answer_w80_color.golden)", Change: &edit}},
		{"a note longer than the line goes on below", callPreview{Glyph: "⊘", Headline: "Bash(rm -rf build)",
			Note: ": denied by you: use make clean instead, it keeps the cache and the generated files", Bare: true}},
		{"a failed command: its last lines", failedPreview("Bash(go test ./...)",
			tools.Result{Status: tools.StatusFailed, DurationMS: 3210},
			&tools.Failure{Exit: "exit 1", Error: "=== RUN   TestGreet\n    greet_test.go:7: Greet() = \"Hello, World!\", want \"Hello, forge!\"\n" +
				"--- FAIL: TestGreet (0.00s)\nFAIL\nFAIL\texample.com/greet\t0.003s\nFAIL\n[notes]\n[more notes]"})},
		{"a failed command without output", failedPreview("Bash(false)", tools.Result{Status: tools.StatusFailed, DurationMS: 12},
			&tools.Failure{Exit: "exit 1"})},
		{"a failed command, its few lines", failedPreview("Bash(make)", tools.Result{Status: tools.StatusFailed, DurationMS: 65000},
			&tools.Failure{Exit: "killed by SIGKILL", Error: "cc -c a.c\nKilled\n"})},
	}
	var b strings.Builder
	for _, tc := range cases {
		b.WriteString("== " + tc.name + "\n")
		for _, l := range r.callLines(tc.c, 60) {
			if strings.Contains(l, "\x1b") {
				t.Errorf("%s: an escape in %q", tc.name, l)
			}
			// Every line fits: the call's line is cut or goes on below,
			// its preview is cut.
			if w := textWidth(l); w > 60 {
				t.Errorf("%s: %q is %d cells wide", tc.name, l, w)
			}
			b.WriteString(l + "\n")
		}
	}
	golden(t, "calls.golden", b.String())
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	file := filepath.Join("testdata", name)
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
}

func TestCallLinesColor(t *testing.T) {
	r := New(Options{Width: 60, Color: true})
	edit := change("a\nb\n", "a\nB\n")
	got := strings.Join(r.callLines(callPreview{Glyph: "✓", Headline: "Edit(f)", Change: &edit}, 60), "\n")
	for _, want := range []string{r.paint(r.st.success, "+1"), r.paint(r.st.failure, "−1"), r.paint(r.st.success, "+B"),
		r.paint(r.st.failure, "-b"), r.paint(r.st.success, "✓")} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%q", want, got)
		}
	}
}

func TestPreviewTail(t *testing.T) {
	for _, tc := range []struct {
		text   string
		want   string
		before int
	}{
		{"", "", 0},
		{"one\n", "one", 0},
		{"1\n2\n3\n4\n5\n6\n", "1|2|3|4|5|6", 0},
		{"1\n2\n3\n4\n5\n6\n7\n", "1|2|3|4|5|6|7", 0}, // one more is shown rather than counted
		{"1\n2\n3\n4\n5\n6\n7\n8\n\n\n", "3|4|5|6|7|8", 2},
	} {
		got, before := previewTail(tc.text, 6)
		if strings.Join(got, "|") != tc.want || before != tc.before {
			t.Errorf("previewTail(%q) = %q, %d before; want %q, %d", tc.text, got, before, tc.want, tc.before)
		}
	}
}

func TestLastCall(t *testing.T) {
	edit := change("a\nb\n", "a\nB\nc\n")
	for _, tc := range []struct {
		name string
		r    agent.CallResult
		want string
	}{
		{"the whole output", agent.CallResult{Status: agent.StatusSuccess, Output: lines(6)},
			"✓ Bash(x)\n" + strings.TrimSuffix(lines(6), "\n")},
		{"no output", agent.CallResult{Status: agent.StatusSuccess}, "✓ Bash(x)\n(no output)"},
		{"a failure", agent.CallResult{Status: agent.StatusFailed, Output: "Error: exit 1"}, "✗ Bash(x)\nError: exit 1"},
		{"a cancelled call", agent.CallResult{Status: agent.StatusCancelled, Output: "Error: cancelled"}, "⊘ Bash(x)\nError: cancelled"},
		{"the whole diff of an edit", agent.CallResult{Status: agent.StatusSuccess, Output: "updated", Change: &edit},
			"✓ Bash(x) +2 −1\n--- /p/f\n+++ /p/f\n@@ -1,2 +1,3 @@\n a\n-b\n+B\n+c"},
		{"the whole diff of an edit the question showed", agent.CallResult{Status: agent.StatusSuccess, Output: "updated",
			Change: &edit, ChangeSeen: true}, "✓ Bash(x) +2 −1\n--- /p/f\n+++ /p/f\n@@ -1,2 +1,3 @@\n a\n-b\n+B\n+c"},
	} {
		if got := LastCall("Bash(x)", &tc.r); got != tc.want {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.name, got, tc.want)
		}
	}
}

func TestChangeCounts(t *testing.T) {
	for _, tc := range []struct {
		c          tools.Change
		add, remov int
	}{
		{change("a\nb\n", "a\nB\n"), 1, 1},
		{change("a\n", "a\nb\nc\n"), 2, 0},
		{change("a\nb\nc\n", "c\n"), 0, 2},
		{tools.Change{Path: "/p/f", Created: true, New: []byte("1\n2\n3")}, 3, 0},
		{change(lines(20000), ""), 0, 20000}, // counted whole where the diff is cut
	} {
		_, a, r := changeDiff(tc.c)
		if a != tc.add || r != tc.remov {
			t.Errorf("%q -> %q: +%d −%d, want +%d −%d", clip(string(tc.c.Old), 20), clip(string(tc.c.New), 20), a, r, tc.add, tc.remov)
		}
	}
}
