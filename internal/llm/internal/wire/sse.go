package wire

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ErrTooLarge is what ends a stream whose answer, or one of whose events
// or lines, passed the size it may have.
var ErrTooLarge = errors.New("the answer passed its size limit")

// Event is one server-sent event: its type ("" when it names none) and its
// data lines, each followed by "\n", as the SDKs' decoders give them.
type Event struct {
	Type string
	Data []byte
}

// Events reads a text/event-stream body one event at a time, as the SDKs'
// decoders do (comment lines skipped, "event" and "data" fields, an event
// dispatched at a blank line when it has a type or data, a last event
// without its blank line dropped), but within a bound: a line or an event
// longer than max bytes ends the stream with ErrTooLarge. The SDKs'
// decoders keep appending data lines until a blank line comes, so a server
// that never sends one could fill the memory.
type Events struct {
	r    *bufio.Reader
	rc   io.Closer
	max  int
	ev   Event
	data []byte // the current event's data, reused
	line []byte // a line longer than the reader's buffer, assembled
	err  error
}

// NewEvents reads events from body, none longer than max bytes.
func NewEvents(body io.ReadCloser, max int) *Events {
	return &Events{r: bufio.NewReaderSize(body, 64<<10), rc: body, max: max}
}

// Next reads the next event, false at the end of the stream or on an
// error (Err).
func (e *Events) Next() bool {
	if e.err != nil {
		return false
	}
	typ, data := "", e.data[:0]
	for {
		line, err := e.readLine()
		if err != nil {
			if err != io.EOF {
				e.err = err
			}
			return false
		}
		if len(line) == 0 {
			if typ == "" && len(data) == 0 {
				continue
			}
			e.data = data
			e.ev = Event{Type: typ, Data: data}
			return true
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
		switch string(name) {
		case "event":
			typ = string(value)
		case "data":
			if len(data)+len(value)+1 > e.max {
				e.err = ErrTooLarge
				return false
			}
			data = append(append(data, value...), '\n')
		}
		// Anything else, a comment (": ping") included, is skipped.
	}
}

// Event is the event Next read. Its Data is valid until Next is called
// again.
func (e *Events) Event() Event { return e.ev }

// Err is what ended the stream early; nil at its end.
func (e *Events) Err() error { return e.err }

// Close closes the body.
func (e *Events) Close() error { return e.rc.Close() }

// readLine returns the next line without its "\n" or "\r\n"; a last line
// without a newline is a line. The slice is valid until the next read.
func (e *Events) readLine() ([]byte, error) {
	e.line = e.line[:0]
	for {
		chunk, err := e.r.ReadSlice('\n')
		if len(e.line)+len(chunk) > e.max+2 {
			return nil, ErrTooLarge
		}
		switch {
		case err == bufio.ErrBufferFull:
			e.line = append(e.line, chunk...)
			continue
		case err == io.EOF && len(e.line)+len(chunk) > 0:
			err = nil
		case err != nil:
			return nil, err
		}
		line := chunk
		if len(e.line) > 0 {
			e.line = append(e.line, chunk...)
			line = e.line
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		return bytes.TrimSuffix(line, []byte("\r")), nil
	}
}
