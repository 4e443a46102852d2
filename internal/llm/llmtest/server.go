package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Server is a scripted fake provider on httptest: it answers POST
// .../chat/completions (under any prefix, e.g. /v1/chat/completions) in
// OpenAI's wire format, POST .../v1/messages in Anthropic's, and GET
// .../models for discovery, recording every request.
type Server struct {
	// URL is the server's root, e.g. http://127.0.0.1:41234.
	URL string

	srv     *httptest.Server
	t       testing.TB
	closing chan struct{}
	once    sync.Once

	mu     sync.Mutex
	script Script
	cache  promptCache
	used   []bool
	reqs   []*Request
	calls  int // tool calls sent, for default IDs
	fails  []string
}

// NewServer starts a server for script and closes it when the test ends.
// An invalid script fails the test at once; a request the script has no
// turn for fails it when it comes.
func NewServer(t testing.TB, script Script) *Server {
	t.Helper()
	s, err := Start(script)
	if err != nil {
		t.Fatalf("llmtest: %v", err)
	}
	s.t = t
	t.Cleanup(s.Close)
	return s
}

// Start starts a server for script, for callers without a testing.TB
// (a testscript command, a manual run); Close stops it. Failures
// lists the requests the script had no turn for.
func Start(script Script) (*Server, error) {
	if err := script.Validate(); err != nil {
		return nil, err
	}
	s := &Server{
		script:  script,
		used:    make([]bool, len(script.Turns)),
		closing: make(chan struct{}),
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s, nil
}

// StartFile starts a server for the script in a JSON file (LoadScript):
// how an end-to-end test starts one from a file of its archive.
func StartFile(path string) (*Server, error) {
	script, err := LoadScript(path)
	if err != nil {
		return nil, err
	}
	return Start(script)
}

// OpenAIURL is the base URL for an OpenAI client: URL + "/v1".
func (s *Server) OpenAIURL() string { return s.URL + "/v1" }

// AnthropicURL is the base URL for an Anthropic client: URL (the client
// adds /v1/messages).
func (s *Server) AnthropicURL() string { return s.URL }

// Close ends stalled answers and stops the server.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closing)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Requests returns the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = *r
	}
	return out
}

// Remaining is how many turns no request has used yet.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, u := range s.used {
		if !u {
			n++
		}
	}
	return n
}

// Failures are the requests the script had no turn for, described.
func (s *Server) Failures() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.fails...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := &Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body, Turn: -1}
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		s.record(req)
		s.serveModels(w)
		return
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		req.Wire = OpenAI
		req.Rejected = string(decodeOpenAI(req, s.script.Lenient))
		if req.Rejected == "" && s.script.RequireReasoning {
			req.Rejected = string(missingReasoning(req))
		}
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses"):
		req.Wire = Responses
		req.Rejected = string(decodeResponses(req, s.script.Lenient))
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages"):
		req.Wire = Anthropic
		req.Rejected = string(decodeAnthropic(req, s.script.Lenient))
	default:
		s.record(req)
		writeError(w, OpenAI, &ErrorReply{Status: http.StatusNotFound,
			Message: fmt.Sprintf("llmtest: no endpoint %s %s (POST .../chat/completions, POST .../responses, POST /v1/messages, GET .../models)", r.Method, r.URL.Path)})
		return
	}
	if req.Rejected == "" && !req.Stream && !s.script.Lenient {
		req.Rejected = "llmtest: only streaming requests are scripted (set \"stream\": true)"
	}
	if req.Rejected != "" {
		s.record(req)
		writeError(w, req.Wire, &ErrorReply{Status: http.StatusBadRequest, Type: "invalid_request_error", Message: req.Rejected})
		return
	}
	turn, ok := s.pick(req)
	if !ok {
		msg := fmt.Sprintf("llmtest: request %d has no scripted turn (the script has %d turns)", req.N, len(s.script.Turns))
		s.fail(msg)
		writeError(w, req.Wire, &ErrorReply{Status: http.StatusInternalServerError, Message: msg,
			Headers: map[string]string{"x-should-retry": "false"}})
		return
	}
	if s.script.PromptCache {
		u := s.cache.usage(req.Wire, req.cache, turn.Usage.orDefault().Output)
		turn.Usage = &u
	}
	s.answer(w, r, req, turn)
}

func (s *Server) record(req *Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req.N = len(s.reqs) + 1
	s.reqs = append(s.reqs, req)
}

func (s *Server) fail(msg string) {
	s.mu.Lock()
	s.fails = append(s.fails, msg)
	s.mu.Unlock()
	if s.t != nil {
		s.t.Errorf("%s", msg)
	}
}

// pick records req and chooses its turn: the first unused one that
// accepts it, or with RepeatLast the last one that accepts it.
func (s *Server) pick(req *Request) (Turn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req.N = len(s.reqs) + 1
	s.reqs = append(s.reqs, req)
	last := -1
	for i, t := range s.script.Turns {
		if !t.When.accepts(req) || (t.Match != nil && !t.Match(req)) {
			continue
		}
		if !s.used[i] {
			s.used[i] = true
			req.Turn = i
			return t, true
		}
		last = i
	}
	if s.script.RepeatLast && last >= 0 {
		req.Turn = last
		return s.script.Turns[last], true
	}
	return Turn{}, false
}

// callIDs gives the turn's calls their IDs: their own, or the next of the
// server's defaults.
func (s *Server) callIDs(t Turn, prefix string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, len(t.ToolCalls))
	for i, c := range t.ToolCalls {
		s.calls++
		ids[i] = c.ID
		if ids[i] == "" {
			ids[i] = fmt.Sprintf("%s%d", prefix, s.calls)
		}
	}
	return ids
}

func (s *Server) serveModels(w http.ResponseWriter) {
	models := s.script.Models
	if len(models) == 0 {
		models = []string{"llmtest-model"}
	}
	type model struct {
		ID          string `json:"id"`
		Object      string `json:"object"`
		Type        string `json:"type"`
		Created     int64  `json:"created"`
		OwnedBy     string `json:"owned_by"`
		DisplayName string `json:"display_name"`
	}
	list := struct {
		Object  string  `json:"object"`
		Data    []model `json:"data"`
		HasMore bool    `json:"has_more"`
	}{Object: "list", Data: []model{}}
	for _, m := range models {
		list.Data = append(list.Data, model{ID: m, Object: "model", Type: "model", Created: 1700000000, OwnedBy: "llmtest", DisplayName: m})
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}

// answer writes the turn: an error, a raw body, or a stream that may
// end early (hang-up, stall, error event) or never (endless, keep-alive).
func (s *Server) answer(w http.ResponseWriter, r *http.Request, req *Request, t Turn) {
	switch {
	case t.Error != nil:
		writeError(w, req.Wire, t.Error)
		return
	case t.Raw != nil:
		status, ct := t.Raw.Status, t.Raw.ContentType
		if status == 0 {
			status = http.StatusOK
		}
		if ct == "" {
			ct = "text/html"
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, t.Raw.Body)
		return
	case t.HangUp != nil && t.HangUp.AfterBytes == 0:
		panic(http.ErrAbortHandler)
	case t.Stall && t.Text == "" && len(t.Chunks) == 0 && len(t.ToolCalls) == 0:
		s.hold(r)
		return
	}
	var stream []byte
	switch req.Wire {
	case OpenAI:
		stream = s.openAIStream(req, t)
	case Responses:
		stream = s.responsesStream(req, t)
	default:
		stream = s.anthropicStream(req, t)
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	switch {
	case t.HangUp != nil:
		_, _ = w.Write(stream[:min(t.HangUp.AfterBytes, len(stream))])
		flusher.Flush()
		panic(http.ErrAbortHandler)
	case t.Stall:
		_, _ = w.Write(stream)
		flusher.Flush()
		s.hold(r)
		return
	case t.Endless != "" || t.KeepAlive:
		_, _ = w.Write(stream)
		flusher.Flush()
		s.endless(w, r, req, t)
		return
	}
	// One write per event, flushed, so the client reads a real stream.
	for len(stream) > 0 {
		i := bytes.Index(stream, []byte("\n\n"))
		if i < 0 {
			i = len(stream) - 2
		}
		if _, err := w.Write(stream[:i+2]); err != nil {
			return
		}
		flusher.Flush()
		stream = stream[i+2:]
	}
}

// hold waits until the client goes away or the server closes; then it
// drops the connection, so that the client never sees the answer end.
func (s *Server) hold(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-s.closing:
	}
	panic(http.ErrAbortHandler)
}

// writeError writes an error answer in the wire's error JSON.
func writeError(w http.ResponseWriter, wire Wire, e *ErrorReply) {
	for k, v := range e.Headers {
		w.Header().Set(k, v)
	}
	body := e.Body
	if body == "" {
		typ := e.Type
		if typ == "" {
			typ = errorType(e.Status)
		}
		msg := e.Message
		if msg == "" {
			msg = http.StatusText(e.Status)
		}
		body = string(errorJSON(wire, typ, msg))
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(e.Status)
	_, _ = io.WriteString(w, body)
}

// errorJSON is an error object as the wire writes it.
func errorJSON(wire Wire, typ, msg string) []byte {
	var v any
	if wire == Anthropic {
		v = map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}}
	} else {
		v = map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}}
	}
	out, _ := json.Marshal(v)
	return out
}

// errorType is the error type the providers give a status.
func errorType(status int) string {
	switch status {
	case 400, 422:
		return "invalid_request_error"
	case 401:
		return "authentication_error"
	case 402:
		return "billing_error"
	case 403:
		return "permission_error"
	case 404:
		return "not_found_error"
	case 413:
		return "request_too_large"
	case 429:
		return "rate_limit_error"
	case 504:
		return "timeout_error"
	case 529, 503:
		return "overloaded_error"
	}
	return "api_error"
}
