package builtin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// globTree makes a small git repository with files of known ages: the
// later a file is in the list, the newer it is.
func globTree(t *testing.T) string {
	t.Helper()
	dir := realTempDir(t)
	files := []string{"old.go", "src/b.go", "src/a.go", "src/deep/c.go", "README.md", ".hidden/h.go",
		"vendor/v.go", "build/out.go", "keep/important.log", "keep/other.log", ".git/config.go"}
	writeFiles(t, dir, map[string]string{
		".gitignore":      "vendor/\n*.log\n/build\n",
		"keep/.gitignore": "!important.log\n",
	})
	base := time.Now().Add(-time.Hour)
	for i, f := range files {
		writeFiles(t, dir, map[string]string{f: "package x\n"})
		ts := base.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(filepath.Join(dir, f), ts, ts); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestGlob(t *testing.T) {
	dir := globTree(t)
	abs := func(ps ...string) string {
		for i, p := range ps {
			ps[i] = filepath.Join(dir, p)
		}
		return strings.Join(ps, "\n")
	}
	tests := []struct {
		name string
		args tools.Args
		want string
	}{
		{name: "recursive, newest first, ignored and .git skipped", args: tools.Args{"pattern": "**/*.go"},
			want: abs(".hidden/h.go", "src/deep/c.go", "src/a.go", "src/b.go", "old.go")},
		{name: "top level only", args: tools.Args{"pattern": "*.go"}, want: abs("old.go")},
		{name: "static prefix", args: tools.Args{"pattern": "src/*.go"}, want: abs("src/a.go", "src/b.go")},
		{name: "alternatives", args: tools.Args{"pattern": "**/*.{md,log}"}, want: abs("keep/important.log", "README.md")},
		{name: "gitignore off", args: tools.Args{"pattern": "**/*.log", "respect_gitignore": false}, want: abs("keep/other.log", "keep/important.log")},
		{name: "hidden off", args: tools.Args{"pattern": "**/h.go", "hidden": false}, want: "No files found matching **/h.go in " + dir},
		{name: "path argument", args: tools.Args{"pattern": "*.go", "path": "src"}, want: abs("src/a.go", "src/b.go")},
		{name: "absolute pattern", args: tools.Args{"pattern": filepath.Join(dir, "src/**/c.go")}, want: abs("src/deep/c.go")},
		{name: "limit", args: tools.Args{"pattern": "**/*.go", "limit": 2},
			want: abs(".hidden/h.go", "src/deep/c.go") + "\n(3 more files not shown: these are the 2 newest of 5. Narrow the pattern or raise limit.)"},
		{name: "nothing", args: tools.Args{"pattern": "**/*.rs"}, want: "No files found matching **/*.rs in " + dir},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := wantOK(t, execFile(t, dir, "Glob", tc.args)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	r := execFile(t, dir, "Glob", tools.Args{"pattern": "**/*.go", "limit": 2})
	if r.Metadata["total"] != 5 || r.Metadata["count"] != 2 || r.Metadata["truncated"] != true {
		t.Errorf("metadata %v", r.Metadata)
	}
}

func TestGlobConfigLimit(t *testing.T) {
	dir := globTree(t)
	ex := fileExecutor(t, map[string]map[string]any{"Glob": {"limit": 1}})
	r := ex.Execute(t.Context(), "Glob", tools.NewExecutionContext(dir), tools.Args{"pattern": "**/*.go"})
	if r.Metadata["count"] != 1 {
		t.Errorf("configured limit ignored: %v", r.Metadata)
	}
}

func TestGlobErrors(t *testing.T) {
	dir := globTree(t)
	tests := []struct {
		name string
		args tools.Args
		want string
	}{
		{name: "bad pattern", args: tools.Args{"pattern": "src/[a-"}, want: "Invalid glob pattern: src/[a-"},
		{name: "unclosed brace", args: tools.Args{"pattern": "*.{go"}, want: "Invalid glob pattern"},
		{name: "nul", args: tools.Args{"pattern": "a\x00"}, want: "NUL byte"},
		{name: "missing dir", args: tools.Args{"pattern": "*", "path": "nope"}, want: "Directory not found: " + filepath.Join(dir, "nope")},
		{name: "file as path", args: tools.Args{"pattern": "*", "path": "old.go"}, want: "Path is not a directory: " + filepath.Join(dir, "old.go")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantFail(t, execFile(t, dir, "Glob", tc.args), tc.want) })
	}
}

func TestGlobDryRunAndCancel(t *testing.T) {
	dir := globTree(t)
	ec := tools.NewExecutionContext(dir)
	ec.DryRun = true
	r := fileExecutor(t, nil).Execute(t.Context(), "Glob", ec, tools.Args{"pattern": "src/**/*.go"})
	if want := "[Dry Run] Would list files matching **/*.go under " + filepath.Join(dir, "src"); r.Display() != want {
		t.Errorf("dry run %q, want %q", r.Display(), want)
	}
	tl := buildTool(t, newGlob, nil)
	wantFail(t, tl.Execute(cancelled(), tools.NewExecutionContext(dir), tools.Args{"pattern": "**"}), "Glob cancelled")
}

func TestGlobGoroot(t *testing.T) {
	src := gorootSrc(t)
	if testing.Short() {
		t.Skip("walks GOROOT/src")
	}
	r := execFile(t, src, "Glob", tools.Args{"pattern": "**/*_test.go", "limit": 5})
	if wantOK(t, r); r.Metadata["total"].(int) < 1000 {
		t.Errorf("found only %v test files in %s", r.Metadata["total"], src)
	}
}

// FuzzGlobPattern parses and matches arbitrary patterns: never a panic.
func FuzzGlobPattern(f *testing.F) {
	for _, s := range []string{"**/*.go", "src/[a-", "*.{go,md}", "/abs/**", "a\\", "{a,{b,c}}", "[!x]?", ""} {
		f.Add(s, "src/a.go")
	}
	f.Fuzz(func(t *testing.T, pattern, name string) {
		q, err := parseGlob("/wd", "", pattern)
		if err != nil {
			return
		}
		_ = q.depth()
		globMatches(q.pattern, name)
	})
}

func BenchmarkGlobGoroot(b *testing.B) {
	src := gorootSrc(b)
	if _, err := os.Stat(src); err != nil {
		b.Skip("no GOROOT/src")
	}
	tl := buildTool(b, newGlob, nil)
	ec := tools.NewExecutionContext(src)
	for b.Loop() {
		if r := tl.Execute(b.Context(), ec, tools.Args{"pattern": "**/*.go"}); !r.Success {
			b.Fatal(r.Error)
		}
	}
}
