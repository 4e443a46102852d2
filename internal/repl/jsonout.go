package repl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/forgehq/forge/internal/tools"
)

// The shapes of -o json: one compact object per command, on one line.

// resultJSON is a tool result.
type resultJSON struct {
	Tool       string         `json:"tool"`
	Status     tools.Status   `json:"status"`
	Success    bool           `json:"success"`
	Output     any            `json:"output"`
	Error      string         `json:"error"`
	ErrorKind  string         `json:"error_kind"`
	DurationMS float64        `json:"duration_ms"`
	Metadata   map[string]any `json:"metadata"`
	// Suggestions are the closest tool names when the tool is unknown.
	Suggestions []string `json:"suggestions,omitempty"`
}

func newResultJSON(tool string, r tools.Result) resultJSON {
	md := r.Metadata
	if md == nil {
		md = map[string]any{}
	}
	return resultJSON{Tool: tool, Status: r.Status, Success: r.Success, Output: r.Output, Error: r.Error,
		ErrorKind: string(r.ErrorKind), DurationMS: r.DurationMS, Metadata: md}
}

// errorObject is a failure that is not a tool result.
type errorObject struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	Kind        string   `json:"kind"`
	Message     string   `json:"message"`
	Suggestions []string `json:"suggestions,omitempty"`
}

func errorJSON(kind, msg string) errorObject {
	return errorObject{Error: errorBody{Kind: kind, Message: msg}}
}

// writeError reports a failure that is not a tool result: an error object
// on out in JSON mode, else "Error: msg" on errOut.
func writeError(jsonMode bool, out, errOut io.Writer, kind, msg string) {
	if jsonMode {
		writeJSONLine(out, errorJSON(kind, msg))
		return
	}
	fmt.Fprintln(errOut, "Error: "+msg)
}

// toolJSON describes one tool in /tools.
type toolJSON struct {
	Name         string            `json:"name"`
	Category     tools.Category    `json:"category"`
	Description  string            `json:"description"`
	LoopBreaking bool              `json:"loop_breaking,omitempty"`
	Parameters   []tools.Parameter `json:"parameters"`
}

func newToolJSON(d tools.Descriptor) toolJSON {
	ps := d.Parameters
	if ps == nil {
		ps = []tools.Parameter{}
	}
	return toolJSON{Name: d.Name, Category: d.Category, Description: d.Description, LoopBreaking: d.LoopBreaking, Parameters: ps}
}

// executionJSON is one history entry.
type executionJSON struct {
	Seq         int64      `json:"seq"`
	Tool        string     `json:"tool"`
	Parameters  tools.Args `json:"parameters"`
	StartedAt   string     `json:"started_at"`
	CompletedAt string     `json:"completed_at"`
	resultJSON
}

// encodeJSON returns v as one compact line of JSON, newline included. HTML
// characters stay as they are (<, >, &), since the reader is a person, a
// program or jq, not a browser.
func encodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeJSONLine writes v as one compact line.
func writeJSONLine(w io.Writer, v any) {
	b, err := encodeJSON(v)
	if err != nil {
		b, _ = encodeJSON(errorJSON("internal", "cannot encode output as JSON: "+err.Error()))
	}
	_, _ = w.Write(b)
}

// indentJSON returns v indented by two spaces as the wireframes print
// schemas: keys in order, short lists such as "required" on one line.
func indentJSON(v any) ([]byte, error) {
	b, err := encodeJSON(v)
	if err != nil {
		return nil, err
	}
	out, err := tools.IndentSchema(b, "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
