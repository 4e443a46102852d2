package openai

import (
	"context"
	"errors"
	"net/http"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// streamError turns whatever ended a stream early into an *llm.Error:
// the caller's cancellation, an error answer (with the server's own
// message, whatever the shape of its body), an error event in the stream,
// an unreadable event, a stream cut short, or a failed connection. res
// is the last HTTP response, nil when none came.
func (m *Model) streamError(ctx context.Context, err error, res *http.Response) error {
	if ctx.Err() != nil {
		return llm.ContextError(m.cfg.Provider, ctx)
	}
	var (
		apiErr   *wire.HTTPError
		eventErr *eventError
	)
	switch {
	case errors.As(err, &apiErr):
		return m.statusError(apiErr.StatusCode, apiErr.Response)
	case res != nil && res.StatusCode >= 400:
		return m.statusError(res.StatusCode, res)
	case errors.As(err, &eventErr):
		msg, typ := wire.ServerMessage(eventErr.data)
		return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindStatus, Status: eventStatus(typ),
			Type: typ, Message: llm.Redact(msg, m.cfg.APIKey)}
	}
	return wire.StreamFailure(m.cfg.Provider, m.url, err, res, m.cfg.APIKey)
}

// eventError is a chunk with an "error" field in a stream that began
// with 200.
type eventError struct{ data []byte }

func (e *eventError) Error() string { return "received error while streaming: " + string(e.data) }

// statusError is the Error for an HTTP error answer.
func (m *Model) statusError(status int, res *http.Response) *llm.Error {
	return wire.ResponseError(m.cfg.Provider, status, res, m.cfg.APIKey, m.cfg.KeyVar)
}

// eventStatus is the status an error event's type stands for: a stream
// that has begun has no status of its own.
func eventStatus(typ string) int {
	switch typ {
	case "rate_limit_exceeded", "rate_limit_error", "tokens_exceeded":
		return http.StatusTooManyRequests
	case "invalid_request_error":
		return http.StatusBadRequest
	case "overloaded_error":
		return 529
	}
	return http.StatusInternalServerError
}
