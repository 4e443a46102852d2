package wire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
	"github.com/rs/zerolog"
)

func TestServerMessage(t *testing.T) {
	cases := []struct{ body, msg, typ string }{
		{`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`, "Incorrect API key provided", "invalid_request_error"},
		{`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "Overloaded", "overloaded_error"},
		{`{"error":"model 'llama9' not found"}`, "model 'llama9' not found", ""},
		{`{"message":"upstream failed"}`, "upstream failed", ""},
		{`{"detail":[{"loc":["body"],"msg":"field required"}]}`, `[{"loc":["body"],"msg":"field required"}]`, ""},
		{`{"error":{"message":null}}`, "", ""},
		{"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>", "HTML page: 502 Bad Gateway", ""},
		{"<!DOCTYPE html><body><script>x()</script><h1>Oops &amp; sorry</h1></body>", "HTML page:    Oops & sorry  ", ""},
		{"plain text failure\n", "plain text failure", ""},
		{"", "", ""},
		{"{not json", "{not json", ""},
	}
	for _, c := range cases {
		msg, typ := ServerMessage([]byte(c.body))
		if msg != c.msg || typ != c.typ {
			t.Errorf("ServerMessage(%q) = %q, %q; want %q, %q", c.body, msg, typ, c.msg, c.typ)
		}
	}
}

func TestStatusErrorRedactsTheKey(t *testing.T) {
	key := "sk-secret-key-0123456789"
	body := fmt.Sprintf(`{"error":{"message":"bad header\nAuthorization: Bearer %s","type":"auth"}}`, key)
	h := http.Header{"Retry-After": {"7"}}
	e := StatusError("openai", 401, h, []byte(body), key)
	if strings.Contains(e.Error(), key) || e.Error() != "openai: 401 Unauthorized: bad header Authorization: Bearer [REDACTED]" {
		t.Errorf("Error() = %q", e.Error())
	}
	if e.RetryAfter != 7*time.Second || e.Type != "auth" {
		t.Errorf("%+v", e)
	}
}

func TestRetryAfter(t *testing.T) {
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{nil, 0},
		{http.Header{}, 0},
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"0.5"}}, 500 * time.Millisecond},
		{http.Header{"Retry-After-Ms": {"150"}, "Retry-After": {"9"}}, 150 * time.Millisecond},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{"Retry-After": {time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)}}, 0},
	}
	for _, c := range cases {
		if got := RetryAfter(c.h); got != c.want {
			t.Errorf("RetryAfter(%v) = %v, want %v", c.h, got, c.want)
		}
	}
	future := time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)
	if got := RetryAfter(http.Header{"Retry-After": {future}}); got < 59*time.Minute || got > time.Hour {
		t.Errorf("date: %v", got)
	}
}

func TestTransportError(t *testing.T) {
	// A port nothing listens on: the real error of a refused connection.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, refused := http.Post("http://"+addr+"/v1/chat/completions", "application/json", nil)
	if refused == nil {
		t.Fatal("expected a refused connection")
	}
	post := func(err error) error {
		return &url.Error{Op: "Post", URL: "http://h/v1/chat/completions", Err: err}
	}
	cases := []struct {
		err  error
		kind llm.ErrorKind
		line string
	}{
		{refused, llm.KindUnreachable, "ollama: cannot reach http://" + addr + "/v1: connection refused"},
		{post(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nohost.example", IsNotFound: true}}),
			llm.KindUnreachable, "ollama: cannot reach http://" + addr + "/v1: no such host nohost.example"},
		{post(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}),
			llm.KindConnection, "ollama: connection to http://" + addr + "/v1 failed: connection reset by the server"},
		{post(io.EOF), llm.KindConnection, "ollama: connection to http://" + addr + "/v1 failed: the server closed the connection without answering"},
		{post(&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: network is unreachable")}),
			llm.KindUnreachable, "ollama: cannot reach http://" + addr + "/v1: connect: network is unreachable"},
		{post(timeoutErr{}), llm.KindTimeout, "ollama: no answer in time: the connection timed out"},
		{post(errors.New("odd failure")), llm.KindConnection, "ollama: connection to http://" + addr + "/v1 failed: odd failure"},
	}
	for _, c := range cases {
		e := TransportError("ollama", "http://"+addr+"/v1", c.err)
		if e.Kind != c.kind || e.Error() != c.line {
			t.Errorf("%v:\n got %d %q\nwant %d %q", c.err, e.Kind, e.Error(), c.kind, c.line)
		}
		if strings.Contains(e.Error(), "dial tcp") || strings.Contains(e.Error(), "Post ") {
			t.Errorf("Go-internal noise in %q", e.Error())
		}
	}
}

type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestRedactURL(t *testing.T) {
	cases := map[string]string{
		"http://localhost:11434/v1":                      "http://localhost:11434/v1",
		"https://user:pw@host/v1":                        "https://user:xxxxx@host/v1",
		"https://host/v1?key=abc&api-version=2024-01-01": "https://host/v1?api-version=2024-01-01&key=REDACTED",
		"https://host/v1?access_token=abc&sig=1":         "https://host/v1?access_token=REDACTED&sig=REDACTED",
		"://not a url?key=abc":                           "://not a url?key=abc",
	}
	for in, want := range cases {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLogRequests(t *testing.T) {
	key := "sk-log-secret-123456"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	defer srv.Close()
	var buf bytes.Buffer
	log := zerolog.New(&buf).Level(zerolog.DebugLevel)
	mw := LogRequests(log, "openai", key)
	req, _ := http.NewRequest("POST", srv.URL+"/v1/chat/completions?key="+key, strings.NewReader("{}"))
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("X-Api-Key", key)
	req.Header.Set("Api-Key", key)
	res, err := mw(req, http.DefaultClient.Do)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	out := buf.String()
	for _, want := range []string{`"level":"debug"`, `"method":"POST"`, `"status":418`, `"duration":`, "/v1/chat/completions?key=REDACTED"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s: %s", want, out)
		}
	}
	if strings.Contains(out, key) || strings.Contains(strings.ToLower(out), "authorization") {
		t.Errorf("the key reached the log: %s", out)
	}

	// A failed attempt is logged with its clean reason; an info-level
	// logger logs nothing.
	buf.Reset()
	srv.Close()
	req, _ = http.NewRequest("POST", srv.URL+"/v1", nil)
	if _, err := mw(req, http.DefaultClient.Do); err == nil {
		t.Fatal("expected an error")
	}
	if !strings.Contains(buf.String(), `"error":"connection refused"`) {
		t.Errorf("failure log: %s", buf.String())
	}
	buf.Reset()
	quiet := LogRequests(log.Level(zerolog.InfoLevel), "openai")
	_, _ = quiet(req, http.DefaultClient.Do)
	if buf.Len() != 0 {
		t.Errorf("info level logged %s", buf.String())
	}
}

// FuzzServerMessage: any error body gives a message, never a panic, and
// once redacted it is one line without the secret.
func FuzzServerMessage(f *testing.F) {
	for _, s := range []string{
		`{"error":{"message":"Incorrect API key provided: sk-abc","type":"invalid_request_error"}}`,
		`{"error":"model not found"}`, `{"detail":[1,2]}`, `<html><title>x</title></html>`,
		"<!doctype html><script>a</script>", `{"error":{"message":{"nested":true}}}`, "\x00\xff", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		msg, _ := ServerMessage([]byte(body))
		line := llm.Redact(msg, "sk-abc")
		if strings.ContainsAny(line, "\n\r") || strings.Contains(line, "sk-abc") {
			t.Fatalf("%q", line)
		}
	})
}
