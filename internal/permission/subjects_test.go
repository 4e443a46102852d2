package permission

import (
	"strings"
	"testing"
)

func TestShorten(t *testing.T) {
	long := strings.Repeat("a", maxShown+5)
	for _, tc := range []struct{ in, want string }{
		{"go test ./...", "go test ./..."},
		{"  go \t test\n\n./... ", "go test ./..."},
		{long, long[:maxShown-1] + "…"},
		{strings.Repeat("é", maxShown), strings.Repeat("é", maxShown)},
		{strings.Repeat("é", maxShown+1), strings.Repeat("é", maxShown-1) + "…"},
		{"", ""},
	} {
		if got := shorten(tc.in); got != tc.want {
			t.Errorf("shorten(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
