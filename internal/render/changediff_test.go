package render

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

func TestChangePreview(t *testing.T) {
	ten := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	for _, tc := range []struct {
		name     string
		c        tools.Change
		want     string // the whole preview, when set
		contains []string
		lacks    []string
	}{
		{name: "one line of ten", c: change(ten, strings.Replace(ten, "e\n", "E\n", 1)),
			want: "--- /p/f\n+++ /p/f\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h"},
		{name: "a new file", c: tools.Change{Path: "/p/f", Created: true, New: []byte("hello\nworld")},
			want: "--- /dev/null\n+++ /p/f\n@@ -0,0 +1,2 @@\n+hello\n+world\n\\ No newline at end of file"},
		{name: "a new empty file", c: tools.Change{Path: "/p/f", Created: true}, want: "/p/f: a new, empty file"},
		{name: "the same content", c: change("x\n", "x\n"), want: "/p/f: no change: the file already has this content"},
		{name: "unshown", c: tools.Change{Path: "/p/f", Unshown: "the file is binary (9 bytes)"},
			want: "/p/f: forge cannot show this change: the file is binary (9 bytes)."},
		{name: "a CRLF file keeps its endings out of sight", c: change("one\r\ntwo\r\n", "one\r\n2\r\n"),
			want: "--- /p/f\n+++ /p/f\n@@ -1,2 +1,2 @@\n one\n-two\n+2"},
		{name: "line endings that change are said", c: change("one\r\ntwo\r\n", "one\ntwo\n"),
			contains: []string{"(line endings change: CRLF to LF)\n", "-one␍\n-two␍\n+one\n+two"}},
		{name: "a CRLF line in an LF file is marked", c: change("one\ntwo\nthree\n", "one\ntwo\r\nthree\n"),
			want: "--- /p/f\n+++ /p/f\n@@ -1,3 +1,3 @@\n one\n-two\n+two␍\n three"},
		{name: "an LF line in a CRLF file is marked", c: change("one\r\ntwo\r\nthree\r\n", "one\r\ntwo\nthree\r\n"),
			want: "--- /p/f\n+++ /p/f\n@@ -1,3 +1,3 @@\n one␍\n-two␍\n+two\n three␍"},
		{name: "a carriage return inside a line cannot fake context", c: change("l1\nl2\n", "l1\nadded\r l2\nl2\n"),
			contains: []string{"+added␍ l2\n"}},
		{name: "a line added at the start", c: change("x\n", "y\nx\n"), want: "--- /p/f\n+++ /p/f\n@@ -1 +1,2 @@\n+y\n x"},
		{name: "a final newline removed", c: change("a\nb\n", "a\nb"),
			want: "--- /p/f\n+++ /p/f\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file"},
		{name: "far apart changes make two hunks", c: change(lines(40), strings.Replace(strings.Replace(lines(40), "line 2\n", "two\n", 1), "line 30\n", "thirty\n", 1)),
			contains: []string{"@@ -1,5 +1,5 @@\n", "@@ -27,7 +27,7 @@\n", "-line 30\n+thirty\n"}},
		{name: "replace_all in a file keeps unchanged lines as context", c: change("x := 1\nkeep\ny := x\nkeep too\nz := x\n", "v := 1\nkeep\ny := v\nkeep too\nz := v\n"),
			contains: []string{"-x := 1\n+v := 1\n keep\n-y := x\n+y := v\n keep too\n-z := x\n+z := v"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ChangePreview(tc.c)
			if tc.want != "" && got != tc.want {
				t.Errorf("preview:\n%s\nwant:\n%s", got, tc.want)
			}
			for _, w := range tc.contains {
				if !strings.Contains(got, w) {
					t.Errorf("preview lacks %q:\n%s", w, got)
				}
			}
		})
	}
}

func change(old, new string) tools.Change {
	return tools.Change{Path: "/p/f", Old: []byte(old), New: []byte(new)}
}

// lines is "line 1\n" to "line n\n".
func lines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// Huge files: a small change is found fast and shown with its place; a
// change too big to show whole is cut, saying so; a huge line is shown
// around its change. Time and output stay bounded.
func TestChangePreviewBounds(t *testing.T) {
	big := lines(maxDiffLines + 1000) // about 2.5 MB, past what is diffed line by line
	oneChange := strings.Replace(big, "line 100000\n", "line one hundred thousand\n", 1)
	everyLine := strings.ReplaceAll(big, "line", "LINE")
	long := strings.Repeat("abcdefgh", 1<<18)
	longChanged := long[:len(long)/2] + "Q" + long[len(long)/2+1:]
	for _, tc := range []struct {
		name     string
		c        tools.Change
		contains []string
	}{
		{"one change in a huge file", change(big, oneChange),
			[]string{"@@ -99997,7 +99997,7 @@\n", "-line 100000\n+line one hundred thousand\n"}},
		{"every line of a huge file", change(big, everyLine),
			[]string{"(too many lines change to find the smallest diff: the changed part is shown whole)", "… the diff is cut here: ", "more changed lines not shown"}},
		{"a change in the middle of a huge line", change(long, longChanged),
			[]string{"-(line cut: ", "bytes before) … ", "Q", "more bytes)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			got := ChangePreview(tc.c)
			if d := time.Since(start); d > time.Minute {
				t.Errorf("took %v", d)
			}
			if len(got) > maxDiffOutBytes+2*maxDiffLineLen+200 {
				t.Errorf("preview is %d bytes, past the bound", len(got))
			}
			if n := strings.Count(got, "\n"); n > maxDiffOutLines+10 {
				t.Errorf("preview is %d lines, past the bound", n)
			}
			for _, w := range tc.contains {
				if !strings.Contains(got, w) {
					t.Errorf("preview lacks %q:\n%.2000s", w, got)
				}
			}
		})
	}
}

// applyLineEdits applies edits (from diffLines(a, b)) to a.
func applyLineEdits(t *testing.T, a, b []string, edits []lineEdit) []string {
	t.Helper()
	var out []string
	i := 0
	for _, e := range edits {
		if e.a0 < i || e.a1 < e.a0 || e.b1 < e.b0 || e.a1 > len(a) || e.b1 > len(b) {
			t.Fatalf("bad edit %+v after line %d", e, i)
		}
		out = append(out, a[i:e.a0]...)
		out = append(out, b[e.b0:e.b1]...)
		i = e.a1
	}
	return append(out, a[i:]...)
}

// diffLines gives a diff that turns a into b, whatever they hold.
func TestDiffLinesIsCorrect(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a\n", "b\n", "c\n", "}\n", "\n", "x := 1\n", "return\n"}
	for range 300 {
		a := make([]string, rng.IntN(200))
		for i := range a {
			if rng.IntN(3) == 0 {
				a[i] = fmt.Sprintf("unique %d\n", rng.IntN(1000))
			} else {
				a[i] = words[rng.IntN(len(words))]
			}
		}
		b := append([]string(nil), a...)
		for range rng.IntN(30) {
			switch i := rng.IntN(len(b) + 1); {
			case rng.IntN(3) == 0 && i < len(b):
				b = append(b[:i], b[i+1:]...)
			case rng.IntN(2) == 0:
				b = append(b[:i], append([]string{words[rng.IntN(len(words))]}, b[i:]...)...)
			case i < len(b):
				b[i] = fmt.Sprintf("changed %d\n", rng.IntN(50))
			}
		}
		edits, _ := diffLines(a, b)
		if got := applyLineEdits(t, a, b, edits); strings.Join(got, "") != strings.Join(b, "") {
			t.Fatalf("edits do not turn a into b:\na %q\nb %q\nedits %+v", a, b, edits)
		}
	}
}

// FuzzChangePreview previews arbitrary changes: it never panics, its edits
// turn the old lines into the new, and its diff is a true one: the removed
// and context lines are the old file's, the added and context lines the
// new file's, in order.
func FuzzChangePreview(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("one\r\ntwo\r\n", "one\ntwo")
	f.Add("", "x")
	f.Add("x\ry\n", "x\n")
	f.Add("a\na\na\nb\n", "a\nb\na\nb\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		got := ChangePreview(change(old, new))
		if old == new {
			return
		}
		a, b := splitKeep(old), splitKeep(new)
		edits, _ := diffLines(a, b)
		if strings.Join(applyLineEdits(t, a, b, edits), "") != new {
			t.Fatalf("edits %+v do not turn %q into %q", edits, old, new)
		}
		var minus, plus []string
		for _, l := range strings.Split(got, "\n") {
			switch {
			case strings.HasPrefix(l, "---"), strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "@@"), strings.HasPrefix(l, "\\"), strings.HasPrefix(l, "(line endings"):
			case strings.HasPrefix(l, "-"):
				minus = append(minus, l[1:])
			case strings.HasPrefix(l, "+"):
				plus = append(plus, l[1:])
			case strings.HasPrefix(l, " "):
				minus, plus = append(minus, l[1:]), append(plus, l[1:])
			}
		}
		showCR := showsCR([]byte(old), []byte(new))
		if !inOrder(minus, shownLines(old, showCR)) || !inOrder(plus, shownLines(new, showCR)) {
			t.Fatalf("the diff is not one of these files:\nold %q\nnew %q\ndiff:\n%s", old, new, got)
		}
	})
}

// shownLines are the lines of s as a diff shows them (the line endings
// hidden, other carriage returns made visible).
func shownLines(s string, showCR bool) []string {
	var out []string
	for _, l := range splitKeep(s) {
		text, eol := strings.CutSuffix(l, "\n")
		text, cr := strings.CutSuffix(text, "\r")
		if cr && !eol {
			text, cr = text+"\r", false
		}
		text = strings.ReplaceAll(text, "\r", "␍")
		if cr && showCR {
			text += "␍"
		}
		out = append(out, text)
	}
	return out
}

// inOrder reports whether sub is a subsequence of all.
func inOrder(sub, all []string) bool {
	i := 0
	for _, l := range all {
		if i < len(sub) && sub[i] == l {
			i++
		}
	}
	return i == len(sub)
}
