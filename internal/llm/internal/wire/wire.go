// Package wire holds what forge's providers share about HTTP: turning
// transport failures and error bodies into *llm.Error, reading Retry-After,
// the debug log of each request with its secrets left out, a bounded
// event-stream decoder, and the limits of one streamed answer (its size,
// and how long it may bring nothing new).
package wire

import (
	"bytes"
	"crypto/x509"
	"encoding/json"
	"errors"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// ServerMessage finds the server's own message in an error body and the
// error type when it names one. It knows the shapes providers use:
// {"error":{"message":..,"type":..}} (OpenAI, Anthropic, vLLM),
// {"error":"..."} (Ollama, llama.cpp), {"message":..} and {"detail":..}
// (proxies, FastAPI); an HTML page gives its title; any other body is
// itself the message.
func ServerMessage(body []byte) (msg, typ string) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return "", ""
	}
	if body[0] == '{' {
		var v struct {
			Error   json.RawMessage `json:"error"`
			Message json.RawMessage `json:"message"`
			Detail  json.RawMessage `json:"detail"`
			Type    string          `json:"type"`
		}
		if json.Unmarshal(body, &v) == nil {
			var inner struct {
				Message json.RawMessage `json:"message"`
				Type    string          `json:"type"`
			}
			if json.Unmarshal(v.Error, &inner) == nil && inner.Message != nil {
				return jsonText(inner.Message), inner.Type
			}
			for _, raw := range []json.RawMessage{v.Error, v.Message, v.Detail} {
				if s := jsonText(raw); s != "" {
					return s, v.Type
				}
			}
		}
	}
	if looksHTML(body) {
		return htmlText(body), ""
	}
	return string(body), ""
}

// jsonText is a JSON string's text, or the compact JSON of any other
// value; "" for null or nothing.
func jsonText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) == nil {
		return b.String()
	}
	return string(raw)
}

func looksHTML(body []byte) bool {
	head := bytes.ToLower(body[:min(len(body), 256)])
	return bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.Contains(head, []byte("<html")) ||
		bytes.Contains(head, []byte("<head")) || bytes.Contains(head, []byte("<body"))
}

// htmlRegexps are compiled when an error answer first is an HTML page.
var htmlRegexps = sync.OnceValue(func() (r struct{ title, tag, script *regexp.Regexp }) {
	r.title = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	r.tag = regexp.MustCompile(`(?s)<[^>]*>`)
	// script removes what a page shows nobody.
	r.script = regexp.MustCompile(`(?is)<(script|style)[^>]*>.*?</(script|style)>`)
	return r
})

// htmlText is an HTML page's title, or its text without tags.
func htmlText(body []byte) string {
	re := htmlRegexps()
	if m := re.title.FindSubmatch(body); m != nil && len(bytes.TrimSpace(m[1])) > 0 {
		return "HTML page: " + html.UnescapeString(string(bytes.TrimSpace(m[1])))
	}
	text := re.script.ReplaceAll(body, nil)
	text = re.tag.ReplaceAll(text, []byte(" "))
	return "HTML page: " + html.UnescapeString(string(text))
}

// StatusError is the Error for an HTTP error answer: its status, and the
// server's message from body with secrets removed. header may be nil.
func StatusError(provider string, status int, header http.Header, body []byte, secrets ...string) *llm.Error {
	msg, typ := ServerMessage(body)
	return &llm.Error{
		Provider:   provider,
		Kind:       llm.KindStatus,
		Status:     status,
		Message:    llm.Redact(msg, secrets...),
		Type:       typ,
		RetryAfter: RetryAfter(header),
	}
}

// RetryAfter is the wait a response asks for in retry-after-ms or
// Retry-After (seconds or an HTTP date); 0 when it does not say.
func RetryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return 0
}

// TransportError turns a failure to exchange a request with the server at
// baseURL into one clean line: `Post "http://...": dial tcp ...:
// connect: connection refused` becomes KindUnreachable with the message
// "connection refused". The Go-internal wrapping (method, URL, dial,
// addresses) is dropped: the user's question is only why.
func TransportError(provider, baseURL string, err error, secrets ...string) *llm.Error {
	e := &llm.Error{Provider: provider, URL: RedactURL(baseURL), Kind: llm.KindConnection}
	var (
		dnsErr  *net.DNSError
		opErr   *net.OpError
		certErr *x509.UnknownAuthorityError
		hostErr x509.HostnameError
		invErr  x509.CertificateInvalidError
	)
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		e.Kind, e.Message = llm.KindUnreachable, "connection refused"
	case errors.As(err, &dnsErr):
		e.Kind, e.Message = llm.KindUnreachable, "no such host "+dnsErr.Name
		if !dnsErr.IsNotFound {
			e.Message = "cannot resolve " + dnsErr.Name
		}
	case errors.As(err, &certErr), errors.As(err, &hostErr), errors.As(err, &invErr):
		e.Kind, e.Message = llm.KindUnreachable, "TLS certificate problem: "+innermost(err).Error()
	case errors.Is(err, syscall.ECONNRESET):
		e.Message = "connection reset by the server"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		e.Message = "the server closed the connection without answering"
	case errors.As(err, &opErr) && opErr.Op == "dial":
		e.Kind, e.Message = llm.KindUnreachable, innermost(err).Error()
	default:
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			e.Kind, e.Message = llm.KindTimeout, "the connection timed out"
			break
		}
		e.Message = innermost(err).Error()
	}
	e.Message = llm.Redact(e.Message, secrets...)
	return e
}

// innermost is the last error of err's chain that says something of its
// own: a *url.Error's or *net.OpError's message repeats the method, URL and
// addresses, its cause says what went wrong.
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// RedactURL is u without its password and without the values of query
// parameters that may hold a secret (key, token, secret, signature, auth);
// a URL that does not parse is returned as it is.
func RedactURL(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.User == nil && p.RawQuery == "") {
		return u
	}
	if p.RawQuery != "" {
		q := p.Query()
		for k := range q {
			if secretParam(k) {
				q.Set(k, "REDACTED")
			}
		}
		p.RawQuery = q.Encode()
	}
	return p.Redacted()
}

func secretParam(name string) bool {
	name = strings.ToLower(name)
	for _, s := range []string{"key", "token", "secret", "sig", "auth", "password"} {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}

// MaxRetryAfter is the longest wait a server may ask for and still be
// retried at once: a longer one is reported (with its wait, in the
// Error's hint) instead of holding the user without a word.
const MaxRetryAfter = 2 * time.Minute

// ResponseError is the Error for an HTTP error answer res (which may be
// nil) of status: the server's own message, read from the body and left
// readable on res for whoever reads it next.
func ResponseError(provider string, status int, res *http.Response, apiKey, keyVar string) *llm.Error {
	var (
		body   []byte
		header http.Header
	)
	if res != nil {
		header = res.Header
		if res.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(res.Body, 64<<10))
			res.Body = io.NopCloser(bytes.NewReader(body))
		}
	}
	e := StatusError(provider, status, header, body, apiKey)
	e.KeyVar = keyVar
	return e
}

// StreamFailure is the Error for a stream that failed other than by an
// error answer: an event that is not JSON, a connection that broke after
// the answer began (res not nil), or one that never got an answer, in time
// or at all.
func StreamFailure(provider, url string, err error, res *http.Response, apiKey string) *llm.Error {
	var (
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
		noAnswer  *NoAnswerError
	)
	switch {
	case errors.As(err, &noAnswer):
		return &llm.Error{Provider: provider, Kind: llm.KindStalled, URL: url, Message: noAnswer.Error()}
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return &llm.Error{Provider: provider, Kind: llm.KindMalformed, URL: url,
			Message: "an event is not the API's JSON: " + llm.Redact(err.Error(), apiKey)}
	case res != nil:
		// The answer had begun: the connection broke mid-stream.
		return &llm.Error{Provider: provider, Kind: llm.KindInterrupted, URL: url,
			Message: TransportError(provider, url, err, apiKey).Message}
	}
	return TransportError(provider, url, err, apiKey)
}
