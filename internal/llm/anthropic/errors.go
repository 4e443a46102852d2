package anthropic

import (
	"context"
	"errors"
	"net/http"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// streamError turns whatever ended a stream early into an *llm.Error:
// the caller's cancellation, an error answer (with the server's own
// message, whatever the shape of its body), an error event in the stream
// (overloaded_error...), an unreadable event, a stream cut short, or a
// failed connection. res is the last HTTP response, nil when none came.
func (m *Model) streamError(ctx context.Context, err error, res *http.Response) error {
	if ctx.Err() != nil {
		return llm.ContextError(m.cfg.Provider, ctx)
	}
	var (
		apiErr   *wire.HTTPError
		eventErr *eventError
	)
	switch {
	case errors.As(err, &eventErr):
		// An error event in a stream that began with 200.
		msg, typ := wire.ServerMessage(eventErr.data)
		return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindStatus, Status: typeStatus(typ), Type: typ,
			Message: llm.Redact(msg, m.cfg.APIKey), KeyVar: m.cfg.KeyVar}
	case errors.As(err, &apiErr):
		return m.statusError(apiErr.StatusCode, apiErr.Response)
	case res != nil && res.StatusCode >= 400:
		return m.statusError(res.StatusCode, res)
	}
	return wire.StreamFailure(m.cfg.Provider, m.url, err, res, m.cfg.APIKey)
}

// eventError is an error event in a stream that began with 200, such as
// {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}.
type eventError struct{ data []byte }

func (e *eventError) Error() string { return "received error while streaming: " + string(e.data) }

// statusError is the Error for an HTTP error answer.
func (m *Model) statusError(status int, res *http.Response) *llm.Error {
	return wire.ResponseError(m.cfg.Provider, status, res, m.cfg.APIKey, m.cfg.KeyVar)
}

// typeStatus is the HTTP status Anthropic gives an error type: an error
// event in a begun stream has none of its own.
func typeStatus(typ string) int {
	switch typ {
	case "invalid_request_error":
		return http.StatusBadRequest
	case "authentication_error":
		return http.StatusUnauthorized
	case "billing_error":
		return http.StatusPaymentRequired
	case "permission_error":
		return http.StatusForbidden
	case "not_found_error":
		return http.StatusNotFound
	case "request_too_large":
		return http.StatusRequestEntityTooLarge
	case "rate_limit_error":
		return http.StatusTooManyRequests
	case "timeout_error":
		return http.StatusGatewayTimeout
	case "overloaded_error":
		return 529
	}
	return http.StatusInternalServerError
}
