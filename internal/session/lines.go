package session

import (
	"bufio"
	"errors"
	"io"
)

// maxLine bounds one record. Big tool outputs live in side files, so a
// line this long is damage (or a file that is not a log), and reading it
// whole could take all the memory there is.
const maxLine = 64 << 20

// errLineTooLong marks a line longer than maxLine; it was skipped whole.
var errLineTooLong = errors.New("line too long")

// lineReader reads a log a line at a time, however long the line, without
// holding more than one line: bufio.Scanner stops at its maximum token
// size, and reading the whole file would hold every record at once.
type lineReader struct {
	r   *bufio.Reader
	buf []byte // a line longer than r's buffer, gathered
	// end is the offset just past the last line that ended in '\n': where
	// a torn last line begins.
	end int64
	off int64 // bytes read so far
	no  int   // the number of the line last returned, from 1
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its '\n' (valid until the next call)
// and whether it had one: at the end of the file a line without one is a
// record whose write was cut. It returns io.EOF after the last line, and
// errLineTooLong (with no line) for a line over maxLine.
func (lr *lineReader) next() (line []byte, complete bool, err error) {
	lr.buf = lr.buf[:0]
	tooLong := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		lr.off += int64(len(chunk))
		if errors.Is(err, bufio.ErrBufferFull) {
			if len(lr.buf)+len(chunk) > maxLine {
				tooLong, lr.buf = true, lr.buf[:0]
			} else if !tooLong {
				lr.buf = append(lr.buf, chunk...)
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		if len(chunk) == 0 && len(lr.buf) == 0 && !tooLong {
			return nil, false, io.EOF
		}
		lr.no++
		complete = err == nil
		if complete {
			lr.end = lr.off
			chunk = chunk[:len(chunk)-1]
		}
		if tooLong || len(lr.buf)+len(chunk) > maxLine {
			return nil, complete, errLineTooLong
		}
		if len(lr.buf) > 0 {
			lr.buf = append(lr.buf, chunk...)
			chunk = lr.buf
		}
		return chunk, complete, nil
	}
}
