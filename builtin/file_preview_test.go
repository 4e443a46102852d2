package builtin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// previewThenRun previews a call through the registry's (lazy) tool, checks
// that the preview wrote nothing, runs the call, and checks that the file
// then holds exactly the content the preview announced.
func previewThenRun(t *testing.T, reg *tools.Registry, ec tools.ExecutionContext, name string, args tools.Args) tools.Change {
	t.Helper()
	tl, ok := reg.Get(name)
	if !ok {
		t.Fatalf("%s not registered", name)
	}
	c, err := tools.PreviewChange(tl, ec, args)
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if c.Unshown != "" {
		t.Fatalf("preview shows nothing: %s", c.Unshown)
	}
	before, readErr := os.ReadFile(c.Path)
	switch {
	case c.Created && !errors.Is(readErr, os.ErrNotExist):
		t.Fatalf("preview says %s is new, but reading it gives %v", c.Path, readErr)
	case !c.Created && string(before) != string(c.Old):
		t.Fatalf("preview's old content differs from the file:\npreview %q\nfile    %q", c.Old, before)
	}
	res := tools.NewExecutor(reg).Execute(context.Background(), name, ec, args)
	if !res.Success {
		t.Fatalf("%s failed after its preview succeeded: %s", name, res.Error)
	}
	after, err := os.ReadFile(c.Path)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(c.New) {
		t.Fatalf("%s wrote other content than its preview announced:\npreview %q\nwritten %q", name, c.New, after)
	}
	return c
}

// The preview of a change is the change the tool then makes, byte for byte.
func TestPreviewIsWhatRuns(t *testing.T) {
	big := strings.Repeat("filler line of a big file\n", (1<<20)/26+100) + "needle\n" // over 1 MiB
	for _, tc := range []struct {
		name, tool string
		files      map[string]string
		args       tools.Args
		created    bool
	}{
		{"an edit of a CRLF file with LF old_string", "Edit", map[string]string{"f.txt": "one\r\ntwo\r\nthree\r\n"},
			tools.Args{"file_path": "f.txt", "old_string": "two\nthree", "new_string": "2\n3"}, false},
		{"an edit of a file over 1 MiB", "Edit", map[string]string{"big.txt": big},
			tools.Args{"file_path": "big.txt", "old_string": "needle", "new_string": "pin"}, false},
		{"replace_all", "Edit", map[string]string{"f.go": "a := x\nb := x + x\n"},
			tools.Args{"file_path": "f.go", "old_string": "x", "new_string": "y", "replace_all": true}, false},
		{"an edit creating a file", "Edit", nil,
			tools.Args{"file_path": "new/f.txt", "old_string": "", "new_string": "hello\n"}, true},
		{"a Write creating a file", "Write", nil,
			tools.Args{"file_path": "sub/new.txt", "content": "fresh\n"}, true},
		{"a Write over a file", "Write", map[string]string{"f.txt": "old\r\ncontent\r\n"},
			tools.Args{"file_path": "f.txt", "content": "new\ncontent\n"}, false},
		{"a notebook cell replaced", "NotebookEdit", nil,
			tools.Args{"notebook_path": "v45.ipynb", "cell_id": "c1", "new_source": "x = 2"}, false},
		{"a notebook cell inserted, with a fresh id", "NotebookEdit", nil,
			tools.Args{"notebook_path": "v45.ipynb", "edit_mode": "insert", "cell_id": "c1", "cell_type": "code", "new_source": "y = 3"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := realTempDir(t)
			writeFiles(t, dir, tc.files)
			if tc.tool == "NotebookEdit" {
				data, err := os.ReadFile(filepath.Join("testdata", "notebook", "v45.ipynb"))
				if err != nil {
					t.Fatal(err)
				}
				writeFiles(t, dir, map[string]string{"v45.ipynb": string(data)})
			}
			reg := specRegistry(t, nil, fileSpecs(&shellHolder{}), otherSpecs())
			c := previewThenRun(t, reg, tools.NewExecutionContext(dir), tc.tool, tc.args)
			if c.Created != tc.created {
				t.Errorf("Created = %v, want %v", c.Created, tc.created)
			}
			if !filepath.IsAbs(c.Path) || !strings.HasPrefix(c.Path, dir) {
				t.Errorf("Path = %q, want an absolute path in %s", c.Path, dir)
			}
		})
	}
}

// A call that would fail says so, in the tool's words, and a file that
// cannot be shown says why; nothing is written either way.
func TestPreviewFailuresAndUnshown(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"f.txt": "alpha\nbeta\n", "bin.dat": "\x00\x01\x02binary"})
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.log")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(writePreviewMax + 1); err != nil { // sparse: no disk is spent
		t.Fatal(err)
	}
	f.Close()
	reg := specRegistry(t, nil, fileSpecs(&shellHolder{}), otherSpecs())
	ec := tools.NewExecutionContext(dir)
	for _, tc := range []struct {
		name, tool  string
		args        tools.Args
		fail, shown string // what the error, or else Unshown, says
	}{
		{"old_string not found", "Edit", tools.Args{"file_path": "f.txt", "old_string": "gamma", "new_string": "delta"},
			"old_string was not found in " + filepath.Join(dir, "f.txt"), ""},
		{"old_string twice", "Edit", tools.Args{"file_path": "f.txt", "old_string": "a", "new_string": "b"}, "appears 3 times", ""},
		{"an edit outside the roots", "Edit", tools.Args{"file_path": "/etc/hostname", "old_string": "a", "new_string": "b"}, "outside", ""},
		{"an edit of a missing file", "Edit", tools.Args{"file_path": "nope.txt", "old_string": "a", "new_string": "b"}, "nope.txt", ""},
		{"a Write over a directory", "Write", tools.Args{"file_path": "adir", "content": "x"}, "Path is a directory", ""},
		{"a notebook that is not one", "NotebookEdit", tools.Args{"notebook_path": "f.txt", "cell_id": "0", "new_source": "x"}, "Not a Jupyter notebook", ""},
		{"a Write over a binary file", "Write", tools.Args{"file_path": "bin.dat", "content": "text\n"}, "", "the file is binary (9 bytes); Write would replace it with 5 bytes"},
		{"a Write of binary content", "Write", tools.Args{"file_path": "f.txt", "content": "a\x00b"}, "", "the new content is binary (3 bytes)"},
		{"a Write over a file too large to read", "Write", tools.Args{"file_path": "huge.log", "content": "x"}, "", "more than the"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl, _ := reg.Get(tc.tool)
			c, err := tools.PreviewChange(tl, ec, tc.args)
			switch {
			case tc.fail != "" && (err == nil || !strings.Contains(err.Error(), tc.fail)):
				t.Errorf("error = %v, want one saying %q", err, tc.fail)
			case tc.fail != "" && errors.Is(err, tools.ErrNoPreview):
				t.Errorf("a failing call is reported as having no preview: %v", err)
			case tc.fail == "" && err != nil:
				t.Errorf("error = %v, want an unshown change", err)
			case tc.fail == "" && !strings.Contains(c.Unshown, tc.shown):
				t.Errorf("Unshown = %q, want it to say %q", c.Unshown, tc.shown)
			case tc.fail == "" && (len(c.Old) > 0 || len(c.New) > 0):
				t.Errorf("an unshown change carries content: %d and %d bytes", len(c.Old), len(c.New))
			}
		})
	}
	if got := mustRead(t, filepath.Join(dir, "f.txt")); got != "alpha\nbeta\n" {
		t.Errorf("a preview changed f.txt: %q", got)
	}
}

// A preview creates nothing, not even the allowed root a write would
// create, and a tool without previews says so.
func TestPreviewCreatesNothing(t *testing.T) {
	dir := realTempDir(t)
	root := filepath.Join(dir, "missing-root")
	ec := tools.NewExecutionContext(filepath.Join(dir))
	ec.AllowedRoots = []string{root}
	reg := specRegistry(t, nil, fileSpecs(&shellHolder{}), otherSpecs())
	tl, _ := reg.Get("Write")
	c, err := tools.PreviewChange(tl, ec, tools.Args{"file_path": filepath.Join(root, "a", "f.txt"), "content": "x\n"})
	if err != nil || !c.Created || c.Path != filepath.Join(root, "a", "f.txt") || string(c.New) != "x\n" {
		t.Errorf("preview = %+v, %v; want the creation of %s", c, err, filepath.Join(root, "a", "f.txt"))
	}
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the preview created the allowed root: %v", err)
	}
	read, _ := reg.Get("Read")
	if _, err := tools.PreviewChange(read, ec, tools.Args{"file_path": "x"}); !errors.Is(err, tools.ErrNoPreview) {
		t.Errorf("Read's preview: %v, want ErrNoPreview", err)
	}
}
