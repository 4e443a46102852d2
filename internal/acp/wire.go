package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"
)

// maxMessage bounds one message from the editor. The SDK's reader stops
// the connection at 10 MiB; a longer line is refused here instead, and
// the connection goes on.
const maxMessage = 8 << 20

// lineWriter writes whole lines, one writer at a time: the SDK's messages
// and the errors the filter answers share standard output.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// rpcError is a JSON-RPC error answer to a message the SDK never sees.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// The JSON-RPC error codes the filter answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// filter copies the editor's messages from in to out, a line each, and
// answers on w a line that is not a JSON-RPC message with the JSON-RPC
// error it deserves, instead of handing it on: the SDK only logs such
// lines, and its reader gives up on one too long. It closes out when in
// ends.
func filter(in io.Reader, out *io.PipeWriter, w io.Writer) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if reply := check(line, tooLong); reply != nil {
				_, _ = w.Write(reply)
			} else if _, werr := out.Write(append(line, '\n')); werr != nil {
				return
			}
		}
		if err != nil {
			_ = out.CloseWithError(errOrNil(err))
			return
		}
	}
}

// errOrNil is nil for the end of input, which closes the pipe cleanly.
func errOrNil(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// readLine reads one line without its end, dropping what goes past
// maxMessage (tooLong then says so).
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		part, err := r.ReadSlice('\n')
		if len(line)+len(part) > maxMessage {
			tooLong = true
		} else {
			line = append(line, part...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			line = nil
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// check returns the error answer for a line that is not a JSON-RPC
// request, notification or response; nil when it is one.
func check(line []byte, tooLong bool) []byte {
	if tooLong {
		return errorLine(nil, codeInvalidRequest, "Invalid request: the message is longer than 8 MiB")
	}
	if !json.Valid(line) {
		return errorLine(nil, codeParseError, "Parse error: the message is not valid JSON")
	}
	var msg map[string]json.RawMessage
	if err := json.Unmarshal(line, &msg); err != nil {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("[")) {
			return errorLine(nil, codeInvalidRequest, "Invalid request: batches are not supported; send one message a line")
		}
		return errorLine(nil, codeInvalidRequest, "Invalid request: a message is a JSON object")
	}
	id, hasID := msg["id"]
	if hasID && !validID(id) {
		return errorLine(nil, codeInvalidRequest, "Invalid request: id must be a string, a number or null")
	}
	method, hasMethod := msg["method"]
	switch {
	case hasMethod && !isString(method):
		return errorLine(id, codeInvalidRequest, "Invalid request: method must be a string")
	case !hasMethod && !hasID:
		return errorLine(nil, codeInvalidRequest, "Invalid request: a message has a method, an id, or both")
	case !hasMethod && msg["result"] == nil && msg["error"] == nil:
		return errorLine(id, codeInvalidRequest, "Invalid request: a message with an id and no method is a response, with a result or an error")
	}
	if p, ok := msg["params"]; ok && !isStructured(p) {
		if !hasID {
			return nil // a notification is never answered; the SDK drops it
		}
		return errorLine(id, -32602, "Invalid params: params must be an object or an array")
	}
	return nil
}

// errorLine is one JSON-RPC error answer, a line.
func errorLine(id json.RawMessage, code int, msg string) []byte {
	e := rpcError{JSONRPC: "2.0", ID: id}
	if len(id) == 0 {
		e.ID = json.RawMessage("null")
	}
	e.Error.Code, e.Error.Message = code, msg
	b, _ := json.Marshal(e)
	return append(b, '\n')
}

func validID(raw json.RawMessage) bool {
	t := firstByte(raw)
	return t == '"' || t == 'n' || t == '-' || (t >= '0' && t <= '9')
}

func isString(raw json.RawMessage) bool { return firstByte(raw) == '"' }

func isStructured(raw json.RawMessage) bool {
	t := firstByte(raw)
	return t == '{' || t == '[' || t == 'n'
}

func firstByte(raw json.RawMessage) byte {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return 0
	}
	return b[0]
}
