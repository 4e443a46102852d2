package builtin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// notebookMaxBytes bounds the notebooks NotebookEdit loads into memory.
const notebookMaxBytes = 128 << 20

var notebookEditDescriptor = tools.Descriptor{
	Name: "NotebookEdit",
	Description: "Edit Jupyter notebook cells. Replaces, inserts or deletes one cell of an .ipynb file; everything else in the notebook is kept as it was. " +
		"cell_id is a cell's id, or its 0-based index as \"3\" or \"cell-3\". Replacing a code cell clears its outputs and execution count. " +
		"insert needs cell_type and puts the new cell after cell_id (at the start without one). The file is written atomically.",
	Category: tools.CategoryNotebook,
	Parameters: []tools.Parameter{
		{Name: "notebook_path", Type: tools.TypeString, Description: "Path to the .ipynb file (relative paths resolve against the working directory)", Required: true, MinLength: tools.Int(1)},
		{Name: "cell_id", Type: tools.TypeString, Description: "The cell's id, or its 0-based index (\"3\" or \"cell-3\"); for insert, the cell after which to insert (omit to insert at the start)"},
		{Name: "new_source", Type: tools.TypeString, Description: "The new source of the cell (replace and insert)"},
		{Name: "cell_type", Type: tools.TypeString, Description: "The cell's type; required for insert", Enum: []any{"code", "markdown"}},
		{Name: "edit_mode", Type: tools.TypeString, Description: "What to do with the cell", Default: "replace", Enum: []any{"replace", "insert", "delete"}},
	},
}

// notebookEditTool edits .ipynb files.
type notebookEditTool struct{ described }

func newNotebookEdit(context.Context, tools.Deps) (tools.Tool, error) {
	return notebookEditTool{described{notebookEditDescriptor}}, nil
}

// nbEdit is one requested change.
type nbEdit struct {
	mode      string // replace, insert, delete
	cellID    string // "" when absent
	hasSource bool
	source    string
	cellType  string // "" when absent
}

func editFromArgs(args tools.Args) nbEdit {
	mode := args.String("edit_mode")
	if mode == "" {
		mode = "replace"
	}
	return nbEdit{mode: mode, cellID: strings.TrimSpace(args.String("cell_id")), hasSource: args.Has("new_source"),
		source: args.String("new_source"), cellType: args.String("cell_type")}
}

// DryRun says what would change, having checked that it could.
func (t notebookEditTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	target, data, err := loadNotebook(ec, args.String("notebook_path"), fsutil.WriteTarget)
	if err != nil {
		return "Would fail: " + err.Error()
	}
	_ = target.Close()
	_, summary, err := applyNotebookEdit(data, editFromArgs(args))
	if err != nil {
		return "Would fail: " + err.Error()
	}
	return fmt.Sprintf("Would %s in %s", summary.text, target.Path)
}

// Execute applies the edit and writes the notebook atomically, reading and
// writing through the same root.
func (t notebookEditTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	target, data, err := loadNotebook(ec, args.String("notebook_path"), fsutil.WriteTarget)
	if err != nil {
		return tools.Fail(err.Error())
	}
	defer target.Close()
	path := target.Path
	out, summary, err := applyNotebookEdit(data, editFromArgs(args))
	if err != nil {
		return tools.Fail(err.Error(), "notebook_path", path)
	}
	if err := ctx.Err(); err != nil {
		return tools.Fail("Cancelled before writing " + path + ": " + err.Error())
	}
	if _, err := target.WriteAtomic(out); err != nil {
		return tools.Fail(err.Error(), "notebook_path", path)
	}
	text := strings.ToUpper(summary.text[:1]) + summary.text[1:] + " in " + path + "."
	return tools.OK(text, "notebook_path", path, "edit_mode", summary.mode, "cell_id", summary.cellID,
		"index", summary.index, "cell_type", summary.cellType, "cells", summary.cells)
}

// loadNotebook resolves the path with resolve, for writing or for a look
// before a write (inside the working directory or an allowed root, links
// resolved), and reads the file through the target's root. The caller
// closes the target.
func loadNotebook(ec tools.ExecutionContext, p string, resolve func(wd string, roots []string, p string) (*fsutil.Target, error)) (*fsutil.Target, []byte, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return nil, nil, errors.New("Invalid notebook_path: it contains a NUL byte")
	}
	target, err := resolve(ec.WorkingDir, ec.AllowedRoots, p)
	if err != nil {
		return nil, nil, err
	}
	target.Judge(ec.Judged)
	data, err := readNotebookFile(target)
	if err != nil {
		_ = target.Close()
		return nil, nil, err
	}
	return target, data, nil
}

// readNotebookFile reads the notebook file target, which must be a regular
// .ipynb file of at most notebookMaxBytes.
func readNotebookFile(target *fsutil.Target) ([]byte, error) {
	path := target.Path
	if !strings.EqualFold(filepath.Ext(path), ".ipynb") {
		return nil, fmt.Errorf("Not a Jupyter notebook: %s (NotebookEdit edits .ipynb files; use Edit for other files)", path)
	}
	f, err := target.OpenRegular("")
	var notFile *fsutil.NotRegularError
	switch {
	case errors.As(err, &notFile):
		return nil, fmt.Errorf("Not a regular file: %s", path)
	case errors.Is(err, fsutil.ErrOutsideRoots):
		return nil, err
	case err != nil:
		return nil, errors.New(fsutil.Describe(path, err))
	}
	defer f.Close()
	if size := f.Info().Size(); size > notebookMaxBytes {
		return nil, fmt.Errorf("Notebook too large: %s is %d bytes (at most %d)", path, size, notebookMaxBytes)
	}
	data, ok, err := f.ReadAll(notebookMaxBytes)
	switch {
	case err != nil:
		return nil, errors.New(fsutil.Describe(path, err))
	case !ok:
		return nil, fmt.Errorf("Notebook too large: %s grew past %d bytes while it was read", path, notebookMaxBytes)
	}
	return data, nil
}

// nbSummary describes an applied edit.
type nbSummary struct {
	text     string // "replace cell 2 (id "a1", code)"
	mode     string
	cellID   string
	index    int
	cellType string
	cells    int // cells after the edit
}

// notebook is a parsed nbformat 4 document: its top-level object, whose
// "cells" member is rewritten from cells on encoding.
type notebook struct {
	top          jsonObject
	cells        []jsonObject
	major, minor int
	data         []byte // the document as read, from which new cells' ids are derived
}

// applyNotebookEdit applies e to the notebook data and returns the new file
// content. It never panics on any input (FuzzNotebookEdit).
func applyNotebookEdit(data []byte, e nbEdit) ([]byte, nbSummary, error) {
	nb, err := parseNotebook(data)
	if err != nil {
		return nil, nbSummary{}, err
	}
	if e.cellType != "" && e.cellType != "code" && e.cellType != "markdown" {
		return nil, nbSummary{}, fmt.Errorf("Invalid cell_type %q: must be code or markdown", e.cellType)
	}
	var sum nbSummary
	switch e.mode {
	case "replace":
		sum, err = nb.replaceCell(e)
	case "insert":
		sum, err = nb.insertCell(e)
	case "delete":
		sum, err = nb.deleteCell(e)
	default:
		err = fmt.Errorf("Invalid edit_mode %q: must be replace, insert or delete", e.mode)
	}
	if err != nil {
		return nil, nbSummary{}, err
	}
	sum.mode, sum.cells = e.mode, len(nb.cells)
	out, err := nb.encode(data)
	if err != nil {
		return nil, nbSummary{}, err
	}
	return out, sum, nil
}

// parseNotebook parses an nbformat 4 notebook, refusing older formats and
// documents without a cells array of objects.
func parseNotebook(data []byte) (*notebook, error) {
	top, err := parseObject(data)
	if err != nil {
		return nil, fmt.Errorf("Invalid notebook: not valid JSON (%v)", err)
	}
	major, minor := nbVersion(top)
	if major < 4 {
		if _, ok := top.get("worksheets"); ok || major > 0 {
			return nil, fmt.Errorf("Unsupported notebook format %d: NotebookEdit edits nbformat 4 notebooks (convert with `jupyter nbconvert --to notebook`)", major)
		}
	}
	rawCells, ok := top.get("cells")
	if !ok {
		return nil, errors.New("Invalid notebook: it has no \"cells\" array")
	}
	var cellsRaw []json.RawMessage
	if err := json.Unmarshal(rawCells, &cellsRaw); err != nil {
		return nil, errors.New("Invalid notebook: \"cells\" is not an array")
	}
	cells := make([]jsonObject, len(cellsRaw))
	for i, c := range cellsRaw {
		if cells[i], err = parseObject(c); err != nil {
			return nil, fmt.Errorf("Invalid notebook: cell %d is not a JSON object", i)
		}
	}
	return &notebook{top: top, cells: cells, major: major, minor: minor, data: data}, nil
}

// replaceCell gives the cell e.cellID new source (and type, if given). A
// code cell's outputs and execution count are cleared: they describe code
// that is gone.
func (nb *notebook) replaceCell(e nbEdit) (nbSummary, error) {
	var sum nbSummary
	if e.cellID == "" {
		return sum, errors.New("cell_id is required to replace a cell")
	}
	if !e.hasSource {
		return sum, errors.New("new_source is required to replace a cell")
	}
	i, err := findCell(nb.cells, e.cellID)
	if err != nil {
		return sum, err
	}
	c := nb.cells[i]
	typ := c.getString("cell_type")
	if e.cellType != "" {
		typ = e.cellType
	}
	c.set("cell_type", rawJSON(typ))
	c.set("source", rawJSON(splitSource(e.source)))
	if typ == "code" {
		c.set("execution_count", json.RawMessage("null"))
		c.set("outputs", json.RawMessage("[]"))
	} else {
		c.del("execution_count")
		c.del("outputs")
	}
	if _, ok := c.get("metadata"); !ok {
		c.set("metadata", json.RawMessage("{}"))
	}
	nb.cells[i] = c
	sum.index, sum.cellType, sum.cellID = i, typ, cellLabel(c, i)
	sum.text = fmt.Sprintf("replace cell %d (%s, %s)", i, sum.cellID, typ)
	if typ == "code" {
		sum.text += "; its outputs and execution count were cleared"
	}
	return sum, nil
}

// insertCell adds a new cell after e.cellID, or at the start without one.
func (nb *notebook) insertCell(e nbEdit) (nbSummary, error) {
	var sum nbSummary
	if e.cellType == "" {
		return sum, errors.New("cell_type is required to insert a cell (code or markdown)")
	}
	if !e.hasSource {
		return sum, errors.New("new_source is required to insert a cell")
	}
	at := 0
	if e.cellID != "" {
		i, err := findCell(nb.cells, e.cellID)
		if err != nil {
			return sum, err
		}
		at = i + 1
	}
	withID := nb.major > 4 || (nb.major == 4 && nb.minor >= 5) // cell ids came with nbformat 4.5
	id := ""
	if withID {
		id = freshCellID(nb.data, e, at, nb.cells)
	}
	c := newCell(e.cellType, e.source, id)
	nb.cells = append(nb.cells[:at], append([]jsonObject{c}, nb.cells[at:]...)...)
	sum.index, sum.cellType, sum.cellID = at, e.cellType, cellLabel(c, at)
	sum.text = fmt.Sprintf("insert a %s cell at index %d (%s)", e.cellType, at, sum.cellID)
	return sum, nil
}

// deleteCell removes the cell e.cellID.
func (nb *notebook) deleteCell(e nbEdit) (nbSummary, error) {
	var sum nbSummary
	if e.cellID == "" {
		return sum, errors.New("cell_id is required to delete a cell")
	}
	i, err := findCell(nb.cells, e.cellID)
	if err != nil {
		return sum, err
	}
	sum.index, sum.cellType, sum.cellID = i, nb.cells[i].getString("cell_type"), cellLabel(nb.cells[i], i)
	nb.cells = append(nb.cells[:i], nb.cells[i+1:]...)
	sum.text = fmt.Sprintf("delete cell %d (%s, %s)", i, sum.cellID, sum.cellType)
	return sum, nil
}

// encode writes the notebook back with its edited cells, laid out as orig
// was.
func (nb *notebook) encode(orig []byte) ([]byte, error) {
	var arr bytes.Buffer
	arr.WriteByte('[')
	for i, c := range nb.cells {
		if i > 0 {
			arr.WriteByte(',')
		}
		arr.Write(c.marshal())
	}
	arr.WriteByte(']')
	nb.top.set("cells", arr.Bytes())
	out, err := formatLike(orig, nb.top.marshal())
	if err != nil {
		return nil, fmt.Errorf("Invalid notebook: %v", err)
	}
	return out, nil
}

// formatLike lays out doc as the original was: same indentation, and a final
// newline if it had one.
func formatLike(orig []byte, doc []byte) ([]byte, error) {
	var b bytes.Buffer
	var err error
	if ind := detectIndent(orig); ind != "" {
		err = json.Indent(&b, doc, "", ind)
	} else {
		err = json.Compact(&b, doc)
	}
	if err != nil {
		return nil, err
	}
	if bytes.HasSuffix(bytes.TrimRight(orig, " \t\r"), []byte("\n")) {
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// nbVersion reads nbformat and nbformat_minor (0 when absent or invalid).
func nbVersion(top jsonObject) (major, minor int) {
	read := func(k string) int {
		raw, ok := top.get(k)
		if !ok {
			return 0
		}
		var n json.Number
		if json.Unmarshal(raw, &n) != nil {
			return 0
		}
		i, err := strconv.Atoi(n.String())
		if err != nil {
			return 0
		}
		return i
	}
	return read("nbformat"), read("nbformat_minor")
}

// findCell returns the index of the cell with that id, or of the cell at
// that 0-based index ("3" or "cell-3").
func findCell(cells []jsonObject, id string) (int, error) {
	for i, c := range cells {
		if c.getString("id") == id {
			return i, nil
		}
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(id, "cell-")); err == nil {
		if n >= 0 && n < len(cells) {
			return n, nil
		}
		if len(cells) == 0 {
			return 0, fmt.Errorf("Cell not found: %s (the notebook has no cells)", id)
		}
		return 0, fmt.Errorf("Cell not found: index %d is out of range (the notebook has %d cells: 0 to %d)", n, len(cells), len(cells)-1)
	}
	var known []string
	for i, c := range cells {
		if i == 20 {
			known = append(known, "...")
			break
		}
		known = append(known, cellLabel(c, i))
	}
	if len(known) == 0 {
		return 0, fmt.Errorf("Cell not found: %s (the notebook has no cells)", id)
	}
	return 0, fmt.Errorf("Cell not found: %s. Cells: %s (or a 0-based index such as \"0\")", id, strings.Join(known, ", "))
}

// cellLabel names a cell: its id, or cell-N when it has none.
func cellLabel(c jsonObject, i int) string {
	if id := c.getString("id"); id != "" {
		return "id " + strconv.Quote(id)
	}
	return "cell-" + strconv.Itoa(i)
}

// newCell makes a cell as Jupyter writes it (keys sorted), with id unless
// it is "" (the format has ids from nbformat 4.5).
func newCell(typ, source, id string) jsonObject {
	c := jsonObject{{key: "cell_type", val: rawJSON(typ)}}
	if typ == "code" {
		c = append(c, jsonField{key: "execution_count", val: json.RawMessage("null")})
	}
	if id != "" {
		c = append(c, jsonField{key: "id", val: rawJSON(id)})
	}
	c = append(c, jsonField{key: "metadata", val: json.RawMessage("{}")})
	if typ == "code" {
		c = append(c, jsonField{key: "outputs", val: json.RawMessage("[]")})
	}
	return append(c, jsonField{key: "source", val: rawJSON(splitSource(source))})
}

// freshCellID returns 8 hex digits that no other cell uses as its id (the
// form Jupyter gives ids), derived from the notebook as read and the cell
// inserted at index at: the same edit of the same file gets the same id,
// so that the change shown for approval is the change written.
func freshCellID(data []byte, e nbEdit, at int, existing []jsonObject) string {
	h := sha256.New()
	h.Write(data)
	fmt.Fprintf(h, "\x00%d\x00%s\x00%s", at, e.cellType, e.source)
	sum := h.Sum(nil)
	for n := 0; ; n++ {
		if n > 0 {
			sum2 := sha256.Sum256(append(sum, byte(n), byte(n>>8), byte(n>>16), byte(n>>24)))
			sum = sum2[:]
		}
		id := hex.EncodeToString(sum[:4])
		if !slices.ContainsFunc(existing, func(c jsonObject) bool { return c.getString("id") == id }) {
			return id
		}
	}
}

// splitSource splits source into lines that keep their "\n", as nbformat
// stores multi-line strings.
func splitSource(s string) []string {
	out := []string{}
	for line := range strings.Lines(s) {
		out = append(out, line)
	}
	return out
}
