package permission

import (
	"strings"
	"testing"
)

func TestStarMatch(t *testing.T) {
	const w = string(wild)
	for _, tc := range []struct {
		pattern, text string
		want          bool
	}{
		{"go test", "go test", true},
		{"go test", "go test ./...", false},
		{"go test*", "go test ./...", true},
		{"go test*", "go testify", true}, // a glob has no word boundary; a prefix rule has
		{"*", "", true},
		{"*", "anything at all", true},
		{"npm run *", "npm run build", true},
		{"npm run *", "npm run", false},
		{"git * --help", "git commit --help", true},
		{"git * --help", "git commit --amend", false},
		{"echo *", "echo " + w, true},     // an expansion only where the rule allows anything
		{"echo hi", "echo " + w, false},   // "hi" does not cover $X
		{"echo " + w, "echo " + w, false}, // a NUL in a pattern never matches an expansion
		{"a*b*c", "aXbYc", true},
		{"a*b*c", "aXbY", false},
		{"*.go", "main.go", true},
		{"héllo*", "héllo wörld", true},
	} {
		if got := starMatch(tc.pattern, tc.text); got != tc.want {
			t.Errorf("starMatch(%q, %q) = %v, want %v", tc.pattern, tc.text, got, tc.want)
		}
	}
}

func TestStarIntersect(t *testing.T) {
	const w = string(wild)
	for _, tc := range []struct {
		pattern, text string
		want          bool
	}{
		{"rm -rf /", "rm -rf /", true},
		{"rm -rf /", "rm -rf " + w, true},        // rm -rf $DIR could be rm -rf /
		{"rm -rf /", "rm -rf /" + w, true},       // the glob's text is unknown, and may be empty
		{"rm -rf /", "rm -rf build/" + w, false}, // build/* is never /
		{"rm -rf /", "rm -r " + w, false},        // the flags differ
		{"git push*", "git " + w, true},          // git $CMD could be git push
		{"git push --force", "git push " + w + "e", true},
		{"git push --force", "git push " + w + "x", false},
		{"a*c", "a" + w + "c", true},
		{"*x*", w, true},
		{"abc", w + "b" + w, true},
		{"abc", w + "d" + w, false},
	} {
		if got := starIntersect(tc.pattern, tc.text); got != tc.want {
			t.Errorf("starIntersect(%q, %q) = %v, want %v", tc.pattern, strings.ReplaceAll(tc.text, w, "<?>"), got, tc.want)
		}
	}
}

// FuzzStarIntersect checks starIntersect against a witness: a text made by
// replacing each wild byte with some string. When the pattern matches the
// witness, the two must intersect; and starMatch on a text without wild
// bytes must agree with starIntersect.
func FuzzStarIntersect(f *testing.F) {
	f.Add("a*c", "a\x00c", "bb")
	f.Add("rm -rf /", "rm -rf \x00", "/")
	f.Add("*x*y", "\x00y", "x")
	f.Fuzz(func(t *testing.T, pattern, text, fill string) {
		if len(pattern) > 64 || len(text) > 64 || strings.IndexByte(pattern, wild) >= 0 || strings.IndexByte(fill, wild) >= 0 {
			return
		}
		witness := strings.ReplaceAll(text, string(wild), fill)
		if starMatch(pattern, witness) && !starIntersect(pattern, text) {
			t.Fatalf("starIntersect(%q, %q) = false, but the pattern matches %q", pattern, text, witness)
		}
		if strings.IndexByte(text, wild) < 0 && starMatch(pattern, text) != starIntersect(pattern, text) {
			t.Fatalf("starMatch and starIntersect disagree on %q, %q", pattern, text)
		}
	})
}
