package render

import (
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
)

func TestSanitizeLines(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"plain", "a\nb", []string{"a", "b"}},
		{"empty", "", []string{""}},
		{"crlf", "a\r\nb\rc", []string{"a", "b", "c"}},
		{"tabs to stops of 8", "a\tb\n\tc\nabcdefgh\ti", []string{"a       b", "        c", "abcdefgh        i"}},
		{"tab after wide text", "日本\tx", []string{"日本    x"}},
		{"escape sequences shown", "\x1b[31mred\x1b]0;title\x07", []string{"^[[31mred^[]0;title^G"}},
		{"nul and del", "a\x00b\x7fc", []string{"a^@b^?c"}},
		{"c1 csi", "a\u009b2Jb", []string{"a\ufffd2Jb"}},
		{"bidi override", "abc\u202edef", []string{"abc\ufffddef"}},
		{"invalid utf-8", "a\xff\xfeb", []string{"a\ufffd\ufffdb"}},
		{"wide kept", "日本語 😀", []string{"日本語 😀"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sanitizeLines(tt.in)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("sanitizeLines(%q) = %q, want %q", tt.in, got, tt.want)
			}
			for _, l := range got {
				if strings.ContainsAny(l, "\x1b\t\r\n\x00\x7f") {
					t.Errorf("unsafe byte left in %q", l)
				}
			}
		})
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		first, rest int
		want        []string
	}{
		{"fits", "hello world", 20, 20, []string{"hello world"}},
		{"empty", "", 10, 10, []string{""}},
		{"at words", "the quick brown fox jumps", 10, 10, []string{"the quick", "brown fox", "jumps"}},
		{"first line shorter", "aaa bbb ccc ddd", 4, 8, []string{"aaa", "bbb ccc", "ddd"}},
		{"hard break", "abcdefghijkl", 5, 5, []string{"abcde", "fghij", "kl"}},
		{"long word after text", "ab abcdefghijkl", 5, 5, []string{"ab", "abcde", "fghij", "kl"}},
		{"keeps indentation", "    code here", 20, 20, []string{"    code here"}},
		{"spaces at break dropped", "aaaa    bbbb", 6, 6, []string{"aaaa", "bbbb"}},
		{"trailing spaces beyond the line", "abc      ", 5, 5, []string{"abc"}},
		{"wide characters", "日本語の文章です", 5, 5, []string{"日本", "語の", "文章", "です"}},
		{"emoji", "😀😀😀", 4, 4, []string{"😀😀", "😀"}},
		{"combining marks stay", "e\u0301e\u0301e\u0301", 2, 2, []string{"e\u0301e\u0301", "e\u0301"}},
		{"tiny width is raised to 2", "abc", 0, 0, []string{"ab", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := wrap(tt.in, tt.first, tt.rest)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("wrap(%q, %d, %d) = %q, want %q", tt.in, tt.first, tt.rest, got, tt.want)
			}
			joined := strings.ReplaceAll(strings.Join(got, ""), " ", "")
			if joined != strings.ReplaceAll(tt.in, " ", "") {
				t.Errorf("wrap lost text: %q from %q", got, tt.in)
			}
			for i, piece := range got {
				limit := max(tt.rest, 2)
				if i == 0 {
					limit = max(tt.first, 2)
				}
				if w := lipgloss.Width(piece); w > limit {
					t.Errorf("piece %q is %d wide, limit %d", piece, w, limit)
				}
			}
		})
	}
}

func TestTextWidthMatchesLipgloss(t *testing.T) {
	for _, s := range []string{"abc", "日本語", "😀👍", "e\u0301", "👩‍👩‍👧", "🇩🇪🇫🇷", "a\u0600b", "한국어", "✓ ✗ ◐ ⏱ ⊘ •"} {
		if got, want := textWidth(s), lipgloss.Width(s); got != want {
			t.Errorf("textWidth(%q) = %d, lipgloss.Width = %d", s, got, want)
		}
	}
}

func TestFitWidth(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"abcdef", 3, "abc"},
		{"日本語", 3, "日"},
		{"日本語", 4, "日本"},
		{"ab", 5, "ab"},
	}
	for _, tt := range tests {
		if got := fitWidth(tt.in, tt.w); got != tt.want {
			t.Errorf("fitWidth(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
	}
}

func TestReflowAndWrapText(t *testing.T) {
	got := Reflow("one\ntwo  three\n\nfour\nfive\nExit:\n  0  ok\n  1  failed\n")
	want := "one two three\n\nfour five Exit:\n  0  ok\n  1  failed"
	if got != want {
		t.Errorf("Reflow = %q, want %q", got, want)
	}
	if got := WrapText("aaa bbb ccc\nddd\n\n  kept   as is", 8); got != "aaa bbb\nccc ddd\n\n  kept   as is" {
		t.Errorf("WrapText = %q", got)
	}
}
