package commands

import (
	"reflect"
	"strings"
	"testing"
)

// TestSplitWords pins both forms of every word: raw keeps the quoting that
// JSON values need, text is what a shell would pass.
func TestSplitWords(t *testing.T) {
	w := func(raw, text string) word { return word{raw: raw, text: text} }
	tests := []struct {
		name string
		line string
		want []word
		err  string
	}{
		{"empty", "", nil, ""},
		{"blanks only", " \t\r\n ", nil, ""},
		{"plain words", "a bc  d", []word{w("a", "a"), w("bc", "bc"), w("d", "d")}, ""},
		{"every blank separates", "a\tb\nc\rd", []word{w("a", "a"), w("b", "b"), w("c", "c"), w("d", "d")}, ""},
		{"double quotes", `"a b"`, []word{w(`"a b"`, "a b")}, ""},
		{"escape in double quotes", `"a\"b\\c"`, []word{w(`"a\"b\\c"`, `a"b\c`)}, ""},
		{"single quotes are literal", `'a\"b'`, []word{w(`'a\"b'`, `a\"b`)}, ""},
		{"quotes inside a word", `k=echo" hi"x`, []word{w(`k=echo" hi"x`, "k=echo hix")}, ""},
		{"empty quotes make a word", `"" ''`, []word{w(`""`, ""), w(`''`, "")}, ""},
		{"backslash escapes a blank", `a\ b c`, []word{w(`a\ b`, "a b"), w("c", "c")}, ""},
		{"trailing backslash", `a\`, []word{w(`a\`, "a")}, ""},
		{"lone backslash", `\`, []word{w(`\`, "")}, ""},
		{"brackets keep blanks", `e=[{"a": 1}] x`, []word{w(`e=[{"a": 1}]`, `e=[{a: 1}]`), w("x", "x")}, ""},
		{"nested brackets", `{[ ]} y`, []word{w("{[ ]}", "{[ ]}"), w("y", "y")}, ""},
		{"unbalanced closing bracket", `] a`, []word{w("]", "]"), w("a", "a")}, ""},
		{"unclosed bracket swallows the rest", `[a b`, []word{w("[a b", "[a b")}, ""},
		{"quoted bracket does not nest", `"[" a`, []word{w(`"["`, "["), w("a", "a")}, ""},
		{"unterminated double", `a "b`, nil, "Unterminated \" quote"},
		{"unterminated single", `a 'b`, nil, "Unterminated ' quote"},
		{"backslash at end inside quotes", `"a\`, nil, "Unterminated \" quote"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := splitWords(tt.line)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("splitWords(%q) error = %v, want %q", tt.line, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("splitWords(%q): %v", tt.line, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("splitWords(%q) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}

// A long value is copied in runs, not byte by byte: each builder grows once
// for a 17 MiB word instead of doubling its way up (some 50 allocations).
func TestSplitWordsLongValueAllocations(t *testing.T) {
	line := "content=" + strings.Repeat("x", 17<<20) + ` k="v"`
	var ws []word
	allocs := testing.AllocsPerRun(3, func() {
		var err error
		if ws, err = splitWords(line); err != nil {
			t.Fatal(err)
		}
	})
	if len(ws) != 2 || len(ws[0].text) != 8+17<<20 || ws[1].text != "k=v" {
		t.Fatalf("words = %d, first %d bytes", len(ws), len(ws[0].text))
	}
	if allocs > 20 {
		t.Errorf("splitWords of a 17 MiB value made %v allocations, want at most 20", allocs)
	}
}

// BenchmarkSplitWordsLongValue splits a line with a 17 MiB value, as
// content=@file or a pasted document gives the shell.
func BenchmarkSplitWordsLongValue(b *testing.B) {
	line := "content=" + strings.Repeat("x", 17<<20) + ` k="v"`
	b.SetBytes(int64(len(line)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := splitWords(line); err != nil {
			b.Fatal(err)
		}
	}
}
