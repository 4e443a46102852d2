// Package anthropic is forge's provider for Anthropic's Messages API,
// streaming, over HTTP as the official SDK speaks it. It turns llm.Requests into Messages
// requests (with prompt-cache breakpoints on the system prompt and the
// tools) and the streamed events back into one llm.Response, and every
// failure into an *llm.Error.
package anthropic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/internal/wire"
)

// DefaultBaseURL is Anthropic's API.
const DefaultBaseURL = "https://api.anthropic.com"

// DefaultMaxRetries is how often a request is sent again after a rate
// limit, an overload, a server failure or a connection that failed before
// the answer.
const DefaultMaxRetries = 3

// apiVersion is the anthropic-version header the official SDK sends.
const apiVersion = "2026-10-21"

// DefaultMaxTokens bounds an answer when the Request does not: the API
// requires a bound.
const DefaultMaxTokens = 8192

// Config configures a Model.
type Config struct {
	// Provider is the name used in errors and logs; default "anthropic".
	Provider string
	// APIKey is sent in the x-api-key header, as the API documents.
	APIKey string
	// KeyVar names where the key comes from, for the hint of a 401 or
	// 403; default ANTHROPIC_API_KEY.
	KeyVar string
	// BaseURL is where the API is; default DefaultBaseURL.
	BaseURL string
	// Model is used for requests that name none.
	Model string
	// HTTPClient sends the requests; default a client without timeout
	// (the request's context bounds it).
	HTTPClient *http.Client
	// MaxRetries: 0 means DefaultMaxRetries, a negative number none.
	MaxRetries int
	// Logger, at debug level, logs each HTTP attempt (method, URL,
	// status, duration), never a header or a body. The zero Logger logs
	// nothing.
	Logger zerolog.Logger
	// MaxAnswerBytes caps one answer's text, thinking and tool-call
	// arguments together; 0 means llm.DefaultMaxAnswerBytes.
	MaxAnswerBytes int
	// StreamIdleTimeout fails a request that brings nothing new for this
	// long, before its answer begins (retried) or during it (ping events
	// bring nothing); 0 means llm.DefaultStreamIdleTimeout.
	StreamIdleTimeout time.Duration
	// MaxAnswerTime fails an answer still streaming this long after it
	// began; 0 means llm.DefaultMaxAnswerTime.
	MaxAnswerTime time.Duration
	// AfterFunc starts the idle timers; nil means llm.SystemAfterFunc.
	AfterFunc llm.AfterFunc
}

// Model is a model behind the Messages API. It is safe for concurrent use.
type Model struct {
	cfg    Config
	url    string // BaseURL as errors show it
	limits wire.Limits
	// client sends the bodies forge writes itself (see body), with the
	// key and the API's version, retried as the SDK retries.
	client *wire.Client
	tools  wire.ToolCache
}

var _ llm.Model = (*Model)(nil)

// New returns a Model for cfg.
func New(cfg Config) (*Model, error) {
	if cfg.Provider == "" {
		cfg.Provider = "anthropic"
	}
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	// Requests go to the base URL's /v1/messages; a URL copied from
	// OpenAI-style settings often ends in /v1 already, which would ask for
	// /v1/v1/messages.
	cfg.BaseURL = strings.TrimSuffix(strings.TrimSuffix(cfg.BaseURL, "/"), "/v1")
	if cfg.KeyVar == "" {
		cfg.KeyVar = "ANTHROPIC_API_KEY"
	}
	retries := cfg.MaxRetries
	switch {
	case retries == 0:
		retries = DefaultMaxRetries
	case retries < 0:
		retries = 0
	}
	// The client retries 408, 409, 429 and 5xx answers (529
	// "overloaded" among them) and connections that failed before a
	// response, never 400/401/403/404, honours retry-after-ms and
	// Retry-After up to wire.MaxRetryAfter (a longer wait is reported
	// instead), backs off exponentially from 0.5 s otherwise, and never
	// retries a stream that has begun. An attempt without a response
	// within the idle timeout is a failed connection (AnswerWithin).
	limits := wire.Limits{MaxAnswerBytes: cfg.MaxAnswerBytes, IdleTimeout: cfg.StreamIdleTimeout, MaxAnswerTime: cfg.MaxAnswerTime,
		AfterFunc: cfg.AfterFunc}.WithDefaults()
	client := &wire.Client{BaseURL: cfg.BaseURL, HTTP: cfg.HTTPClient, MaxRetries: retries,
		Header: http.Header{"Anthropic-Version": {apiVersion}},
		Middleware: []func(*http.Request, wire.Next) (*http.Response, error){
			wire.LogRequests(cfg.Logger, cfg.Provider, cfg.APIKey), limits.AnswerWithin()}}
	if cfg.APIKey != "" {
		// API keys go in x-api-key; "Authorization: Bearer" is for OAuth
		// tokens.
		client.Header.Set("X-Api-Key", cfg.APIKey)
	}
	// Nothing is read from the environment (ANTHROPIC_API_KEY,
	// ANTHROPIC_BASE_URL, profiles): forge's configuration decides.
	return &Model{cfg: cfg, url: wire.RedactURL(cfg.BaseURL), limits: limits, client: client}, nil
}

// Stream sends req and streams the answer: onDelta gets each piece of
// text as it arrives and each tool call's name when the call starts.
func (m *Model) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	if onDelta == nil {
		onDelta = func(llm.Delta) {}
	}
	body, think, err := m.request(req)
	if err != nil {
		return llm.Response{}, err
	}
	var beta http.Header
	if think.budget > 0 {
		beta = http.Header{"Anthropic-Beta": {interleavedBeta}}
	}
	// The same bytes are sent again on a retry. The response's events are
	// read with a bounded event-stream decoder and decoded here into
	// forge's own small event type (see readEvents). The stream runs under
	// its own context, which the idle watch cancels.
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	res, err := m.client.PostWith(sctx, "v1/messages", body, beta)
	if err != nil {
		return llm.Response{}, m.streamError(ctx, err, res)
	}
	var a assembler
	if res != nil && res.Body != nil {
		watch := m.limits.Watch(cancel)
		defer watch.Stop()
		events := wire.NewEvents(res.Body, m.limits.MaxEvent())
		defer events.Close()
		if err := readEvents(events, &a, onDelta, watch); err != nil {
			switch {
			case errors.Is(err, wire.ErrTooLarge):
				return llm.Response{}, m.limits.TooLarge(m.cfg.Provider)
			case ctx.Err() == nil && watch.Ended(m.cfg.Provider, m.url) != nil:
				return llm.Response{}, watch.Ended(m.cfg.Provider, m.url)
			}
			return llm.Response{}, m.streamError(ctx, err, res)
		}
	}
	if ctx.Err() != nil {
		return llm.Response{}, llm.ContextError(m.cfg.Provider, ctx)
	}
	if !a.finished {
		return llm.Response{}, m.unfinished(&a, res)
	}
	return a.response(), nil
}

// readEvents feeds the stream's events to a until the end, doing what the
// SDK's typed stream does with them: ping events and events without a type
// or data are skipped, an error event ends the stream with an *eventError,
// and an event that is not JSON with a decoding error. Unlike the SDK's
// typed stream, it decodes each event once into a type with only the
// fields forge reads, not through the SDK's reflection-based apijson layer.
// watch sees the answer grow after each event.
func readEvents(events *wire.Events, a *assembler, onDelta func(llm.Delta), watch *wire.Watch) error {
	for events.Next() {
		ev := events.Event()
		switch ev.Type {
		case "", "ping":
			continue
		case "error":
			return &eventError{data: bytes.Clone(bytes.TrimSuffix(ev.Data, []byte("\n")))}
		}
		if len(bytes.TrimSuffix(ev.Data, []byte("\n"))) == 0 {
			continue
		}
		var e event
		if err := e.decode(ev.Data); err != nil {
			return err // the caller says the event was not the API's JSON
		}
		a.add(&e, onDelta)
		if err := watch.Saw(a.size); err != nil {
			return err
		}
	}
	return events.Err()
}

// unfinished is the error for a stream that ended without its
// message_stop (or a stop reason): cut short, or not a stream at all.
func (m *Model) unfinished(a *assembler, res *http.Response) error {
	if a.events > 0 {
		return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindInterrupted, URL: m.url,
			Message: "the stream ended without message_stop"}
	}
	msg := "the stream had no events"
	if res != nil {
		if ct := res.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(ct, "text/event-stream") {
			msg = fmt.Sprintf("not an event stream (%s)", ct)
		}
	}
	return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindMalformed, URL: m.url, Message: msg}
}
