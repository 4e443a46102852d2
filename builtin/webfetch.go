package builtin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2/converter"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/base"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/commonmark"
	"github.com/JohannesKaufmann/html-to-markdown/v2/plugin/table"
	"golang.org/x/net/html/charset"

	"github.com/forgehq/forge/builtin/internal/cfg"
	"github.com/forgehq/forge/builtin/internal/netguard"
	"github.com/forgehq/forge/internal/tools"
)

// WebFetch's defaults.
const (
	webFetchTimeout      = 30 * time.Second
	webFetchMaxBytes     = 5 << 20
	webFetchMaxRedirects = 5
	webUserAgent         = "forge-webfetch/1 (+https://github.com/forgehq/forge)"
)

var webFetchDescriptor = tools.Descriptor{
	ReadOnly:  true,
	Networked: true,
	Name:      "WebFetch",
	Description: "Fetch a URL. Returns the page as Markdown (HTML is converted; other text types are returned as they are; binary content is refused), " +
		"whole up to the size cap, with the status code, final URL and content type. http and https only; at most 5 redirects, within the URL's host " +
		"(a redirect to another host is returned as its URL, to fetch with a new call); " +
		"private, loopback and link-local addresses are refused unless the configuration allows them.",
	Category: tools.CategoryWeb,
	Parameters: []tools.Parameter{
		{Name: "url", Type: tools.TypeString, Description: "The http or https URL to fetch", Required: true, MinLength: tools.Int(1)},
	},
	// Claude Code's WebFetch runs a prompt over the page with a small
	// model; forge returns the page itself, which the model that asked
	// reads with its question in mind, so the prompt is dropped.
	Adopt: tools.Adoptions{{From: "prompt", Adopt: tools.DropWhen(isString)}},
}

func isString(v any) bool { _, ok := v.(string); return ok }

// webFetchTool fetches pages. Its client checks every dialled address.
type webFetchTool struct {
	described
	client   *http.Client
	conv     *htmltomarkdown.Converter // safe for concurrent use (it locks)
	timeout  time.Duration
	maxBytes int64
	policy   netguard.Policy // what the URL and its redirects may reach
}

// The keys of tools.WebFetch.
var (
	webFetchTimeoutKey      = cfg.PositiveDurationKey("timeout", webFetchTimeout)
	webFetchMaxBytesKey     = cfg.PositiveIntKey("max_bytes", webFetchMaxBytes)
	webFetchAllowPrivateKey = cfg.BoolKey("allow_private", false)
)

// newWebFetch builds WebFetch from tools.WebFetch: timeout (default 30s),
// max_bytes (default 5 MB), allow_private (default false).
func newWebFetch(_ context.Context, deps tools.Deps) (tools.Tool, error) {
	timeout, err := webFetchTimeoutKey.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	maxBytes, err := webFetchMaxBytesKey.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	allow, err := webFetchAllowPrivateKey.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	policy := netguard.Policy{AllowPrivate: allow}
	return &webFetchTool{described: described{webFetchDescriptor}, client: guardedClient(policy, timeout),
		conv: newHTMLConverter(), timeout: timeout, maxBytes: int64(maxBytes), policy: policy}, nil
}

// newHTMLConverter is the HTML to Markdown converter of WebFetch: CommonMark
// with tables.
func newHTMLConverter() *htmltomarkdown.Converter {
	return htmltomarkdown.NewConverter(htmltomarkdown.WithPlugins(base.NewBasePlugin(), commonmark.NewCommonmarkPlugin(), table.NewTablePlugin()))
}

// guardedClient is an HTTP client for URLs a model chose: the address check
// of p on every dial, and every redirect re-checked (scheme, credentials,
// host spelling, count). A redirect to another host is not followed: the
// person approved sending the request to the first host only, and the
// response is returned as it is (see crossHostRedirect).
func guardedClient(p netguard.Policy, timeout time.Duration) *http.Client {
	return &http.Client{
		Transport: netguard.NewTransport(p, timeout),
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > webFetchMaxRedirects {
				return fmt.Errorf("stopped after %d redirects", webFetchMaxRedirects)
			}
			if err := checkURL(req.URL, p); err != nil {
				return &redirectError{to: req.URL, err: err}
			}
			if !sameHost(req.URL, via[0].URL) {
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
}

// sameHost reports whether a and b name the same host, whatever their
// scheme and port.
func sameHost(a, b *url.URL) bool {
	return tools.HostName(a.Hostname()) == tools.HostName(b.Hostname())
}

// crossHostRedirect returns where resp redirects when that is another host
// than the one asked, which guardedClient does not follow.
func crossHostRedirect(resp *http.Response) (*url.URL, bool) {
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
	default:
		return nil, false
	}
	to, err := resp.Location()
	if err != nil || sameHost(to, resp.Request.URL) {
		return nil, false
	}
	return to, true
}

// redirectError is a redirect hop that checkURL refused.
type redirectError struct {
	to  *url.URL
	err error
}

func (e *redirectError) Error() string {
	return fmt.Sprintf("it redirects to %s: %v", e.to.Redacted(), e.err)
}

func (e *redirectError) Unwrap() error { return e.err }

// Egress is the URL's host: the whole URL, query included, goes to it. A
// URL that Execute would refuse goes nowhere.
func (t *webFetchTool) Egress(_ tools.ExecutionContext, args tools.Args) tools.Egress {
	u, err := parseURL(args.String("url"), t.policy)
	if err != nil {
		return tools.Egress{}
	}
	return tools.Egress{Hosts: []string{tools.HostName(u.Hostname())}}
}

// Close drops idle connections.
func (t *webFetchTool) Close() error {
	t.client.CloseIdleConnections()
	return nil
}

// DryRun says what would be fetched.
func (t *webFetchTool) DryRun(_ tools.ExecutionContext, args tools.Args) string {
	return fmt.Sprintf("Would fetch %s (at most %d bytes, %d redirects, timeout %s)", args.String("url"), t.maxBytes, webFetchMaxRedirects, t.timeout)
}

// parseURL checks a URL given by a caller: absolute, http or https, a host,
// no credentials, and a host p allows.
func parseURL(raw string, p netguard.Policy) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if strings.ContainsAny(raw, "\x00\r\n") {
		return nil, fmt.Errorf("Invalid URL %q: it contains control characters", raw)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("Invalid URL %q: %v", raw, errors.Unwrap(err))
	}
	if err := checkURL(u, p); err != nil {
		if _, ok := netguard.Blocked(err); ok {
			return nil, blockedMessage(u, err)
		}
		return nil, err
	}
	return u, nil
}

// checkURL refuses what no fetch may use. Hosts that are IP literals, in any
// spelling, and names of local services are checked here, before any
// connection; other names when their addresses are dialled. A refused host
// is returned as netguard's error, for the caller to phrase.
func checkURL(u *url.URL, p netguard.Policy) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		if u.Scheme == "" {
			return fmt.Errorf("Invalid URL %q: it must be absolute, starting with http:// or https://", u.String())
		}
		return fmt.Errorf("Unsupported URL scheme %q in %s: only http and https are fetched", u.Scheme, u.Redacted())
	}
	if u.User != nil {
		return fmt.Errorf("Refusing URL %s: credentials in URLs are not allowed", u.Redacted())
	}
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("Invalid URL %q: it has no host", u.String())
	}
	if p.Trusts(u) {
		return nil
	}
	err := netguard.CheckHost(host)
	if _, blocked := netguard.Blocked(err); blocked && p.AllowPrivate {
		// Allowed, but a spelling Go's resolver would send to DNS still
		// cannot be fetched: say how to write it.
		if ip, standard, _ := netguard.ParseHost(host); !standard {
			return fmt.Errorf("Invalid URL %s: %q is an unusual spelling of %s: write it as %s", u.Redacted(), host, ip, ip)
		}
		return nil
	}
	if errors.Is(err, netguard.ErrHostSpelling) {
		return fmt.Errorf("Invalid URL %s: %v", u.Redacted(), err)
	}
	return err
}

// blockedMessage is the refusal of u, whose host (or a redirect from it)
// err refused.
func blockedMessage(u *url.URL, err error) error {
	return fmt.Errorf("Refusing to fetch %s: %w. Private, loopback, link-local and cloud metadata addresses are refused; "+
		"set tools.WebFetch.allow_private: true to allow them", u.Redacted(), err)
}

// Execute fetches the URL.
func (t *webFetchTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	u, err := parseURL(args.String("url"), t.policy)
	if err != nil {
		return tools.Fail(err.Error())
	}
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return tools.Fail(fmt.Sprintf("Invalid URL %q: %v", u.String(), err))
	}
	req.Header.Set("User-Agent", webUserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,text/markdown,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5")
	resp, err := t.client.Do(req)
	if err != nil {
		return t.requestFailed(ctx, u, err)
	}
	defer resp.Body.Close()

	final := resp.Request.URL
	if to, ok := crossHostRedirect(resp); ok {
		return tools.OK(fmt.Sprintf("%s redirects to %s, on another host (%s). WebFetch follows redirects within one host only: "+
			"fetch %s with a new call to follow it.", final.Redacted(), to.Redacted(), to.Hostname(), to.Redacted()),
			"status_code", resp.StatusCode, "final_url", final.String(), "redirect_url", to.String())
	}
	ctype := resp.Header.Get("Content-Type")
	body, err := io.ReadAll(io.LimitReader(resp.Body, t.maxBytes+1))
	if err != nil {
		return t.requestFailed(ctx, u, err)
	}
	cut := int64(len(body)) > t.maxBytes
	if cut {
		body = body[:t.maxBytes]
	}
	if ctype == "" {
		ctype = http.DetectContentType(body)
	}
	meta := []any{"status_code", resp.StatusCode, "final_url", final.String(), "content_type", ctype, "bytes", len(body), "truncated", cut}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		msg := fmt.Sprintf("HTTP %s from %s", resp.Status, final.Redacted())
		if snippet := strings.TrimSpace(truncateUTF8(string(body), 500)); snippet != "" && isTextual(ctype) {
			msg += "\n\n" + snippet
		}
		return tools.Fail(msg, meta...)
	}
	text, err := t.render(ctx, body, ctype, final)
	if err != nil {
		return tools.Fail(err.Error(), meta...)
	}
	if cut {
		text += fmt.Sprintf("\n\n[Content cut at %d bytes: the size cap (tools.WebFetch.max_bytes).]", t.maxBytes)
	}
	if limit := outputLimit(ec); len(text) > limit {
		total := len(text)
		text = truncateUTF8(text, limit) + fmt.Sprintf("\n\n[Output cut at %d of %d characters: the output cap.]", limit, total)
		meta = append(meta, "output_truncated", true)
	}
	return tools.OK(text, meta...)
}

// requestFailed turns a transport error into a clear message.
func (t *webFetchTool) requestFailed(ctx context.Context, u *url.URL, err error) tools.Result {
	if be, ok := netguard.Blocked(err); ok {
		var reason error = be // refused when dialled
		if re := (*redirectError)(nil); errors.As(err, &re) {
			reason = re
		}
		return tools.Fail(blockedMessage(u, reason).Error())
	}
	var ne net.Error
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		r := tools.Fail(fmt.Sprintf("Fetching %s timed out", u.Redacted()))
		r.Status, r.ErrorKind = tools.StatusTimedOut, tools.KindTimeout
		return r
	case errors.Is(ctx.Err(), context.Canceled):
		r := tools.Fail(fmt.Sprintf("Fetching %s was cancelled", u.Redacted()))
		r.Status, r.ErrorKind = tools.StatusCancelled, tools.KindCancelled
		return r
	}
	return tools.Fail(fmt.Sprintf("Could not fetch %s: %v", u.Redacted(), unwrapURLError(err)))
}

// render turns the body into text: HTML to Markdown, other text as it is,
// binary refused.
func (t *webFetchTool) render(ctx context.Context, body []byte, ctype string, final *url.URL) (string, error) {
	media, _, _ := mime.ParseMediaType(ctype)
	if !isTextual(ctype) {
		return "", fmt.Errorf("WebFetch returns text only: %s is %s (%d bytes), which is binary", final.Redacted(), media, len(body))
	}
	// Decode to UTF-8 from the declared or sniffed charset.
	if r, err := charset.NewReader(bytes.NewReader(body), ctype); err == nil {
		if b, err := io.ReadAll(r); err == nil {
			body = b
		}
	}
	s := strings.ToValidUTF8(string(body), "\uFFFD")
	if media != "text/html" && media != "application/xhtml+xml" {
		return s, nil
	}
	md, err := t.conv.ConvertString(s, htmltomarkdown.WithContext(ctx), htmltomarkdown.WithDomain(final.Scheme+"://"+final.Host))
	if err != nil {
		return "", fmt.Errorf("Could not convert the HTML of %s to Markdown: %v", final.Redacted(), err)
	}
	return md, nil
}

// isTextual reports whether a content type is text a model can read.
func isTextual(ctype string) bool {
	media, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		media = strings.ToLower(strings.TrimSpace(strings.Split(ctype, ";")[0]))
	}
	switch {
	case strings.HasPrefix(media, "text/"),
		strings.HasSuffix(media, "+json"), strings.HasSuffix(media, "+xml"):
		return true
	}
	switch media {
	case "application/json", "application/xml", "application/javascript", "application/ecmascript",
		"application/x-javascript", "application/xhtml+xml", "application/x-yaml", "application/yaml",
		"application/toml", "application/x-sh", "application/sql", "application/graphql", "application/ld+json":
		return true
	}
	return false
}

// truncateUTF8 cuts s to at most n bytes without splitting a character.
func truncateUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
