package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/builtin/internal/cfg"
	"github.com/forgehq/forge/builtin/internal/fsutil"
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

// readDescriptor is Read's identity and schema (seed 002 sections 1 and 4).
var readDescriptor = tools.Descriptor{
	ReadOnly:    true,
	Name:        "Read",
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
	maxLineLen int // characters kept of a long line
}

// newRead builds Read from its tools.Read configuration: max_line_length.
func newRead(_ context.Context, deps tools.Deps) (tools.Tool, error) {
	n, err := cfg.PositiveInt(deps.Config, "max_line_length", defaultMaxLineLen)
	if err != nil {
		return nil, err
	}
	return &readTool{described: described{readDescriptor}, maxLineLen: n}, nil
}

// DryRun says what would be read.
func (t *readTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	offset := intArg(args, "offset", 0, 0, 0)
	limit := intArg(args, "limit", readDefaultLimit, 1, readMaxLimit)
	path, err := fsutil.Abs(ec.WorkingDir, args.String("file_path"))
	if err != nil {
		path = args.String("file_path")
	}
	return fmt.Sprintf("Would read up to %d lines of %s starting at line %d", limit, path, offset+1)
}

// Execute reads the window [offset, offset+limit) of the file's lines.
func (t *readTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	path, err := fsutil.Abs(ec.WorkingDir, args.String("file_path"))
	if err != nil {
		return tools.Fail("Invalid file_path: "+err.Error(), "file_path", args.String("file_path"))
	}
	offset := intArg(args, "offset", 0, 0, 0)
	limit := intArg(args, "limit", readDefaultLimit, 1, readMaxLimit)

	fi, err := os.Stat(path)
	if err != nil {
		return tools.Fail(fsutil.Describe(path, err), "file_path", path)
	}
	if fi.IsDir() {
		return tools.Fail(fmt.Sprintf("Path is a directory: %s (use Glob to list files)", path), "file_path", path)
	}
	if kind := fsutil.SpecialFile(fi.Mode()); kind != "" {
		return tools.Fail(fmt.Sprintf("Cannot read %s: it is a %s, whose content could block or never end", path, kind), "file_path", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return tools.Fail(fsutil.Describe(path, err), "file_path", path)
	}
	defer f.Close()
	// The path may have been replaced between Stat and Open.
	if ofi, err := f.Stat(); err != nil || !ofi.Mode().IsRegular() {
		return tools.Fail(fmt.Sprintf("Cannot read %s: not a regular file", path), "file_path", path)
	}
	size := fi.Size()
	r := bufio.NewReaderSize(f, readBufferSize)
	head, err := r.Peek(fsutil.SniffLen)
	if err != nil && !errors.Is(err, io.EOF) {
		return tools.Fail(fsutil.Describe(path, err), "file_path", path)
	}
	if len(head) == 0 {
		return tools.OK("File is empty: "+path, "file_path", path, "bytes", int64(0), "lines", 0, "total_lines", 0, "truncated", false)
	}
	if fsutil.LooksBinary(head, len(head) == fsutil.SniffLen) {
		return tools.Fail(fmt.Sprintf("Cannot read binary file: %s (%d bytes)", path, size), "file_path", path, "bytes", size)
	}
	return t.stream(ctx, ec, r, path, size, offset, limit)
}

// stream skips offset lines, numbers the next limit ones, and says how to
// read on when lines remain.
func (t *readTool) stream(ctx context.Context, ec tools.ExecutionContext, r *bufio.Reader, path string, size int64, offset, limit int) tools.Result {
	fail := func(err error) tools.Result {
		if ctx.Err() != nil {
			return tools.Fail("Read cancelled: "+ctx.Err().Error(), "file_path", path)
		}
		return tools.Fail(fsutil.Describe(path, err), "file_path", path)
	}
	line := 0 // lines consumed so far
	for line < offset {
		if line%readCancelInterval == 0 && ctx.Err() != nil {
			return fail(ctx.Err())
		}
		ok, err := skipLine(r)
		if err != nil {
			return fail(err)
		}
		if !ok {
			return pastEnd(offset, path, line, size)
		}
		line++
	}

	budget := maxOutput(ec)
	room := max(budget-200, budget/2) // what the lines may use: the rest is for the closing note
	var out strings.Builder
	var scratch []byte
	shortened, emitted := 0, 0
	full := false // the output budget ran out before limit lines
	eof := false
	for emitted < limit {
		if emitted%readCancelInterval == 0 && ctx.Err() != nil {
			return fail(ctx.Err())
		}
		text, runes, ok, err := readLine(r, scratch[:0], t.maxLineLen)
		scratch = text[:0]
		if err != nil {
			return fail(err)
		}
		if !ok {
			eof = true
			break
		}
		entry := fmt.Sprintf("%6d\t%s", line+1, text)
		if runes > t.maxLineLen {
			shortened++
			entry += truncatedLineMark(runes)
		}
		if out.Len()+len(entry)+1 > room && emitted > 0 {
			full = true
			break
		}
		out.WriteString(entry)
		out.WriteByte('\n')
		emitted++
		line++
	}
	if eof && emitted == 0 && offset > 0 {
		// The offset skipped every line: an empty answer would read as an empty file.
		return pastEnd(offset, path, line, size)
	}
	next := offset + emitted
	meta := []any{"file_path", path, "bytes", size, "lines", emitted, "offset", offset, "lines_shortened", shortened}
	if eof {
		return tools.OK(strings.TrimSuffix(out.String(), "\n"), append(meta, "total_lines", line, "truncated", false)...)
	}
	// Lines may remain: count them if that is cheap enough, so the caller
	// knows how much is left.
	remaining, known, err := countLines(ctx, r, readCountBudget)
	if err != nil {
		return fail(err)
	}
	if full {
		remaining++ // the line read but left out for lack of room
	}
	if known && remaining == 0 {
		return tools.OK(strings.TrimSuffix(out.String(), "\n"), append(meta, "total_lines", line, "truncated", false)...)
	}
	if full {
		out.WriteString(fmt.Sprintf("[output limit of %d bytes reached]\n", budget))
	}
	if known {
		out.WriteString(fmt.Sprintf("... %s not shown. Use offset=%d to continue.", plural(remaining, "more line"), next))
		meta = append(meta, "total_lines", next+remaining)
	} else {
		out.WriteString(fmt.Sprintf("More lines follow. Use offset=%d to continue.", next))
	}
	return tools.OK(out.String(), append(meta, "truncated", true, "next_offset", next)...)
}

// skipLine consumes one line; ok is false at the end of the file.
// pastEnd is the failure of an offset that leaves no line to read.
func pastEnd(offset int, path string, lines int, size int64) tools.Result {
	return tools.Fail(fmt.Sprintf("Offset %d is past the end of %s, which has %s", offset, path, plural(lines, "line")),
		"file_path", path, "total_lines", lines, "bytes", size)
}

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
