package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/builtin/internal/cfg"
	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/media"
	"github.com/forgehq/forge/internal/tools"
)

// Read's limits.
const (
	readDefaultLimit   = 2000
	readMaxLimit       = 10000
	defaultMaxLineLen  = 2000     // characters kept of a long line (Read and Grep)
	readCountBudget    = 64 << 20 // bytes scanned past the window to count what is left
	readBufferSize     = 64 << 10
	readCancelInterval = 1024 // lines between two looks at the context
)

// readDescriptor is Read's identity and schema: offset counts lines from 0,
// and limit is bounded so that one call cannot ask for a whole huge file.
var readDescriptor = tools.Descriptor{
	ReadOnly:    true,
	Name:        "Read",
	Presenter:   readPresenter{},
	Description: "Read contents of a file from the filesystem. Supports reading partial files with offset and limit parameters.",
	Category:    tools.CategoryFile,
	Parameters: []tools.Parameter{
		{Name: "file_path", Type: tools.TypeString, Description: "Absolute path to the file to read", Required: true},
		{Name: "offset", Type: tools.TypeInteger, Description: "Line number to start reading from", Default: 0, Minimum: tools.Float(0)},
		{Name: "limit", Type: tools.TypeInteger, Description: "Maximum number of lines to read", Default: readDefaultLimit, Minimum: tools.Float(1), Maximum: tools.Float(readMaxLimit)},
	},
}

// readTool reads a text file as numbered lines, streaming it so that a window
// near the end of a huge file costs a scan, not its size in memory.
type readTool struct {
	described
	maxLineLen int          // characters kept of a long line
	shells     *shellHolder // the agent's background processes: see editorFiles
}

// readMaxLineLength is tools.Read.max_line_length, the characters kept of
// a long line.
var readMaxLineLength = cfg.PositiveIntKey("max_line_length", defaultMaxLineLen)

// newRead builds Read from its tools.Read configuration: max_line_length.
func newRead(h *shellHolder) tools.Factory {
	return func(_ context.Context, deps tools.Deps) (tools.Tool, error) {
		n, err := readMaxLineLength.Get(deps.Config)
		if err != nil {
			return nil, err
		}
		return &readTool{described: described{readDescriptor}, maxLineLen: n, shells: h}, nil
	}
}

// DryRun says what would be read, or why it would be refused.
func (t *readTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	offset := intArg(args, "offset", 0, 0, 0)
	limit := intArg(args, "limit", readDefaultLimit, 1, readMaxLimit)
	path, err := fsutil.Abs(ec.WorkingDir, args.String("file_path"))
	if err != nil {
		path = args.String("file_path")
	} else if refusal := readRefusal(ec, path); refusal != "" {
		return "Would refuse: " + refusal
	}
	return fmt.Sprintf("Would read up to %d lines of %s starting at line %d", limit, path, offset+1)
}

// Execute reads the window [offset, offset+limit) of the file's lines.
func (t *readTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	raw := args.String("file_path")
	target, err := fsutil.ReadTarget(ec.WorkingDir, ec.AllowedRoots, raw, ec.ConfineReads)
	if err != nil {
		return tools.Fail(readPathError(err), "file_path", raw)
	}
	defer target.Close()
	target.Judge(ec.Judged)
	path := target.Path
	f, err := target.OpenRegular("")
	if err != nil {
		return tools.Fail(readOpenError(path, err), "file_path", path)
	}
	defer f.Close()
	size := f.Info().Size()
	r := bufio.NewReaderSize(f, readBufferSize)
	head, err := r.Peek(fsutil.SniffLen)
	if err != nil && !errors.Is(err, io.EOF) {
		return tools.Fail(fsutil.Describe(path, err), "file_path", path)
	}
	if len(head) == 0 {
		return tools.OK("File is empty: "+path, "file_path", path, "bytes", int64(0), "lines", 0, "total_lines", 0, "truncated", false)
	}
	if media.MediaType(head) != "" {
		return readImage(r, path, size)
	}
	if fsutil.LooksBinary(head, len(head) == fsutil.SniffLen) {
		return tools.Fail(fmt.Sprintf("Cannot read binary file: %s (%d bytes)", path, size), "file_path", path, "bytes", size)
	}
	if files := editorFiles(ec, t.shells); files != nil {
		// The editor's text of the file, unsaved changes included.
		text, err := files.ReadText(ctx, path)
		if err != nil {
			return tools.Fail(fmt.Sprintf("Cannot read %s through the editor: %v", path, err), "file_path", path)
		}
		if text == "" {
			return tools.OK("File is empty: "+path, "file_path", path, "bytes", int64(0), "lines", 0, "total_lines", 0, "truncated", false)
		}
		r, size = bufio.NewReaderSize(strings.NewReader(text), readBufferSize), int64(len(text))
	}
	w := readWindow{ctx: ctx, r: r, path: path, size: size, offset: intArg(args, "offset", 0, 0, 0), limit: intArg(args, "limit", readDefaultLimit, 1, readMaxLimit),
		maxLineLen: t.maxLineLen, budget: maxOutput(ec)}
	return w.read()
}

// readPathError is the message for a file_path that could not be resolved
// or was refused by the read policy.
func readPathError(err error) string {
	var outside *fsutil.OutsideError
	var missing *fs.PathError
	switch {
	case errors.As(err, &outside):
		return err.Error()
	case errors.As(err, &missing):
		return fsutil.Describe(missing.Path, err) // a confined read whose allowed root is gone
	}
	return "Invalid file_path: " + err.Error()
}

// readOpenError is the message for a file Read could not open: missing, a
// directory, something that is not a regular file, outside the roots.
func readOpenError(path string, err error) string {
	var notFile *fsutil.NotRegularError
	switch {
	case errors.As(err, &notFile) && notFile.IsDir():
		return fmt.Sprintf("Path is a directory: %s (use Glob to list files)", path)
	case errors.As(err, &notFile):
		return fmt.Sprintf("Cannot read %s: it is a %s, whose content could block or never end", path, notFile.Kind())
	case errors.Is(err, fsutil.ErrOutsideRoots):
		return err.Error()
	case errors.Is(err, fsutil.ErrChanged):
		return changedSinceChecked(path)
	}
	return fsutil.Describe(path, err)
}

// readWindow is one Read call's pass over a file: skip offset lines, number
// the next limit ones within the output budget, and say how to read on.
type readWindow struct {
	ctx           context.Context
	r             *bufio.Reader
	path          string
	size          int64
	offset, limit int
	maxLineLen    int
	budget        int // output bytes

	line      int  // lines consumed so far
	emitted   int  // lines shown
	shortened int  // lines shown shortened
	full      bool // the output budget ran out before limit lines
	eof       bool
}

// read runs the pass and returns its result.
func (w *readWindow) read() tools.Result {
	if r, ok := w.skip(); !ok {
		return r
	}
	out, err := w.numberLines()
	if err != nil {
		return w.fail(err)
	}
	if w.eof && w.emitted == 0 && w.offset > 0 {
		// The offset skipped every line: an empty answer would read as an empty file.
		return pastEnd(w.offset, w.path, w.line, w.size)
	}
	return w.finish(out)
}

// fail is the failure of a read error, or of the call's cancellation.
func (w *readWindow) fail(err error) tools.Result {
	if w.ctx.Err() != nil {
		return tools.Fail("Read cancelled: "+w.ctx.Err().Error(), "file_path", w.path)
	}
	return tools.Fail(fsutil.Describe(w.path, err), "file_path", w.path)
}

// skip consumes the first offset lines; ok is false with the failure to
// return when that fails or the file ends first.
func (w *readWindow) skip() (tools.Result, bool) {
	for w.line < w.offset {
		if w.line%readCancelInterval == 0 && w.ctx.Err() != nil {
			return w.fail(w.ctx.Err()), false
		}
		more, err := skipLine(w.r)
		if err != nil {
			return w.fail(err), false
		}
		if !more {
			return pastEnd(w.offset, w.path, w.line, w.size), false
		}
		w.line++
	}
	return tools.Result{}, true
}

// numberLines numbers up to limit lines, while they fit the output budget
// (at least one always does), and returns them one per line.
func (w *readWindow) numberLines() (*strings.Builder, error) {
	room := max(w.budget-200, w.budget/2) // what the lines may use: the rest is for the closing note
	var out strings.Builder
	var scratch []byte
	for w.emitted < w.limit {
		if w.emitted%readCancelInterval == 0 && w.ctx.Err() != nil {
			return nil, w.ctx.Err()
		}
		text, runes, ok, err := readLine(w.r, scratch[:0], w.maxLineLen)
		scratch = text[:0]
		if err != nil {
			return nil, err
		}
		if !ok {
			w.eof = true
			break
		}
		entry := fmt.Sprintf("%6d\t%s", w.line+1, text)
		if runes > w.maxLineLen {
			w.shortened++
			entry += truncatedLineMark(runes)
		}
		if out.Len()+len(entry)+1 > room && w.emitted > 0 {
			w.full = true
			break
		}
		out.WriteString(entry)
		out.WriteByte('\n')
		w.emitted++
		w.line++
	}
	return &out, nil
}

// finish returns the numbered lines, closed, when lines remain, by how many
// there are (if counting them is cheap enough) and the offset to read on.
func (w *readWindow) finish(out *strings.Builder) tools.Result {
	next := w.offset + w.emitted
	meta := []any{"file_path", w.path, "bytes", w.size, "lines", w.emitted, "offset", w.offset, "lines_shortened", w.shortened}
	whole := func() tools.Result {
		return tools.OK(strings.TrimSuffix(out.String(), "\n"), append(meta, "total_lines", w.line, "truncated", false)...)
	}
	if w.eof {
		return whole()
	}
	remaining, known, err := countLines(w.ctx, w.r, readCountBudget)
	if err != nil {
		return w.fail(err)
	}
	if w.full {
		remaining++ // the line read but left out for lack of room
	}
	if known && remaining == 0 {
		return whole()
	}
	if w.full {
		fmt.Fprintf(out, "[output limit of %d bytes reached]\n", w.budget)
	}
	if known {
		fmt.Fprintf(out, "... %s not shown. Use offset=%d to continue.", plural(remaining, "more line"), next)
		meta = append(meta, "total_lines", next+remaining)
	} else {
		fmt.Fprintf(out, "More lines follow. Use offset=%d to continue.", next)
	}
	return tools.OK(out.String(), append(meta, "truncated", true, "next_offset", next)...)
}

// pastEnd is the failure of an offset that leaves no line to read.
func pastEnd(offset int, path string, lines int, size int64) tools.Result {
	return tools.Fail(fmt.Sprintf("Offset %d is past the end of %s, which has %s", offset, path, plural(lines, "line")),
		"file_path", path, "total_lines", lines, "bytes", size)
}

// skipLine consumes one line; ok is false at the end of the file.
func skipLine(r *bufio.Reader) (ok bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if len(chunk) > 0 {
			ok = true
		}
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return ok, nil
		default:
			return ok, err
		}
	}
}

// readLine reads one line into buf and returns at most maxRunes characters
// of it, without its line ending, and its full length in characters. ok is
// false at the end of the file. Memory stays bounded by maxRunes however long
// the line is.
func readLine(r *bufio.Reader, buf []byte, maxRunes int) (text []byte, runes int, ok bool, err error) {
	keep := maxRunes*utf8.UTFMax + 2
	endsLF, crlf := false, false
	var prevLast byte
	for {
		chunk, rerr := r.ReadSlice('\n')
		if n := len(chunk); n > 0 {
			ok = true
			runes += countRuneStarts(chunk)
			if room := keep - len(buf); room > 0 {
				buf = append(buf, chunk[:min(room, n)]...)
			}
			if chunk[n-1] == '\n' {
				endsLF = true
				crlf = (n >= 2 && chunk[n-2] == '\r') || (n == 1 && prevLast == '\r')
			}
			prevLast = chunk[n-1]
		}
		if errors.Is(rerr, bufio.ErrBufferFull) {
			continue
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return buf, 0, ok, rerr
		}
		break
	}
	// The line ending is neither shown nor counted.
	if endsLF {
		runes--
		if n := len(buf); n > 0 && buf[n-1] == '\n' {
			buf = buf[:n-1]
		}
		if crlf {
			runes--
			if n := len(buf); n > 0 && buf[n-1] == '\r' {
				buf = buf[:n-1]
			}
		}
	}
	if runes > maxRunes {
		buf = cutRunes(buf, maxRunes)
	}
	return buf, runes, ok, nil
}

// countRuneStarts counts the bytes that start a character: the number of
// characters, whatever chunk boundaries cut through them.
func countRuneStarts(b []byte) int {
	n := 0
	for _, c := range b {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// truncatedLineMark follows a line that Read or Grep shortened, saying how
// many characters the whole line has.
func truncatedLineMark(n int) string { return fmt.Sprintf("… [line truncated: %d characters]", n) }

// cutRunes returns the first n characters of b.
func cutRunes(b []byte, n int) []byte {
	for i := range b {
		if b[i]&0xC0 != 0x80 {
			if n == 0 {
				return b[:i]
			}
			n--
		}
	}
	return b
}

// countLines counts the lines left in r, giving up (known=false) after
// budget bytes.
func countLines(ctx context.Context, r *bufio.Reader, budget int) (n int, known bool, err error) {
	buf := make([]byte, readBufferSize)
	read, last := 0, byte('\n')
	for read <= budget {
		if ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		m, rerr := r.Read(buf)
		if m > 0 {
			n += bytes.Count(buf[:m], []byte{'\n'})
			last = buf[m-1]
			read += m
		}
		if errors.Is(rerr, io.EOF) {
			if last != '\n' {
				n++
			}
			return n, true, nil
		}
		if rerr != nil {
			return 0, false, rerr
		}
	}
	return 0, false, nil
}
