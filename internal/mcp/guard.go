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
// JSON-RPC messages itself, until in ends or the SDK stops reading. The SDK
// closes the session on input it cannot decode; a client that sends garbage
// must get an error and keep its session, so garbage never reaches the SDK.
// It notes requests and cancellations in owed. Closing sdk is the caller's
// business: answers may still be owed when in ends.
func guard(in io.Reader, sdk *io.PipeWriter, out io.Writer, owed *pending) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if !pass(line, tooLong, sdk, out, owed) {
				return
			}
		}
		if err != nil {
			return // the client is done sending
		}
	}
}

// pass answers one line that is not a message, or hands it to the SDK. It
// reports false when the session is over.
func pass(line []byte, tooLong bool, sdk *io.PipeWriter, out io.Writer, owed *pending) bool {
	if reply := check(line, tooLong); reply != nil {
		if _, err := out.Write(reply); err != nil {
			sdk.CloseWithError(err)
			return false
		}
		return true
	}
	owed.sent(line)
	if id, ok := cancelledID(line); ok && !owed.cancel(id) {
		// Nothing to stop. The SDK cancels asynchronously, by id: passed
		// on, this could stop a later request that reuses the id.
		return true
	}
	_, err := sdk.Write(append(line, '\n'))
	return err == nil // else the SDK stopped reading
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
// lines never interleave, tells owed which requests are answered, and drops
// the answers to cancelled requests (the SDK writes them all).
type lockedWriter struct {
	mu   sync.Mutex
	w    io.Writer
	owed *pending
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.owed != nil && !l.owed.settle(b) {
		return len(b), nil
	}
	return l.w.Write(b)
}

// Close does nothing: standard output belongs to the process.
func (l *lockedWriter) Close() error { return nil }
