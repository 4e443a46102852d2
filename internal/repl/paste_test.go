package repl

import (
	"strings"
	"testing"
)

func TestPastes(t *testing.T) {
	var p pastes
	tests := []struct {
		name, text string
		cut        bool
		want       string
	}{
		{"a short line is typed", "go test ./...", false, "go test ./..."},
		{"its newline is dropped", "go test ./...\r", false, "go test ./..."},
		{"lines are marked", "a\rb\rc\r", false, "[pasted 3 lines, 6 bytes]"},
		{"CRLF counts once", "a\r\nb", false, "[pasted 2 lines, 3 bytes]"},
		{"a Tab is not typed", "a\tb", false, "[pasted 1 line, 3 bytes]"},
		{"a long line is marked", strings.Repeat("x", 2150), false, "[pasted 1 line, 2.1 KB]"},
		{"the same paste, the same mark", "a\rb\rc\r", false, "[pasted 3 lines, 6 bytes]"},
		{"another paste of that size", "x\ry\rz\r", false, "[pasted 3 lines, 6 bytes #2]"},
		{"a cut paste says so", "abc", true, "[pasted 1 line, 3 bytes, cut there]"},
		{"megabytes", strings.Repeat("y", 3<<20), false, "[pasted 1 line, 3 MB]"},
	}
	for _, tt := range tests {
		if got := p.add(tt.text, tt.cut); got != tt.want {
			t.Errorf("%s: add = %q, want %q", tt.name, got, tt.want)
		}
	}
	got := p.expand("explain [pasted 3 lines, 6 bytes] and [pasted 3 lines, 6 bytes #2] but not [pasted 9 lines, 1 byte]")
	if want := "explain a\nb\nc\n and x\ny\nz\n but not [pasted 9 lines, 1 byte]"; got != want {
		t.Errorf("expand = %q, want %q", got, want)
	}
}
