package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// MaxBackoff bounds the wait between two attempts when the server names
// none.
const MaxBackoff = 8 * time.Second

// Client sends a provider's requests: the bodies forge writes, with the
// provider's headers, through its middlewares, retried as the official
// SDKs retry. forge does not link the SDKs: their packages build tables
// of every API type when a program starts, which every forge command paid
// whether it asked a model or not.
type Client struct {
	// BaseURL is where the API is; a request's path is joined to it.
	BaseURL string
	// HTTP sends the requests; nil means a client without timeout (the
	// request's context bounds it).
	HTTP *http.Client
	// Header is sent with every request (the key, the API's version).
	Header http.Header
	// MaxRetries is how often a request is sent again after a 408, 409,
	// 429 or 5xx answer (or as x-should-retry says) and after a
	// connection that failed before the answer.
	MaxRetries int
	// Middleware wraps each attempt, the first outermost.
	Middleware []func(*http.Request, Next) (*http.Response, error)
	// Jitter returns a number in [0, n) that shortens a backoff; nil
	// means math/rand/v2's.
	Jitter func(n int64) int64
}

// HTTPError is an error answer: its status and the response, whose
// body is read and can be read again.
type HTTPError struct {
	StatusCode int
	Response   *http.Response
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("%s %s: %s", e.Response.Request.Method, RedactURL(e.Response.Request.URL.String()), e.Response.Status)
}

// retryCountKey carries an attempt's number to the middlewares (a retry
// is logged as one).
type retryCountKey struct{}

// RetryCount is the number of the attempt req is: 0 for the first.
func RetryCount(req *http.Request) int {
	n, _ := req.Context().Value(retryCountKey{}).(int)
	return n
}

// Post sends body as JSON to path and returns the response: an error
// answer as a *HTTPError beside it, a failed connection as the error
// with the last response (nil when none came).
func (c *Client) Post(ctx context.Context, path string, body []byte) (*http.Response, error) {
	return c.do(ctx, http.MethodPost, path, body, nil)
}

// PostWith is Post with headers added to the client's for this request
// (a beta feature it asks for).
func (c *Client) PostWith(ctx context.Context, path string, body []byte, header http.Header) (*http.Response, error) {
	return c.do(ctx, http.MethodPost, path, body, header)
}

// Get asks for path.
func (c *Client) Get(ctx context.Context, path string) (*http.Response, error) {
	return c.do(ctx, http.MethodGet, path, nil, nil)
}

func (c *Client) do(ctx context.Context, method, path string, body []byte, header http.Header) (*http.Response, error) {
	u, err := joinURL(c.BaseURL, path)
	if err != nil {
		return nil, err
	}
	send := c.sender(u)
	var res *http.Response
	for attempt := 0; ; attempt++ {
		req, err := c.request(context.WithValue(ctx, retryCountKey{}, attempt), method, u, body, header)
		if err != nil {
			return nil, err
		}
		res, err = send(req)
		if ctx.Err() != nil {
			if res != nil && res.Body != nil {
				_ = res.Body.Close()
			}
			return nil, ctx.Err()
		}
		if attempt >= c.MaxRetries || !shouldRetry(res, err) {
			if err != nil {
				return res, err
			}
			break
		}
		delay, ok := c.delay(res, attempt)
		if !ok {
			break // the answer asks for a wait too long: it is the answer
		}
		if res != nil && res.Body != nil {
			_ = res.Body.Close()
		}
		if err := wait(ctx, delay); err != nil {
			return nil, err
		}
	}
	if res.StatusCode >= 400 {
		b, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if err != nil {
			return res, err
		}
		res.Body = io.NopCloser(bytes.NewReader(b))
		return res, &HTTPError{StatusCode: res.StatusCode, Response: res}
	}
	return res, nil
}

// request is one attempt's request.
func (c *Client) request(ctx context.Context, method string, u *url.URL, body []byte, header http.Header) (*http.Request, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), r)
	if err != nil {
		return nil, err
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	for k, v := range header {
		for _, x := range v {
			req.Header.Add(k, x)
		}
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return req, nil
}

// sender is the HTTP client's Do wrapped in the middlewares. The client
// follows no redirect to another host: the key would go with it.
func (c *Client) sender(u *url.URL) Next {
	hc := http.Client{}
	if c.HTTP != nil {
		hc = *c.HTTP
	}
	check := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != u.Scheme || req.URL.Host != u.Host {
			return fmt.Errorf("redirected to another server (%s): not followed, so that the key stays with %s", req.URL.Host, u.Host)
		}
		if check != nil {
			return check(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	next := hc.Do
	for i := len(c.Middleware) - 1; i >= 0; i-- {
		mw, inner := c.Middleware[i], next
		next = func(req *http.Request) (*http.Response, error) { return mw(req, inner) }
	}
	return next
}

// shouldRetry says an attempt's outcome is worth another: a connection
// that failed before an answer, or an answer the server says is passing.
func shouldRetry(res *http.Response, err error) bool {
	if err != nil || res == nil {
		return true
	}
	switch res.Header.Get("X-Should-Retry") {
	case "true":
		return true
	case "false":
		return false
	}
	s := res.StatusCode
	return s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500
}

// delay is the wait before the attempt after attempt: what the answer
// asks for (retry-after-ms, Retry-After), up to MaxRetryAfter, else a
// backoff doubling from 0.5 s to MaxBackoff, shortened by up to a quarter.
// false: the answer asks for more than MaxRetryAfter.
func (c *Client) delay(res *http.Response, attempt int) (time.Duration, bool) {
	if res != nil {
		if d, ok := retryAfter(res.Header); ok {
			return d, d <= MaxRetryAfter
		}
	}
	d := MaxBackoff
	if b := 0.5 * float64(time.Second) * math.Pow(2, float64(attempt)); b < float64(MaxBackoff) {
		d = time.Duration(b)
	}
	jitter := c.Jitter
	if jitter == nil {
		jitter = rand.Int64N
	}
	if n := int64(d / 4); n > 0 {
		d -= time.Duration(jitter(n))
	}
	return d, true
}

// retryAfter is the wait an answer names, if it names one it can be read.
func retryAfter(h http.Header) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return durationOf(ms, time.Millisecond), true
		}
	}
	v := h.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
		return durationOf(s, time.Second), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t)), true
	}
	return 0, false
}

// durationOf is n units, saturating rather than overflowing.
func durationOf(n float64, unit time.Duration) time.Duration {
	if n*float64(unit) >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(n * float64(unit))
}

// wait waits d, or until ctx ends.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// joinURL is path below base (a base without a trailing slash is a
// directory all the same).
func joinURL(base, path string) (*url.URL, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("base URL %s: %w", RedactURL(base), err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("base URL %s: not an http or https URL", RedactURL(base))
	}
	path, query, _ := strings.Cut(path, "?")
	u.Path = strings.TrimSuffix(u.Path, "/") + "/" + strings.TrimPrefix(path, "/")
	u.RawPath = ""
	if query != "" {
		u.RawQuery = query
	}
	return u, nil
}

// ModelIDs asks for a model list at path and reads its answer,
// {"data": [{"id": ...}, ...]}, as OpenAI's and Anthropic's APIs (and the
// servers like them) give it. res is the last response, for the caller's
// words on a failure.
func (c *Client) ModelIDs(ctx context.Context, path string) (ids []string, res *http.Response, err error) {
	if res, err = c.Get(ctx, path); err != nil {
		return nil, res, err
	}
	defer res.Body.Close()
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 8<<20)).Decode(&page); err != nil {
		return nil, res, fmt.Errorf("read the list of models: %w", err)
	}
	for _, d := range page.Data {
		if d.ID != "" {
			ids = append(ids, d.ID)
		}
	}
	return ids, res, nil
}
