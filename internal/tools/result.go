package tools

import "fmt"

// Status is the final state of one execution.
type Status string

// The states an execution can end in.
const (
	StatusSuccess   Status = "success"
	StatusFailed    Status = "failed"
	StatusDryRun    Status = "dry_run"
	StatusTimedOut  Status = "timed_out"
	StatusCancelled Status = "cancelled"
)

// ErrorKind says why a result failed, so that callers (the shell's panels and
// exit statuses, an agent loop) can react without parsing messages.
type ErrorKind string

// The kinds of failure. A successful result has the empty kind.
const (
	KindNone        ErrorKind = ""
	KindValidation  ErrorKind = "validation"   // arguments did not satisfy the parameters
	KindUnknownTool ErrorKind = "unknown_tool" // no tool of that name is registered
	KindExecution   ErrorKind = "execution"    // the tool ran and reported a failure
	KindPanic       ErrorKind = "panic"        // the tool panicked; the panic was recovered
	KindTimeout     ErrorKind = "timeout"      // the deadline passed
	KindCancelled   ErrorKind = "cancelled"    // the caller cancelled
	KindFactory     ErrorKind = "factory"      // a lazy tool could not be built
	KindRateLimited ErrorKind = "rate_limited" // the tool's rate limit refused the call
	KindDenied      ErrorKind = "denied"       // the approval policy, a hook or the person refused the call
)

// Result is what every tool call returns: a value the model can read, never a
// Go error that aborts the caller.
type Result struct {
	Success    bool           `json:"success"`
	Status     Status         `json:"status"`
	Output     any            `json:"output"`
	Error      string         `json:"error,omitempty"`
	ErrorKind  ErrorKind      `json:"error_kind,omitempty"`
	DurationMS float64        `json:"duration_ms"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	// Images are pictures the call shows the model beside its Output (a
	// screenshot read, an MCP tool's image). They are not part of the
	// result's JSON: Metadata says what they are.
	Images []Image `json:"-"`
}

// Image is a picture a tool returns: its bytes and their media type
// (image/png, image/jpeg, image/gif or image/webp).
type Image struct {
	MediaType string
	Data      []byte
}

// OK returns a successful result. kv are alternating metadata keys and values,
// as in log/slog: OK(out, "lines", 100, "bytes", 5000).
func OK(output any, kv ...any) Result {
	return Result{Success: true, Status: StatusSuccess, Output: output, Metadata: metadata(kv)}
}

// Fail returns a failed result of kind KindExecution with the given message and
// metadata pairs: Fail("Permission denied", "path", "/etc/shadow", "errno", 13).
func Fail(message string, kv ...any) Result {
	return Result{Status: StatusFailed, Error: message, ErrorKind: KindExecution, Metadata: metadata(kv)}
}

// Display is the text a model or a person sees: the output on success,
// "Error: message" on failure.
func (r Result) Display() string {
	if !r.Success {
		return "Error: " + r.Error
	}
	switch out := r.Output.(type) {
	case nil:
		return ""
	case string:
		return out
	case fmt.Stringer:
		return out.String()
	default:
		return fmt.Sprint(out)
	}
}

// WithMeta returns r with one more metadata entry; the map is copied so a
// shared result is never mutated.
func (r Result) WithMeta(key string, value any) Result {
	m := make(map[string]any, len(r.Metadata)+1)
	for k, v := range r.Metadata {
		m[k] = v
	}
	m[key] = value
	r.Metadata = m
	return r
}

func metadata(kv []any) map[string]any {
	if len(kv) == 0 {
		return nil
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		key := fmt.Sprint(kv[i])
		if i+1 < len(kv) {
			m[key] = kv[i+1]
		} else {
			m[key] = nil
		}
	}
	return m
}
