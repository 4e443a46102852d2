package builtin

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// globMatches is the match Glob performs on each walked path.
func globMatches(pattern, rel string) bool { return doublestar.MatchUnvalidated(pattern, rel) }

// gorootSrc returns $(go env GOROOT)/src, or skips the test.
func gorootSrc(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go env GOROOT:", err)
	}
	src := strings.TrimSpace(string(out)) + "/src"
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go")
	}
	return src
}
