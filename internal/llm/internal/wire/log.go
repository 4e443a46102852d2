package wire

import (
	"net/http"
	"time"

	"github.com/rs/zerolog"
)

// Next sends a request on, to the next middleware or the server.
type Next = func(*http.Request) (*http.Response, error)

// LogRequests is a middleware that logs, at debug level, each HTTP
// attempt's method, URL, status (or failure) and duration. It logs no
// header and no body, so that no key (Authorization, x-api-key, api-key)
// and no conversation reaches the log; secrets are removed from the
// failure's text and query parameters that may hold keys are masked.
func LogRequests(log zerolog.Logger, provider string, secrets ...string) func(*http.Request, Next) (*http.Response, error) {
	return func(req *http.Request, next Next) (*http.Response, error) {
		start := time.Now()
		res, err := next(req)
		ev := log.Debug()
		if !ev.Enabled() {
			return res, err
		}
		ev = ev.Str("provider", provider).
			Str("method", req.Method).
			Str("url", RedactURL(req.URL.String())).
			Dur("duration", time.Since(start))
		if n := RetryCount(req); n > 0 {
			ev = ev.Int("retry", n)
		}
		switch {
		case err != nil:
			ev.Str("error", TransportError(provider, "", err, secrets...).Message).Msg("llm request failed")
		default:
			ev.Int("status", res.StatusCode).Msg("llm request")
		}
		return res, err
	}
}
