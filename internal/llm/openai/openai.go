// Package openai is forge's provider for OpenAI Chat Completions and every
// server that speaks it (Ollama, llama.cpp, vLLM, LM Studio, OpenRouter,
// ...), streaming, over HTTP as the official SDK speaks it. It turns llm.Requests into
// Chat Completions requests and the streamed chunks back into one
// llm.Response, and every failure into an *llm.Error.
package openai

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

// The base URLs of the providers that have a default.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	OllamaBaseURL  = "http://localhost:11434/v1"
)

// DefaultMaxRetries is how often a request is sent again after a rate
// limit, a server failure or a connection that failed before the answer.
const DefaultMaxRetries = 3

// Config configures a Model.
type Config struct {
	// Provider is the name used in errors and logs: "openai" (the
	// default), "ollama", or any OpenAI-compatible server's name.
	Provider string
	// APIKey is sent as a bearer token; empty sends none (Ollama needs
	// none).
	APIKey string
	// KeyVar names where the key comes from, for the hint of a 401 or
	// 403; default OPENAI_API_KEY for "openai".
	KeyVar string
	// BaseURL is where the API is; default DefaultBaseURL for "openai",
	// OllamaBaseURL for "ollama". Other providers must give one.
	BaseURL string
	// Model is used for requests that name none.
	Model string
	// API is the API requests go to: APIChat (Chat Completions) or
	// APIResponses; "" is the Responses API for OpenAI's own API and Chat
	// Completions for every other server.
	API string
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
	// long, before its answer begins (retried) or during it (keep-alives
	// bring nothing); 0 means llm.DefaultStreamIdleTimeout.
	StreamIdleTimeout time.Duration
	// MaxAnswerTime fails an answer still streaming this long after it
	// began; 0 means llm.DefaultMaxAnswerTime.
	MaxAnswerTime time.Duration
	// AfterFunc starts the idle timers; nil means llm.SystemAfterFunc.
	AfterFunc llm.AfterFunc
}

// Model is a model behind an OpenAI-compatible API. It is safe for
// concurrent use.
type Model struct {
	cfg    Config
	url    string
	limits wire.Limits
	// client sends the bodies forge writes itself (see body), with the
	// key, retried as the SDK retries.
	client *wire.Client
	tools  wire.ToolCache
	// rtools are the tools as the Responses API takes them.
	rtools wire.ToolCache
}

var _ llm.Model = (*Model)(nil)

// New returns a Model for cfg.
func New(cfg Config) (*Model, error) {
	if cfg.Provider == "" {
		cfg.Provider = "openai"
	}
	if cfg.BaseURL == "" {
		switch cfg.Provider {
		case "openai":
			cfg.BaseURL = DefaultBaseURL
		case "ollama":
			cfg.BaseURL = OllamaBaseURL
		default:
			return nil, fmt.Errorf("%s: no base URL: give the server's URL with --base-url", cfg.Provider)
		}
	}
	if cfg.KeyVar == "" && cfg.Provider == "openai" {
		cfg.KeyVar = "OPENAI_API_KEY"
	}
	limits := wire.Limits{MaxAnswerBytes: cfg.MaxAnswerBytes, IdleTimeout: cfg.StreamIdleTimeout, MaxAnswerTime: cfg.MaxAnswerTime,
		AfterFunc: cfg.AfterFunc}.WithDefaults()
	// Nothing is read from the environment (OPENAI_API_KEY,
	// OPENAI_BASE_URL): forge's configuration decides, and a key for
	// OpenAI must never be sent to another server.
	return &Model{cfg: cfg, url: wire.RedactURL(cfg.BaseURL), limits: limits, client: newClient(cfg, limits)}, nil
}

// newClient is the HTTP client every request of cfg's Model goes through.
func newClient(cfg Config, limits wire.Limits) *wire.Client {
	retries := cfg.MaxRetries
	switch {
	case retries == 0:
		retries = DefaultMaxRetries
	case retries < 0:
		retries = 0
	}
	// The client retries 408, 409, 429 and 5xx answers and connections
	// that failed before a response, never 400/401/403/404, honours
	// retry-after-ms and Retry-After (up to 2 minutes; a longer wait is not
	// retried but reported), backs off exponentially from 0.5 s otherwise,
	// and never retries a stream that has begun. An attempt without a
	// response within the idle timeout is such a failed connection
	// (AnswerWithin).
	c := &wire.Client{BaseURL: cfg.BaseURL, HTTP: cfg.HTTPClient, MaxRetries: retries, Header: http.Header{},
		Middleware: []func(*http.Request, wire.Next) (*http.Response, error){
			wire.LogRequests(cfg.Logger, cfg.Provider, cfg.APIKey), limits.AnswerWithin()}}
	if cfg.APIKey != "" {
		c.Header.Set("Authorization", "Bearer "+cfg.APIKey)
	}
	return c
}

// Stream sends req and streams the answer: onDelta gets each piece of
// text as it arrives and each tool call's name when the call starts.
func (m *Model) Stream(ctx context.Context, req llm.Request, onDelta func(llm.Delta)) (llm.Response, error) {
	if onDelta == nil {
		onDelta = func(llm.Delta) {}
	}
	if m.usesResponses() {
		body, err := m.responsesBody(req)
		if err != nil {
			return llm.Response{}, err
		}
		var a rAssembler
		err = m.stream(ctx, "responses", body, func(events *wire.Events, watch *wire.Watch) error {
			return readResponseEvents(events, &a, onDelta, watch)
		}, func(res *http.Response) error {
			if !a.finished {
				return m.unfinished(a.events, res, "the stream ended without response.completed")
			}
			return nil
		})
		if err != nil {
			return llm.Response{}, err
		}
		return a.response(), nil
	}
	body, err := m.body(req)
	if err != nil {
		return llm.Response{}, err
	}
	var a assembler
	err = m.stream(ctx, "chat/completions", body, func(events *wire.Events, watch *wire.Watch) error {
		return readEvents(events, &a, onDelta, watch)
	}, func(res *http.Response) error {
		if !a.finished {
			return m.unfinished(a.chunks, res, "the stream ended without a finish_reason")
		}
		return nil
	})
	if err != nil {
		return llm.Response{}, err
	}
	return a.response(), nil
}

// stream posts body to path and reads the answer's events with read,
// under the limits of an answer's size and of silence; finished says
// whether what was read is a whole answer.
func (m *Model) stream(ctx context.Context, path string, body []byte, read func(*wire.Events, *wire.Watch) error,
	finished func(*http.Response) error) error {
	// The same bytes are sent again on a retry. The response's events are
	// read with a bounded event-stream decoder and decoded here into
	// forge's own small types, in one pass. The stream runs under its own
	// context, which the idle watch cancels.
	sctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	res, err := m.client.Post(sctx, path, body)
	if err != nil {
		return m.streamError(ctx, err, res)
	}
	if res != nil && res.Body != nil {
		watch := m.limits.Watch(cancel)
		defer watch.Stop()
		events := wire.NewEvents(res.Body, m.limits.MaxEvent())
		defer events.Close()
		if err := read(events, watch); err != nil {
			switch {
			case errors.Is(err, wire.ErrTooLarge):
				return m.limits.TooLarge(m.cfg.Provider)
			case ctx.Err() == nil && watch.Ended(m.cfg.Provider, m.url) != nil:
				return watch.Ended(m.cfg.Provider, m.url)
			}
			return m.streamError(ctx, err, res)
		}
	}
	if ctx.Err() != nil {
		return llm.ContextError(m.cfg.Provider, ctx)
	}
	return finished(res)
}

// readEvents feeds the stream's chunks to a until [DONE] or the end,
// doing what the SDK's typed stream does with each event: an event
// without data is skipped, an event with an "error" field ends the stream
// with an *eventError, and an event that is not JSON with a decoding
// error. Unlike the SDK's typed stream, which validates each event,
// decodes it again through a wrapper and then through its
// reflection-based apijson layer, it decodes each event once into a type
// with only the fields forge reads. watch sees the answer grow after each
// chunk.
func readEvents(events *wire.Events, a *assembler, onDelta func(llm.Delta), watch *wire.Watch) error {
	for events.Next() {
		ev := events.Event()
		if len(ev.Data) == 0 {
			continue
		}
		if bytes.HasPrefix(ev.Data, []byte("[DONE]")) {
			return nil
		}
		var c chunk
		err := c.decode(ev.Data)
		if c.Error != nil {
			return &eventError{data: bytes.Clone(ev.Data)}
		}
		if err != nil {
			return err // the caller says the event was not the API's JSON
		}
		a.add(&c, onDelta)
		if err := watch.Saw(a.size); err != nil {
			return err
		}
	}
	return events.Err()
}

// unfinished is the error for a stream that ended without its end: cut
// short after events (cut says so), or not a stream at all.
func (m *Model) unfinished(events int, res *http.Response, cut string) error {
	if events > 0 {
		return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindInterrupted, URL: m.url, Message: cut}
	}
	ct := ""
	if res != nil {
		ct = res.Header.Get("Content-Type")
	}
	msg := "the stream had no events"
	if ct != "" && !strings.HasPrefix(ct, "text/event-stream") {
		msg = fmt.Sprintf("not an event stream (%s)", ct)
	}
	return &llm.Error{Provider: m.cfg.Provider, Kind: llm.KindMalformed, URL: m.url, Message: msg}
}

// errNoModel is the error of a request without a model when the Config
// names none either.
var errNoModel = errors.New("no model: give one with --model")
