package builtin

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestApplyEdit(t *testing.T) {
	tests := []struct {
		name         string
		content      string
		old, new     string
		all          bool
		want         string
		replacements int
		err          error
	}{
		{name: "unique", content: "a b c\n", old: "b", new: "B", want: "a B c\n", replacements: 1},
		{name: "replace all", content: "x x x", old: "x", new: "yy", all: true, want: "yy yy yy", replacements: 3},
		{name: "ambiguous", content: "x x", old: "x", new: "y", err: errAmbiguous{2}},
		{name: "absent", content: "abc", old: "zzz", new: "y", err: errEditNotFound},
		{name: "identical", content: "abc", old: "b", new: "b", err: errEditIdentical},
		{name: "crlf file, lf strings", content: "one\r\ntwo\r\nthree\r\n", old: "one\ntwo\n", new: "1\n2\n", want: "1\r\n2\r\nthree\r\n", replacements: 1},
		{name: "crlf file, new lines get crlf", content: "a\r\nb\r\n", old: "a", new: "a\nz", want: "a\r\nz\r\nb\r\n", replacements: 1},
		{name: "crlf file, crlf strings", content: "a\r\nb\r\n", old: "a\r\nb", new: "c\r\nd", want: "c\r\nd\r\n", replacements: 1},
		{name: "final newline kept", content: "a\nb\n", old: "b\n", new: "c", want: "a\nc\n", replacements: 1},
		{name: "missing final newline kept", content: "a\nb", old: "b", new: "c\n", want: "a\nc", replacements: 1},
		{name: "final crlf kept", content: "a\r\nb\r\n", old: "b\r\n", new: "c", want: "a\r\nc\r\n", replacements: 1},
		{name: "delete everything", content: "abc", old: "abc", new: "", want: "", replacements: 1},
		{name: "tabs are exact", content: "\tx := 1\n", old: "    x := 1", new: "y", err: errEditNotFound},
		{name: "mixed endings match raw", content: "a\nb\r\n", old: "a\nb", new: "c", want: "c\r\n", replacements: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := applyEdit([]byte(tc.content), tc.old, tc.new, tc.all)
			if tc.err != nil {
				if !errors.Is(err, tc.err) && err != tc.err {
					t.Fatalf("err %v, want %v", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(p.content) != tc.want || p.replacements != tc.replacements {
				t.Errorf("got %q (%d), want %q (%d)", p.content, p.replacements, tc.want, tc.replacements)
			}
		})
	}
}

func TestEditTool(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{
		"a.go":    "package a\n\nfunc f() {\n\treturn 1\n}\n",
		"dup.txt": "x\nx\nx\n",
		"empty":   "",
		"bin":     "a\x00b",
	})
	if err := os.Chmod(filepath.Join(dir, "a.go"), 0o640); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		args  tools.Args
		want  string // the file's content afterwards
		file  string
		fail  string // the error, when the call must fail
		reps  int
		check func(t *testing.T, r tools.Result)
	}{
		{name: "unique replace", file: "a.go", args: tools.Args{"old_string": "\treturn 1", "new_string": "\treturn 2"},
			want: "package a\n\nfunc f() {\n\treturn 2\n}\n", reps: 1},
		{name: "replace all", file: "dup.txt", args: tools.Args{"old_string": "x", "new_string": "y", "replace_all": true}, want: "y\ny\ny\n", reps: 3},
		{name: "ambiguous", file: "dup.txt", args: tools.Args{"old_string": "y", "new_string": "z"},
			fail: "old_string appears 3 times in " + filepath.Join(dir, "dup.txt") + ". Provide more surrounding context to make it unique, or set replace_all=true."},
		{name: "identical", file: "a.go", args: tools.Args{"old_string": "f", "new_string": "f"}, fail: "old_string and new_string are identical"},
		{name: "not found shows closest lines", file: "a.go", args: tools.Args{"old_string": "func f() {\n    return 2\n}", "new_string": "z"},
			fail: "old_string was not found in " + filepath.Join(dir, "a.go"),
			check: func(t *testing.T, r tools.Result) {
				for _, want := range []string{"lines are 3-5", "→return 2", "only in whitespace", "     4\t"} {
					if !strings.Contains(r.Error, want) {
						t.Errorf("hint lacks %q:\n%s", want, r.Error)
					}
				}
			}},
		{name: "not found, nothing similar", file: "a.go", args: tools.Args{"old_string": "qqqqqqqqqq", "new_string": "z"}, fail: "No similar lines were found"},
		{name: "create with empty old_string", file: "new/created.txt", args: tools.Args{"old_string": "", "new_string": "fresh\n"}, want: "fresh\n", reps: 1},
		{name: "empty old_string on an empty file", file: "empty", args: tools.Args{"old_string": "", "new_string": "now\n"}, want: "now\n", reps: 1},
		{name: "empty old_string on content", file: "a.go", args: tools.Args{"old_string": "", "new_string": "x"}, fail: "old_string is empty but " + filepath.Join(dir, "a.go") + " already has content"},
		{name: "missing file", file: "nope.txt", args: tools.Args{"old_string": "a", "new_string": "b"}, fail: "File not found: " + filepath.Join(dir, "nope.txt")},
		{name: "binary file", file: "bin", args: tools.Args{"old_string": "a", "new_string": "b"}, fail: "Cannot edit binary file"},
		{name: "directory", file: ".", args: tools.Args{"old_string": "a", "new_string": "b"}, fail: "Path is a directory"},
		{name: "outside", file: "/etc/hostname", args: tools.Args{"old_string": "a", "new_string": "b"}, fail: "Refusing to write outside the working directory: /etc/hostname"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tools.Args{"file_path": tc.file}
			for k, v := range tc.args {
				args[k] = v
			}
			r := execFile(t, dir, "Edit", args)
			if tc.check != nil {
				tc.check(t, r)
			}
			if tc.fail != "" {
				wantFail(t, r, tc.fail)
				return
			}
			wantOK(t, r)
			if got := mustRead(t, filepath.Join(dir, tc.file)); got != tc.want {
				t.Errorf("file %q, want %q", got, tc.want)
			}
			if r.Metadata["replacements"] != tc.reps {
				t.Errorf("replacements %v, want %d", r.Metadata["replacements"], tc.reps)
			}
		})
	}
	if fi, _ := os.Stat(filepath.Join(dir, "a.go")); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode not kept: %v", fi.Mode().Perm())
	}
}

func TestEditCRLFFile(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"w.txt": "line one\r\nline two\r\nline three\r\n"})
	r := execFile(t, dir, "Edit", tools.Args{"file_path": "w.txt", "old_string": "line one\nline two", "new_string": "first\nsecond"})
	wantOK(t, r)
	if got := mustRead(t, filepath.Join(dir, "w.txt")); got != "first\r\nsecond\r\nline three\r\n" {
		t.Errorf("got %q", got)
	}
	// A miss in a CRLF file shows the carriage returns.
	r = execFile(t, dir, "Edit", tools.Args{"file_path": "w.txt", "old_string": "line  three", "new_string": "x"})
	wantFail(t, r, "line is 3")
	wantFail(t, r, "line three␍")
}

func TestEditDryRunAndCancel(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"a.txt": "a a\n"})
	ec := tools.NewExecutionContext(dir)
	ec.DryRun = true
	ex := fileExecutor(t, nil)
	for args, want := range map[[3]string]string{
		{"a.txt", "a", "b"}:     "[Dry Run] Would make 2 replacements in " + filepath.Join(dir, "a.txt"),
		{"a.txt", "a a", "b"}:   "[Dry Run] Would make 1 replacement in " + filepath.Join(dir, "a.txt"),
		{"n.txt", "", "new"}:    "[Dry Run] Would create " + filepath.Join(dir, "n.txt") + " with 3 bytes",
		{"a.txt", "zzz", "new"}: "[Dry Run] Would fail: old_string was not found",
	} {
		a := tools.Args{"file_path": args[0], "old_string": args[1], "new_string": args[2]}
		if args[1] == "a" {
			a["replace_all"] = true
		}
		if got := ex.Execute(t.Context(), "Edit", ec, a).Display(); !strings.HasPrefix(got, want) {
			t.Errorf("dry run %q, want prefix %q", got, want)
		}
	}
	tl := buildTool(t, newEdit(nil), nil)
	wantFail(t, tl.Execute(cancelled(), tools.NewExecutionContext(dir), tools.Args{"file_path": "a.txt", "old_string": "a a", "new_string": "b"}), "Edit cancelled")
	if got := mustRead(t, filepath.Join(dir, "a.txt")); got != "a a\n" {
		t.Errorf("file changed by a dry run or a cancelled call: %q", got)
	}
}

func TestNotFoundMessageBigFile(t *testing.T) {
	var b bytes.Buffer
	for i := range 100000 {
		b.WriteString("some ordinary line of code number ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteByte('\n')
	}
	b.WriteString("\tif err != nil {\n\t\treturn err\n\t}\n")
	msg := notFoundMessage("f.go", b.Bytes(), "if err != nil {\n    return err\n}")
	if !strings.Contains(msg, "lines are 100001-100003") {
		t.Errorf("closest window not found:\n%s", msg)
	}
}

// FuzzEditApply applies arbitrary edits to arbitrary content: it never
// panics, a replacement leaves new_string in the result, and a refusal
// leaves nothing half-done.
func FuzzEditApply(f *testing.F) {
	f.Add("a\r\nb\r\n", "a\nb", "c\nd", false)
	f.Add("x x x", "x", "y", true)
	f.Add("", "", "new", false)
	f.Add("\tfoo  \nbar", "foo\nbar", "baz", false)
	f.Add("abc", "abc", "", false)
	f.Fuzz(func(t *testing.T, content, old, new string, all bool) {
		p, err := applyEdit([]byte(content), old, new, all)
		if err != nil {
			_ = notFoundMessage("f", []byte(content), old)
			return
		}
		if p.replacements < 1 {
			t.Fatalf("success with %d replacements", p.replacements)
		}
		// new_string is in the result, up to line endings and the final
		// newline, which the edit adapts to the file.
		norm := func(s string) string { return strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n") }
		if !strings.Contains(norm(string(p.content)), norm(toLFKeepingLone(new))) && norm(new) != "" {
			t.Fatalf("result %q lacks new_string %q", p.content, new)
		}
	})
}

// toLFKeepingLone turns CRLF into LF, as the comparison in FuzzEditApply
// does on the result.
func toLFKeepingLone(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }
