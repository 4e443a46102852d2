package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/tools"
)

// FuzzResultPanel draws arbitrary output (invalid UTF-8, wide CJK, emoji,
// combining marks, control characters, escape sequences) in every kind of
// panel that shows outside text, at several widths: it must never panic,
// every line must have the panel's width, and no escape may get through.
func FuzzResultPanel(f *testing.F) {
	seeds := []string{
		"",
		"hello\nworld",
		"\x1b[31mred\x1b[0m\x1b]0;title\x07\x9b2J\u009b2J",
		"日本語のテキスト😀👍👩‍👩‍👧🇩🇪 e\u0301 \u0600a \u0d4e \u0903",
		"\xff\xfe\xc0\x80 invalid",
		"tab\there\r\nnext\rcr",
		strings.Repeat("x", 500),
		strings.Repeat("日", 300),
		"\u202eevil\u202c \ufeff \u200b\u200d",
		"a\u0600",
		"\u0d4e",
		"#\ufe0f\u20e3 ☺\ufe0f ⏱\ufe0f",
	}
	for _, s := range seeds {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, out string, w uint8) {
		width := int(w)
		r := New(Options{Width: width})
		res := tools.OK(out)
		res.DurationMS = 1
		failed := tools.Fail(out, "exit_code", 1, "parameter", out, "received", out)
		failed.Output = out
		d := tools.Descriptor{Name: out, Description: out, Category: tools.Category(out),
			Parameters: []tools.Parameter{{Name: out, Type: "string", Description: out, Required: true, Enum: []any{out}}}}
		panels := map[string]string{
			"result":     r.Result(out, res, commandDetail(out)),
			"failed":     r.Result(out, failed, commandDetail(out)),
			"exec":       r.ExecutionFailed(out, failed, commandDetail(out)),
			"validation": r.ValidationError(d, failed),
			"notfound":   r.ToolNotFound(out, []string{out}),
			"list":       r.ToolList([]tools.Descriptor{d}),
			"details":    r.ToolDetails(d),
			"history":    r.History(1, []tools.Execution{{Seq: 1, ToolName: out, Parameters: tools.Args{out: out}, Result: failed}}),
			"context":    r.Context(tools.ExecutionContext{WorkingDir: out, Metadata: map[string]any{out: out}}),
			"panel":      r.Panel(out, out),
		}
		for name, p := range panels {
			if strings.ContainsRune(p, 0x1b) || strings.ContainsRune(p, 0x9b) {
				t.Fatalf("%s: escape in output %q", name, p)
			}
			if !utf8.ValidString(p) {
				t.Fatalf("%s: invalid UTF-8 in output", name)
			}
			assertAligned(t, name, p, r.Width())
		}
	})
}

// TestPathologicalOutput draws large outputs built to defeat line wrapping:
// runs that grapheme rules glue into one "character", endless combining
// marks, floods of escapes, newlines, tabs and invalid bytes. Each must come
// out framed and aligned (and quickly: see BenchmarkResultLarge).
func TestPathologicalOutput(t *testing.T) {
	const n = 20000
	r := New(Options{})
	for name, s := range map[string]string{
		"prepended marks": strings.Repeat("\u0600", n),
		"malayalam reph":  strings.Repeat("\u0d4e", n),
		"combining marks": "a" + strings.Repeat("\u0301", n),
		"flags":           strings.Repeat("🇩", n),
		"zwj chain":       strings.Repeat("👩\u200d", n),
		"spaces":          strings.Repeat(" ", n) + "x",
		"escapes":         strings.Repeat("\x1b", n),
		"newlines":        strings.Repeat("\n", n/10),
		"tabs":            strings.Repeat("\t日", n),
		"invalid bytes":   strings.Repeat("\xff", n),
		"no spaces":       strings.Repeat("x", n),
	} {
		out := r.Result("X", tools.OK(s), tools.Presentation{})
		assertAligned(t, name, out, r.Width())
		if strings.ContainsRune(out, 0x1b) || !utf8.ValidString(out) {
			t.Errorf("%s: unsafe output", name)
		}
	}
}
