package builtin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// copyNotebook copies a fixture into a fresh working directory.
func copyNotebook(t *testing.T, name string) (tools.ExecutionContext, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "notebook", name))
	if err != nil {
		t.Fatal(err)
	}
	ec := testEC(t)
	path := filepath.Join(ec.WorkingDir, name)
	if err := os.WriteFile(path, data, 0o640); err != nil {
		t.Fatal(err)
	}
	return ec, path
}

// nbDoc is the parts of a notebook the tests look at.
type nbDoc struct {
	Cells []struct {
		CellType       string            `json:"cell_type"`
		ID             string            `json:"id"`
		Source         []string          `json:"source"`
		Outputs        []json.RawMessage `json:"outputs"`
		ExecutionCount *int              `json:"execution_count"`
		HasOutputs     bool              `json:"-"`
		Raw            map[string]json.RawMessage
	} `json:"cells"`
	Metadata      map[string]any `json:"metadata"`
	NBFormat      int            `json:"nbformat"`
	NBFormatMinor int            `json:"nbformat_minor"`
}

func readNotebook(t *testing.T, path string) (nbDoc, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var nb nbDoc
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("the written notebook is not valid JSON: %v\n%s", err, data)
	}
	var raw struct {
		Cells []map[string]json.RawMessage `json:"cells"`
	}
	json.Unmarshal(data, &raw)
	for i := range nb.Cells {
		nb.Cells[i].Raw = raw.Cells[i]
		_, nb.Cells[i].HasOutputs = raw.Cells[i]["outputs"]
	}
	return nb, string(data)
}

func nbArgs(kv ...any) tools.Args {
	a := tools.Args{"edit_mode": "replace"}
	for i := 0; i < len(kv); i += 2 {
		a[kv[i].(string)] = kv[i+1]
	}
	return a
}

func TestNotebookReplaceCodeCell(t *testing.T) {
	ec, path := copyNotebook(t, "v45.ipynb")
	before, _ := os.ReadFile(path)
	r := notebookEditTool{}.Execute(context.Background(), ec, nbArgs("notebook_path", "v45.ipynb", "cell_id", "c1", "new_source", "print('new')\nprint(2)"))
	if !r.Success {
		t.Fatal(r.Error)
	}
	if !strings.Contains(r.Display(), "outputs and execution count were cleared") {
		t.Errorf("%q", r.Display())
	}
	nb, text := readNotebook(t, path)
	c := nb.Cells[1]
	if c.ID != "c1" || c.CellType != "code" || len(c.Outputs) != 0 || !c.HasOutputs || c.ExecutionCount != nil {
		t.Errorf("cell %+v", c)
	}
	if got := strings.Join(c.Source, "|"); got != "print('new')\n|print(2)" {
		t.Errorf("source %q", got)
	}
	// Everything else is byte-for-byte as it was: compare the files with the
	// edited cell taken out of both.
	if !strings.HasSuffix(text, "\n") || !strings.HasPrefix(text, "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",") {
		t.Errorf("layout changed:\n%s", text[:80])
	}
	cut := func(s string) string {
		i := strings.Index(s, `"cell_type": "code"`) // the start of c1
		j := strings.Index(s, `"id": "c2"`)
		return s[:i] + s[j:]
	}
	if cut(string(before)) != cut(text) {
		t.Errorf("untouched parts changed:\n--- before\n%s\n--- after\n%s", cut(string(before)), cut(text))
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v not kept", fi.Mode().Perm())
	}
}

func TestNotebookEdits(t *testing.T) {
	cases := []struct {
		name    string
		fixture string
		args    tools.Args
		check   func(t *testing.T, nb nbDoc, text string)
	}{
		{"replace by index, change type to markdown", "v45.ipynb", nbArgs("cell_id", "1", "new_source", "now *prose*", "cell_type", "markdown"),
			func(t *testing.T, nb nbDoc, _ string) {
				c := nb.Cells[1]
				if c.CellType != "markdown" || c.HasOutputs || c.Raw["execution_count"] != nil {
					t.Errorf("%+v", c)
				}
			}},
		{"replace markdown keeps its metadata", "v45.ipynb", nbArgs("cell_id", "intro", "new_source", "# New"),
			func(t *testing.T, nb nbDoc, _ string) {
				if string(nb.Cells[0].Raw["metadata"]) == "{}" || nb.Cells[0].HasOutputs {
					t.Errorf("%s", nb.Cells[0].Raw["metadata"])
				}
			}},
		{"insert after a cell gets an id", "v45.ipynb", nbArgs("edit_mode", "insert", "cell_id", "c1", "cell_type", "code", "new_source", "y = 2"),
			func(t *testing.T, nb nbDoc, _ string) {
				c := nb.Cells[2]
				if len(nb.Cells) != 4 || c.CellType != "code" || len(c.ID) != 8 || !c.HasOutputs || nb.Cells[3].ID != "c2" {
					t.Errorf("%+v", nb.Cells)
				}
			}},
		{"insert at the start", "v45.ipynb", nbArgs("edit_mode", "insert", "cell_type", "markdown", "new_source", "first"),
			func(t *testing.T, nb nbDoc, _ string) {
				if nb.Cells[0].Source[0] != "first" || nb.Cells[0].HasOutputs || nb.Cells[1].ID != "intro" {
					t.Errorf("%+v", nb.Cells[0])
				}
			}},
		{"insert into 4.4 gets no id", "v44.ipynb", nbArgs("edit_mode", "insert", "cell_id", "cell-1", "cell_type", "markdown", "new_source", "end"),
			func(t *testing.T, nb nbDoc, text string) {
				if len(nb.Cells) != 3 || nb.Cells[2].Raw["id"] != nil || strings.Contains(text, "\n") && !strings.HasSuffix(text, "\n") {
					t.Errorf("%+v", nb.Cells)
				}
				if strings.Count(text, "\n") > 1 {
					t.Errorf("a one-line notebook was re-indented: %q", text)
				}
			}},
		{"delete", "v45.ipynb", nbArgs("edit_mode", "delete", "cell_id", "c2"),
			func(t *testing.T, nb nbDoc, text string) {
				if len(nb.Cells) != 2 || strings.Contains(text, "x_custom") {
					t.Errorf("%+v", nb.Cells)
				}
			}},
		{"unknown fields and key order kept", "v45.ipynb", nbArgs("cell_id", "c2", "new_source", "x = 2"),
			func(t *testing.T, nb nbDoc, text string) {
				if !strings.Contains(text, `"x_custom": {`) || strings.Index(text, "zeta_first") > strings.Index(text, "alpha_second") {
					t.Errorf("%s", text)
				}
				if !strings.Contains(text, "Some <b>text</b> & more") || !strings.Contains(text, `"alpha_second": "é"`) {
					t.Errorf("escaping changed: %s", text)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ec, path := copyNotebook(t, c.fixture)
			c.args["notebook_path"] = path
			r := notebookEditTool{}.Execute(context.Background(), ec, c.args)
			if !r.Success {
				t.Fatal(r.Error)
			}
			nb, text := readNotebook(t, path)
			c.check(t, nb, text)
		})
	}
}

func TestNotebookErrors(t *testing.T) {
	cases := []struct {
		name    string
		fixture string
		args    tools.Args
		want    string
	}{
		{"unknown cell id", "v45.ipynb", nbArgs("cell_id", "nope", "new_source", "x"), `Cell not found: nope. Cells: id "intro", id "c1", id "c2"`},
		{"index out of range", "v45.ipynb", nbArgs("cell_id", "7", "new_source", "x"), "index 7 is out of range (the notebook has 3 cells: 0 to 2)"},
		{"insert without type", "v45.ipynb", nbArgs("edit_mode", "insert", "new_source", "x"), "cell_type is required to insert a cell"},
		{"replace without id", "v45.ipynb", nbArgs("new_source", "x"), "cell_id is required to replace a cell"},
		{"replace without source", "v45.ipynb", nbArgs("cell_id", "c1"), "new_source is required"},
		{"delete without id", "v45.ipynb", nbArgs("edit_mode", "delete"), "cell_id is required to delete a cell"},
		{"bad mode", "v45.ipynb", nbArgs("edit_mode", "move", "cell_id", "c1"), `Invalid edit_mode "move"`},
		{"bad type", "v45.ipynb", nbArgs("cell_id", "c1", "new_source", "x", "cell_type", "raw"), `Invalid cell_type "raw"`},
		{"invalid JSON", "broken.ipynb", nbArgs("cell_id", "0", "new_source", "x"), "Invalid notebook: not valid JSON"},
		{"nbformat 3", "v3.ipynb", nbArgs("cell_id", "0", "new_source", "x"), "Unsupported notebook format 3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ec, path := copyNotebook(t, c.fixture)
			before, _ := os.ReadFile(path)
			c.args["notebook_path"] = path
			r := notebookEditTool{}.Execute(context.Background(), ec, c.args)
			if r.Success || !strings.Contains(r.Error, c.want) {
				t.Fatalf("got %q, want %q", r.Error, c.want)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Error("a failed edit changed the file")
			}
		})
	}
}

func TestNotebookPaths(t *testing.T) {
	ec, _ := copyNotebook(t, "v45.ipynb")
	outside := filepath.Join(t.TempDir(), "x.ipynb")
	os.WriteFile(outside, []byte(`{"cells":[],"nbformat":4,"nbformat_minor":5}`), 0o644)
	os.WriteFile(filepath.Join(ec.WorkingDir, "notes.txt"), []byte("x"), 0o644)
	cases := map[string]string{
		"missing.ipynb": "File not found",
		"notes.txt":     "Not a Jupyter notebook",
		"a\x00b.ipynb":  "NUL byte",
		outside:         "Refusing to write outside the working directory",
	}
	for p, want := range cases {
		r := notebookEditTool{}.Execute(context.Background(), ec, nbArgs("notebook_path", p, "cell_id", "0", "new_source", "x"))
		if r.Success || !strings.Contains(r.Error, want) {
			t.Errorf("%q: got %q, want %q", p, r.Error, want)
		}
	}
}

func TestNotebookDryRunAndCancel(t *testing.T) {
	ec, path := copyNotebook(t, "v45.ipynb")
	before, _ := os.ReadFile(path)
	got := notebookEditTool{}.DryRun(ec, nbArgs("notebook_path", path, "cell_id", "c1", "new_source", "x"))
	if !strings.HasPrefix(got, `Would replace cell 1 (id "c1", code); its outputs and execution count were cleared in `) {
		t.Errorf("%q", got)
	}
	if got := (notebookEditTool{}).DryRun(ec, nbArgs("notebook_path", path, "cell_id", "zz", "new_source", "x")); !strings.HasPrefix(got, "Would fail: Cell not found") {
		t.Errorf("%q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := (notebookEditTool{}).Execute(ctx, ec, nbArgs("notebook_path", path, "cell_id", "c1", "new_source", "x")); r.Success {
		t.Errorf("%+v", r)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("dry run or cancelled call changed the file")
	}
}

// FuzzNotebookEdit: any bytes as a notebook, any edit: no panic, and a
// success is valid JSON.
func FuzzNotebookEdit(f *testing.F) {
	for _, name := range []string{"v45.ipynb", "v44.ipynb", "v3.ipynb", "broken.ipynb"} {
		data, err := os.ReadFile(filepath.Join("testdata", "notebook", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "replace", "0", "code")
		f.Add(data, "insert", "c1", "markdown")
		f.Add(data, "delete", "cell-1", "")
	}
	f.Add([]byte(`{"cells":[1,2],"nbformat":4}`), "replace", "0", "")
	f.Add([]byte(`{"cells":{},"nbformat":"4"}`), "insert", "", "code")
	f.Add([]byte(`[]`), "replace", "0", "")
	f.Fuzz(func(t *testing.T, data []byte, mode, cellID, cellType string) {
		out, _, err := applyNotebookEdit(data, nbEdit{mode: mode, cellID: cellID, hasSource: true, source: "a\nb", cellType: cellType})
		if err == nil && !json.Valid(out) {
			t.Fatalf("invalid JSON written for %q: %q", data, out)
		}
	})
}

// A new cell's id depends on the notebook and the edit alone, so that the
// change shown for approval is the change written, and is never one that
// a cell already has.
func TestFreshCellID(t *testing.T) {
	data := []byte(`{"cells":[],"nbformat":4,"nbformat_minor":5}`)
	e := nbEdit{mode: "insert", cellType: "code", source: "x = 1"}
	id := freshCellID(data, e, 0, nil)
	if len(id) != 8 || strings.Trim(id, "0123456789abcdef") != "" {
		t.Errorf("id %q is not 8 hex digits", id)
	}
	if again := freshCellID(data, e, 0, nil); again != id {
		t.Errorf("the same edit got ids %q and %q", id, again)
	}
	if other := freshCellID(data, nbEdit{mode: "insert", cellType: "code", source: "x = 2"}, 0, nil); other == id {
		t.Errorf("another edit got the same id %q", id)
	}
	taken := []jsonObject{{{key: "id", val: rawJSON(id)}}}
	if got := freshCellID(data, e, 0, taken); got == id || len(got) != 8 {
		t.Errorf("id %q given again, or malformed (%q)", id, got)
	}
}
