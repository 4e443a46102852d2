package termsafe

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text\nsecond line", "plain text\nsecond line"},
		{"red \x1b[31mtext\x1b[0m", "red ^[[31mtext^[[0m"},
		{"title \x1b]0;owned\x07", "title ^[]0;owned^G"},
		{"csi \u009b31m", "csi \ufffd31m"},
		{"bidi \u202eevil", "bidi \ufffdevil"},
		{"a\tb", "a       b"},
		{"cr\rlf\r\n", "cr\nlf\n"},
		{"bad \xff utf8", "bad \ufffd utf8"},
		{"del \x7f", "del ^?"},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Nothing that goes through String can steer a terminal.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "ok", "\x1b[2J", "\x1b]8;;http://x\x07link", "\u009b1m", "\u202e\u2066", "\xff\xfe", "a\tb\r\nc", "\x00\x07\x08"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
		}
		for _, r := range out {
			if (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
				t.Fatalf("String(%q) = %q keeps %U", s, out, r)
			}
		}
		if strings.Count(out, "\n") > strings.Count(s, "\n")+strings.Count(s, "\r") {
			t.Fatalf("String(%q) made up lines: %q", s, out)
		}
	})
}

func TestTextKeepsTabs(t *testing.T) {
	for in, want := range map[string]string{
		"all:\n\tgo build":     "all:\n\tgo build",
		"a\tb\x1b[31mred\r\nc": "a\tb^[[31mred\nc",
		"plain":                "plain",
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %q, want %q", in, got, want)
		}
	}
}
