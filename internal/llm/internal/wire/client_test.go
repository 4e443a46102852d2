package wire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// script answers the requests of one test in turn and records them.
type script struct {
	mu      sync.Mutex
	answers []func(http.ResponseWriter)
	bodies  []string
	paths   []string
	headers []http.Header
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, string(b))
	s.paths = append(s.paths, r.URL.RequestURI())
	s.headers = append(s.headers, r.Header.Clone())
	s.mu.Unlock()
	s.answers[min(n, len(s.answers)-1)](w)
}

func status(code int, header ...string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, `{"error":{"message":"no"}}`)
	}
}

func TestClientRetries(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answers []func(http.ResponseWriter)
		calls   int
		status  int // of the answer Post returns; 0: no error
	}{
		{"ok", []func(http.ResponseWriter){status(200)}, 1, 0},
		{"429 then ok", []func(http.ResponseWriter){status(429, "Retry-After-Ms", "1"), status(200)}, 2, 0},
		{"500s until the retries run out", []func(http.ResponseWriter){status(500, "Retry-After", "0")}, 3, 500},
		{"529 overloaded", []func(http.ResponseWriter){status(529, "Retry-After", "0"), status(200)}, 2, 0},
		{"408 and 409", []func(http.ResponseWriter){status(408, "Retry-After", "0"), status(409, "Retry-After", "0"), status(200)}, 3, 0},
		{"400 is the answer", []func(http.ResponseWriter){status(400), status(200)}, 1, 400},
		{"401 is the answer", []func(http.ResponseWriter){status(401), status(200)}, 1, 401},
		{"x-should-retry true on a 400", []func(http.ResponseWriter){status(400, "X-Should-Retry", "true", "Retry-After", "0"), status(200)}, 2, 0},
		{"x-should-retry false on a 503", []func(http.ResponseWriter){status(503, "X-Should-Retry", "false"), status(200)}, 1, 503},
		{"a wait over MaxRetryAfter is the answer", []func(http.ResponseWriter){status(429, "Retry-After", "600"), status(200)}, 1, 429},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{answers: tc.answers}
			srv := httptest.NewServer(s)
			defer srv.Close()
			c := &Client{BaseURL: srv.URL + "/v1", MaxRetries: 2, Header: http.Header{"X-Api-Key": {"k"}}}
			res, err := c.Post(context.Background(), "chat/completions", []byte(`{"a":1}`))
			if len(s.bodies) != tc.calls {
				t.Errorf("%d requests, want %d", len(s.bodies), tc.calls)
			}
			for i, b := range s.bodies {
				if b != `{"a":1}` || s.paths[i] != "/v1/chat/completions" || s.headers[i].Get("X-Api-Key") != "k" ||
					s.headers[i].Get("Content-Type") != "application/json" {
					t.Errorf("request %d: %s %q %v", i, s.paths[i], b, s.headers[i])
				}
			}
			var he *HTTPError
			switch {
			case tc.status == 0 && (err != nil || res.StatusCode != 200):
				t.Errorf("err %v", err)
			case tc.status != 0 && (!errors.As(err, &he) || he.StatusCode != tc.status || res != he.Response):
				t.Errorf("err %v, want status %d", err, tc.status)
			case tc.status != 0:
				// The error answer's body can be read again.
				if b, _ := io.ReadAll(he.Response.Body); !strings.Contains(string(b), "no") {
					t.Errorf("body %q", b)
				}
			}
		})
	}
}

// A connection that fails before an answer is retried, with a backoff
// that the injected jitter shortens.
func TestClientConnectionRetried(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	var jitters []int64
	c := &Client{BaseURL: url, MaxRetries: 1, Jitter: func(n int64) int64 { jitters = append(jitters, n); return n - 1 }}
	start := time.Now()
	res, err := c.Post(context.Background(), "x", []byte("{}"))
	if err == nil || res != nil {
		t.Fatalf("res %v, err %v", res, err)
	}
	if len(jitters) != 1 || jitters[0] != int64(125*time.Millisecond) {
		t.Errorf("jitter asked for %v, want once [0, 125ms)", jitters)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestClientDelay(t *testing.T) {
	c := &Client{Jitter: func(int64) int64 { return 0 }}
	for _, tc := range []struct {
		header  http.Header
		attempt int
		want    time.Duration
		ok      bool
	}{
		{nil, 0, 500 * time.Millisecond, true},
		{nil, 2, 2 * time.Second, true},
		{nil, 10, MaxBackoff, true},
		{http.Header{"Retry-After-Ms": {"250"}}, 0, 250 * time.Millisecond, true},
		{http.Header{"Retry-After": {"3"}}, 0, 3 * time.Second, true},
		{http.Header{"Retry-After": {"1e300"}}, 0, 0, false},
		{http.Header{"Retry-After": {"121"}}, 0, 0, false},
		{http.Header{"Retry-After": {"soon"}}, 1, time.Second, true},
		{http.Header{"Retry-After-Ms": {"-5"}}, 0, 500 * time.Millisecond, true},
	} {
		res := &http.Response{Header: tc.header}
		if tc.header == nil {
			res = nil
		}
		d, ok := c.delay(res, tc.attempt)
		if ok != tc.ok || ok && d != tc.want {
			t.Errorf("delay(%v, %d) = %s, %v; want %s, %v", tc.header, tc.attempt, d, ok, tc.want, tc.ok)
		}
	}
}

// The key never follows a redirect to another server.
func TestClientRedirectElsewhereRefused(t *testing.T) {
	var leaked sync.Map
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Store("key", r.Header.Get("X-Api-Key"))
	}))
	defer other.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL, Header: http.Header{"X-Api-Key": {"secret"}}}
	if _, err := c.Post(context.Background(), "v1/messages", []byte("{}")); err == nil || !strings.Contains(err.Error(), "another server") {
		t.Errorf("err %v", err)
	}
	if k, ok := leaked.Load("key"); ok {
		t.Errorf("the other server got the request, key %q", k)
	}
}

// Middlewares wrap each attempt, the first outermost, and see its number.
func TestClientMiddleware(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter){status(500, "Retry-After", "0"), status(200)}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	var trace []string
	mw := func(name string) func(*http.Request, Next) (*http.Response, error) {
		return func(req *http.Request, next Next) (*http.Response, error) {
			trace = append(trace, name+string(rune('0'+RetryCount(req))))
			return next(req)
		}
	}
	c := &Client{BaseURL: srv.URL, MaxRetries: 1, Middleware: []func(*http.Request, Next) (*http.Response, error){mw("a"), mw("b")}}
	if _, err := c.Get(context.Background(), "models"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(trace, " "); got != "a0 b0 a1 b1" {
		t.Errorf("trace %q", got)
	}
	if s.headers[0].Get("Content-Type") != "" || s.paths[0] != "/models" {
		t.Errorf("a GET: %s %v", s.paths[0], s.headers[0])
	}
}

func TestJoinURL(t *testing.T) {
	for _, tc := range []struct{ base, path, want string }{
		{"http://h/v1", "chat/completions", "http://h/v1/chat/completions"},
		{"http://h/v1/", "/chat/completions", "http://h/v1/chat/completions"},
		{"https://h", "v1/messages", "https://h/v1/messages"},
		{"http://h/v1?api-version=2", "models", "http://h/v1/models?api-version=2"},
	} {
		u, err := joinURL(tc.base, tc.path)
		if err != nil || u.String() != tc.want {
			t.Errorf("joinURL(%q, %q) = %v, %v; want %s", tc.base, tc.path, u, err, tc.want)
		}
	}
	for _, bad := range []string{"", "localhost:8000", "ftp://h", "http://%zz"} {
		if _, err := joinURL(bad, "x"); err == nil {
			t.Errorf("joinURL(%q) accepted", bad)
		}
	}
}

// Cancelling the caller's context stops the waits between attempts.
func TestClientCancelledWhileWaiting(t *testing.T) {
	s := &script{answers: []func(http.ResponseWriter){status(429, "Retry-After", "100")}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	c := &Client{BaseURL: srv.URL, MaxRetries: 3}
	start := time.Now()
	if _, err := c.Post(ctx, "x", []byte("{}")); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
}
