package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// maxLine bounds one incoming message, as the SDK's default does.
const maxLine = 16 << 20

// guard copies in to sdk one line at a time, answering lines that are not
// JSON-RPC messages itself. The SDK closes the session on input it cannot
// decode; a client that sends garbage must get an error and keep its
// session, so garbage never reaches the SDK.
//
// When in ends, the SDK's input stays open until every request passed on
// has been answered (see pending), so no answer is lost.
func guard(in io.Reader, sdk *io.PipeWriter, out io.Writer, owed *pending) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if reply := check(line, tooLong); reply != nil {
				if _, werr := out.Write(reply); werr != nil {
					sdk.CloseWithError(werr)
					return
				}
			} else {
				owed.sent(line)
				if _, werr := sdk.Write(append(line, '\n')); werr != nil {
					return // the SDK stopped reading: the session is over
				}
			}
		}
		if err != nil {
			owed.wait(drainLimit)
			sdk.Close() // EOF: the client is done, and has its answers
			return
		}
	}
}

// readLine reads one line without its newline. A line longer than maxLine
// is consumed and reported as tooLong.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, isPrefix, err := r.ReadLine()
		if len(line)+len(chunk) > maxLine {
			tooLong = true
		} else {
			line = append(line, chunk...)
		}
		if err != nil || !isPrefix {
			if tooLong {
				line = nil
			}
			return line, tooLong, err
		}
	}
}

// check returns the JSON-RPC error answer for a line that is not a valid
// message, or nil for a line the SDK can take.
func check(line []byte, tooLong bool) []byte {
	if tooLong {
		return errorReply(nil, jsonrpc.CodeParseError, "Parse error: message longer than 16 MiB")
	}
	trimmed := bytes.TrimSpace(line)
	if !json.Valid(trimmed) {
		return errorReply(nil, jsonrpc.CodeParseError, "Parse error: not valid JSON")
	}
	if trimmed[0] == '[' {
		// The protocol versions forge speaks have no batches; the SDK would
		// end the session on one.
		return errorReply(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: batches are not supported")
	}
	if _, err := jsonrpc.DecodeMessage(trimmed); err != nil {
		return errorReply(idOf(trimmed), jsonrpc.CodeInvalidRequest, "Invalid Request: "+err.Error())
	}
	return nil
}

// idOf returns the message's id when it is a valid one, so the client can
// match the error to its request.
func idOf(msg []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	if _, ok := idValue(m.ID); !ok {
		return nil
	}
	return m.ID
}

// idValue decodes a JSON-RPC id: a string or a float64, the only kinds of
// id the protocol allows; ok is false for anything else.
func idValue(raw json.RawMessage) (any, bool) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil, false
	}
	switch v.(type) {
	case string, float64:
		return v, true
	}
	return nil, false
}

// errorReply is the JSON-RPC error response, one line, for the request id
// (null when unknown).
func errorReply(id json.RawMessage, code int64, message string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	type rpcError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: rpcError{code, message}})
	return append(b, '\n')
}

// lockedWriter serialises the SDK's writes and the guard's, so that their
// lines never interleave, and tells owed which requests are answered.
type lockedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	owed *pending
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(b)
	l.mu.Unlock()
	if l.owed != nil && err == nil {
		l.owed.answered(b)
	}
	return n, err
}

// Close does nothing: standard output belongs to the process.
func (l *lockedWriter) Close() error { return nil }
