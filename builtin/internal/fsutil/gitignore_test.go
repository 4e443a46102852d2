package fsutil

import "testing"

func TestIgnoreMatch(t *testing.T) {
	tests := []struct {
		patterns string
		path     string
		dir      bool
		want     int
	}{
		{"*.log", "a.log", false, 1},
		{"*.log", "deep/down/a.log", false, 1},
		{"*.log", "a.log.txt", false, 0},
		{"build", "build", true, 1},
		{"build", "src/build", false, 1},
		{"build/", "build", false, 0},
		{"build/", "src/build", true, 1},
		{"/build", "build", true, 1},
		{"/build", "src/build", true, 0},
		{"doc/*.txt", "doc/a.txt", false, 1},
		{"doc/*.txt", "doc/sub/a.txt", false, 0},
		{"doc/*.txt", "x/doc/a.txt", false, 0},
		{"**/foo", "foo", false, 1},
		{"**/foo", "a/b/foo", true, 1},
		{"**/foo/bar", "x/foo/bar", false, 1},
		{"abc/**", "abc/x/y", false, 1},
		{"abc/**", "abc", true, 0},
		{"a/**/b", "a/b", false, 1},
		{"a/**/b", "a/x/y/b", false, 1},
		{"a/**/b", "ab", false, 0},
		{"*.log\n!keep.log", "keep.log", false, -1},
		{"*.log\n!keep.log", "other.log", false, 1},
		{"!keep.log\n*.log", "keep.log", false, 1},
		{"# comment\n\n  \nx", "x", false, 1},
		{`\#hash`, "#hash", false, 1},
		{`\!bang`, "!bang", false, 1},
		{"trailing   ", "trailing", false, 1},
		{`space\ `, "space ", false, 1},
		{"file[0-9].txt", "file5.txt", false, 1},
		{"file[!0-9].txt", "file5.txt", false, 0},
		{"file[!0-9].txt", "filex.txt", false, 1},
		{"?.go", "a.go", false, 1},
		{"?.go", "ab.go", false, 0},
		{"*", "anything/at/all", false, 1},
		{"a*b", "a/b", false, 0},
		{"foo\r", "foo", false, 1},
		{"[unclosed", "[unclosed", false, 1},
		{"x/", "x", true, 1},
		{"/", "x", false, 0},
		{"*.{a,b}", "x.{a,b}", false, 1},
		{"[[:digit:]]x", "1x", false, 1},
	}
	for _, tc := range tests {
		ig := ParseIgnore("/base", []byte(tc.patterns))
		if got := ig.Match(tc.path, tc.dir); got != tc.want {
			t.Errorf("patterns %q, path %q (dir %v): %d, want %d", tc.patterns, tc.path, tc.dir, got, tc.want)
		}
	}
}

// FuzzIgnoreLine compiles arbitrary .gitignore lines and matches them
// against arbitrary paths: never a panic.
func FuzzIgnoreLine(f *testing.F) {
	for _, s := range []string{"*.log", "!a", "a/**/b", "[!x", `\`, "**", "/", "[[:alpha:]", "a[/]b"} {
		f.Add(s, "a/b.log", false)
	}
	f.Fuzz(func(t *testing.T, line, path string, dir bool) {
		ParseIgnore("/b", []byte(line)).Match(path, dir)
	})
}
