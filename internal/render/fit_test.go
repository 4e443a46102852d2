package render

import (
	"strings"
	"testing"
)

func TestFit(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		width int
		want  string
	}{
		{"unknown width leaves text", "a b c d e f g h", 0, "a b c d e f g h"},
		{"fits", "short line\nand another", 20, "short line\nand another"},
		{"prose breaks at words, no indent",
			"Continuing session sess_9d8542b66d24: 2 prompts, 12 messages. Where it left off:", 40,
			"Continuing session sess_9d8542b66d24: 2\nprompts, 12 messages. Where it left off:"},
		{"indented prose keeps its indent", "    /tmp/a very long directory name here", 20,
			"    /tmp/a very long\n    directory name\n    here"},
		{"a numbered row hangs under its text",
			`  1  just now        2 prompts      4 KB  sess_9d8542b66d24  "fix the failing test"  ← this one`, 60,
			"  1  just now        2 prompts      4 KB  sess_9d8542b66d24\n" +
				`     "fix the failing test"  ← this one`},
		{"a table row hangs under its second column", "sess_9d8542b66d24  2026-11-27 05:38 UTC  2 prompts  600 in · 120 out · $0.0004", 60,
			"sess_9d8542b66d24  2026-11-27 05:38 UTC  2 prompts  600 in ·\n                   120 out · $0.0004"},
		{"a hang past half the width is not kept", "abcdefghijklmnopqrstuvwxyz  one two three four", 30,
			"abcdefghijklmnopqrstuvwxyz\none two three four"},
		{"a word wider than the line is broken", "see https://example.com/a/very/long/path/indeed", 20,
			"see\nhttps://example.com/\na/very/long/path/ind\need"},
		{"wide characters count two", "日本語 日本語 日本語", 13, "日本語 日本語\n日本語"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Fit(tt.in, tt.width)
			if got != tt.want {
				t.Errorf("Fit(%q, %d) =\n%s\nwant\n%s", tt.in, tt.width, got, tt.want)
			}
			if tt.width > 0 {
				assertFits(t, got, tt.width)
			}
			if strings.Join(strings.Fields(got), " ") != strings.Join(strings.Fields(tt.in), " ") && !strings.Contains(tt.name, "broken") {
				t.Errorf("words changed: %q", got)
			}
		})
	}
}

func TestChoices(t *testing.T) {
	answers := []string{"[y] yes, once", "[a] always: Bash(ls:*), Bash(cat:*), Bash(head:*) this session", "[A] always, saved",
		"[n] no", "[t] no, and tell the model why"}
	tests := []struct {
		name     string
		question string
		answers  []string
		width    int
		want     string
	}{
		{"one line when it fits", "", answers[3:], 80, "[n] no  [t] no, and tell the model why"},
		{"unknown width: one line", "", answers, 0, strings.Join(answers, "  ")},
		{"answers stay whole", "", answers, 60,
			"[y] yes, once\n  [a] always: Bash(ls:*), Bash(cat:*), Bash(head:*) this\n      session  [A] always, saved  [n] no\n  [t] no, and tell the model why"},
		{"after the question", "Save Bash(go test:*) in permissions.allow of:",
			[]string{"[p] this project's settings (~/.forge/config.yaml)", "[u] your settings (~/.config/forge/config.yaml)", "[Enter] back"}, 60,
			"Save Bash(go test:*) in permissions.allow of:\n  [p] this project's settings (~/.forge/config.yaml)\n  [u] your settings (~/.config/forge/config.yaml)\n  [Enter] back"},
		{"a long question wraps first", "Save Bash(go test:*), Bash(go vet:*), Bash(go build:*) in permissions.allow of:",
			[]string{"[p] project", "[u] yours", "[Enter] back"}, 40,
			"Save Bash(go test:*), Bash(go vet:*),\nBash(go build:*) in permissions.allow\nof:  [p] project  [u] yours\n  [Enter] back"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Choices(tt.question, tt.answers, tt.width)
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if tt.width > 0 {
				assertFits(t, got, tt.width)
			}
		})
	}
}

func TestHardWrap(t *testing.T) {
	got := hardWrap("+\treturn  x  // a comment", 10, 8)
	want := []string{"+\treturn  ", "x  // a ", "comment"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("hardWrap = %q, want %q", got, want)
	}
	if got := hardWrap("日本語", 3, 1); strings.Join(got, "|") != "日|本|語" {
		t.Errorf("wide: %q", got)
	}
}

// assertFits fails when a line of text is wider than width cells.
func assertFits(t *testing.T, text string, width int) {
	t.Helper()
	for _, l := range strings.Split(stripANSI(text), "\n") {
		if w := textWidth(l); w > width {
			t.Errorf("line of %d cells, wider than %d: %q", w, width, l)
		}
	}
}
