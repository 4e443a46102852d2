package builtin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

func TestReadOutput(t *testing.T) {
	dir := realTempDir(t)
	long := strings.Repeat("é", 2500)
	writeFiles(t, dir, map[string]string{
		"three.txt":  "alpha\nbeta\ngamma\n",
		"nofinal":    "one\ntwo",
		"crlf.txt":   "a\r\nb\r\n",
		"ten.txt":    "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n",
		"long.txt":   long + "\nshort\n",
		"empty.txt":  "",
		"blank.txt":  "\n\n",
		"sub/r.txt":  "relative\n",
		"tabbed.txt": "\tx\n",
	})
	tests := []struct {
		name     string
		args     tools.Args
		want     string
		meta     map[string]any
		contains string
	}{
		{name: "whole file", args: tools.Args{"file_path": "three.txt"},
			want: "     1\talpha\n     2\tbeta\n     3\tgamma", meta: map[string]any{"lines": 3, "total_lines": 3, "truncated": false}},
		{name: "no final newline", args: tools.Args{"file_path": "nofinal"}, want: "     1\tone\n     2\ttwo"},
		{name: "crlf shown without carriage returns", args: tools.Args{"file_path": "crlf.txt"}, want: "     1\ta\n     2\tb"},
		{name: "window with continuation", args: tools.Args{"file_path": "ten.txt", "offset": 2, "limit": 3},
			want: "     3\t3\n     4\t4\n     5\t5\n... 5 more lines not shown. Use offset=5 to continue.",
			meta: map[string]any{"lines": 3, "total_lines": 10, "truncated": true, "next_offset": 5}},
		{name: "window reaching the end", args: tools.Args{"file_path": "ten.txt", "offset": 8, "limit": 5},
			want: "     9\t9\n    10\t10", meta: map[string]any{"truncated": false, "total_lines": 10}},
		{name: "window ending exactly at the end", args: tools.Args{"file_path": "ten.txt", "offset": 5, "limit": 5},
			want: "     6\t6\n     7\t7\n     8\t8\n     9\t9\n    10\t10", meta: map[string]any{"truncated": false}},
		{name: "long line shortened", args: tools.Args{"file_path": "long.txt"},
			want: "     1\t" + strings.Repeat("é", 2000) + "… [line truncated: 2500 characters]\n     2\tshort", meta: map[string]any{"lines_shortened": 1}},
		{name: "empty file", args: tools.Args{"file_path": "empty.txt"}, contains: "File is empty: ", meta: map[string]any{"lines": 0}},
		{name: "blank lines", args: tools.Args{"file_path": "blank.txt"}, want: "     1\t\n     2\t"},
		{name: "relative path", args: tools.Args{"file_path": "sub/r.txt"}, want: "     1\trelative",
			meta: map[string]any{"file_path": filepath.Join(dir, "sub/r.txt")}},
		{name: "absolute path", args: tools.Args{"file_path": filepath.Join(dir, "tabbed.txt")}, want: "     1\t\tx"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := wantOK(t, execFile(t, dir, "Read", tc.args))
			r := execFile(t, dir, "Read", tc.args)
			if tc.want != "" && out != tc.want {
				t.Errorf("output\n%q\nwant\n%q", out, tc.want)
			}
			if tc.contains != "" && !strings.Contains(out, tc.contains) {
				t.Errorf("output %q does not contain %q", out, tc.contains)
			}
			for k, v := range tc.meta {
				if fmt.Sprint(r.Metadata[k]) != fmt.Sprint(v) {
					t.Errorf("metadata %s = %v, want %v (all: %v)", k, r.Metadata[k], v, r.Metadata)
				}
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"bin": "abc\x00def", "latin1": "caf\xe9\n", "ten.txt": "1\n2\n3\n", "one.txt": "only\n"})
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		args tools.Args
		want string
	}{
		{name: "missing", path: filepath.Join(dir, "nope.txt"), want: "File not found: " + filepath.Join(dir, "nope.txt")},
		{name: "directory", path: dir, want: "Path is a directory: " + dir + " (use Glob to list files)"},
		{name: "binary", path: filepath.Join(dir, "bin"), want: "Cannot read binary file: " + filepath.Join(dir, "bin") + " (7 bytes)"},
		{name: "invalid utf-8", path: filepath.Join(dir, "latin1"), want: "Cannot read binary file: "},
		{name: "dev zero", path: "/dev/zero", want: "Cannot read /dev/zero: it is a device file"},
		{name: "fifo", path: fifo, want: "named pipe (FIFO)"},
		{name: "nul byte", path: "a\x00b", want: "Invalid file_path: "},
		{name: "offset past end", path: filepath.Join(dir, "ten.txt"), args: tools.Args{"offset": 7}, want: "Offset 7 is past the end of " + filepath.Join(dir, "ten.txt") + ", which has 3 lines"},
		{name: "offset at the end", path: filepath.Join(dir, "ten.txt"), args: tools.Args{"offset": 3}, want: "Offset 3 is past the end of " + filepath.Join(dir, "ten.txt") + ", which has 3 lines"},
		{name: "offset past one line", path: filepath.Join(dir, "one.txt"), args: tools.Args{"offset": 1}, want: "Offset 1 is past the end of " + filepath.Join(dir, "one.txt") + ", which has 1 line"},
		{name: "limit above maximum", path: filepath.Join(dir, "ten.txt"), args: tools.Args{"limit": 50000}, want: "limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := tools.Args{"file_path": tc.path}
			for k, v := range tc.args {
				args[k] = v
			}
			wantFail(t, execFile(t, dir, "Read", args), tc.want)
		})
	}
	if _, err := os.Stat("/dev/stdin"); err == nil {
		r := execFile(t, dir, "Read", tools.Args{"file_path": "/dev/stdin"})
		if r.Success {
			t.Errorf("/dev/stdin was read: %q", r.Display())
		}
	}
}

func TestReadPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	dir := realTempDir(t)
	p := filepath.Join(dir, "secret")
	writeFiles(t, dir, map[string]string{"secret": "x\n"})
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	wantFail(t, execFile(t, dir, "Read", tools.Args{"file_path": p}), "Permission denied: "+p)
}

func TestReadDryRunAndCancel(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"a.txt": "a\n"})
	ec := tools.NewExecutionContext(dir)
	ec.DryRun = true
	r := fileExecutor(t, nil).Execute(t.Context(), "Read", ec, tools.Args{"file_path": "a.txt", "offset": 4, "limit": 7})
	if want := "[Dry Run] Would read up to 7 lines of " + filepath.Join(dir, "a.txt") + " starting at line 5"; r.Display() != want {
		t.Errorf("dry run %q, want %q", r.Display(), want)
	}
	tl := buildTool(t, newRead(nil), nil)
	wantFail(t, tl.Execute(cancelled(), tools.NewExecutionContext(dir), tools.Args{"file_path": "a.txt", "offset": 0, "limit": 10}), "Read cancelled")
}

func TestReadOutputCap(t *testing.T) {
	dir := realTempDir(t)
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "line %d %s\n", i, strings.Repeat("x", 60))
	}
	writeFiles(t, dir, map[string]string{"big.txt": b.String()})
	ec := tools.NewExecutionContext(dir)
	ec.MaxOutputSize = 10000
	tl := buildTool(t, newRead(nil), nil)
	r := tl.Execute(t.Context(), ec, tools.Args{"file_path": "big.txt", "offset": 0, "limit": 2000})
	out := wantOK(t, r)
	if len(out) > 10000 {
		t.Errorf("output %d bytes, over the 10000 cap", len(out))
	}
	shown := r.Metadata["lines"].(int)
	if !strings.HasSuffix(out, fmt.Sprintf("... %d more lines not shown. Use offset=%d to continue.", 3000-shown, shown)) {
		t.Errorf("no continuation line: %q", out[len(out)-200:])
	}
	if r.Metadata["total_lines"] != 3000 {
		t.Errorf("total_lines %v", r.Metadata["total_lines"])
	}
}

func TestReadConfigMaxLineLength(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"a.txt": "abcdefghij\n"})
	tl := buildTool(t, newRead(nil), map[string]any{"max_line_length": 4})
	out := wantOK(t, tl.Execute(t.Context(), tools.NewExecutionContext(dir), tools.Args{"file_path": "a.txt"}))
	if want := "     1\tabcd… [line truncated: 10 characters]"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	if _, err := newRead(nil)(t.Context(), tools.Deps{Config: map[string]any{"max_line_length": "many"}}); err == nil {
		t.Error("a bad max_line_length was accepted")
	}
}

// TestReadSchema checks that Read's exported schema carries the properties,
// constraints and defaults that models are told: file_path required, offset
// from 0, limit from 1 with a default of 2000.
func TestReadSchema(t *testing.T) {
	raw, err := tools.ExportSchema(readDescriptor, tools.FormatOpenAI)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Function struct {
			Name        string
			Description string
			Parameters  struct {
				Properties map[string]map[string]any
				Required   []string
			}
		}
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	f := s.Function
	if f.Name != "Read" || !strings.HasPrefix(f.Description, "Read contents of a file from the filesystem. Supports reading partial files with offset and limit parameters.") {
		t.Errorf("name/description: %q %q", f.Name, f.Description)
	}
	p := f.Parameters.Properties
	want := map[string]map[string]any{
		"file_path": {"type": "string", "description": "Absolute path to the file to read"},
		"offset":    {"type": "integer", "description": "Line number to start reading from", "minimum": 0.0},
		"limit":     {"type": "integer", "description": "Maximum number of lines to read", "minimum": 1.0, "maximum": 10000.0},
	}
	for name, fields := range want {
		for k, v := range fields {
			if p[name][k] != v {
				t.Errorf("%s.%s = %v, want %v", name, k, p[name][k], v)
			}
		}
	}
	if fmt.Sprint(f.Parameters.Required) != "[file_path]" {
		t.Errorf("required = %v", f.Parameters.Required)
	}
	if d, ok := readDescriptor.Parameters[1].Default, true; ok && d != 0 {
		t.Errorf("offset default %v", d)
	}
	if readDescriptor.Parameters[2].Default != 2000 {
		t.Errorf("limit default %v", readDescriptor.Parameters[2].Default)
	}
}

// TestReadTailOfBigFile reads 10 lines near the end of a 64 MiB file and
// checks that the read allocates far less than the file's size.
func TestReadTailOfBigFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 64 MiB file")
	}
	dir := realTempDir(t)
	path := filepath.Join(dir, "big.txt")
	lines := writeBigFile(t, path, 64<<20)
	tl := buildTool(t, newRead(nil), nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := tl.Execute(t.Context(), tools.NewExecutionContext(dir), tools.Args{"file_path": path, "offset": lines - 12, "limit": 10})
	runtime.ReadMemStats(&after)
	out := wantOK(t, r)
	if !strings.HasSuffix(out, fmt.Sprintf("... 2 more lines not shown. Use offset=%d to continue.", lines-2)) {
		t.Errorf("tail output ends %q", out[max(0, len(out)-120):])
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 30<<20 {
		t.Errorf("reading 10 lines allocated %d bytes", alloc)
	}
}

// writeBigFile writes about size bytes of numbered lines and returns the
// number of lines.
func writeBigFile(t testing.TB, path string, size int) int {
	t.Helper()
	var chunk bytes.Buffer
	for i := 0; chunk.Len() < 1<<20; i++ {
		fmt.Fprintf(&chunk, "line %08d of a generated file, padded to be long enough\n", i)
	}
	per := bytes.Count(chunk.Bytes(), []byte{'\n'})
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for written := 0; written < size; written += chunk.Len() {
		if _, err := f.Write(chunk.Bytes()); err != nil {
			t.Fatal(err)
		}
		n += per
	}
	return n
}

func BenchmarkReadTail(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "big.txt")
	lines := writeBigFile(b, path, 64<<20)
	tl := buildTool(b, newRead(nil), nil)
	ec := tools.NewExecutionContext(dir)
	b.SetBytes(64 << 20)
	b.ReportAllocs()
	for b.Loop() {
		if r := tl.Execute(b.Context(), ec, tools.Args{"file_path": path, "offset": lines - 10, "limit": 10}); !r.Success {
			b.Fatal(r.Error)
		}
	}
}
