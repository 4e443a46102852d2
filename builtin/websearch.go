package builtin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/forgehq/forge/builtin/internal/cfg"
	"github.com/forgehq/forge/builtin/internal/netguard"
	"github.com/forgehq/forge/internal/tools"
)

// WebSearch's defaults.
const (
	webSearchTimeout    = 20 * time.Second
	webSearchMaxResults = 10
	webSearchMaxBody    = 4 << 20
	// webSearchEnv is read when the configuration has no endpoint, so the
	// message's advice works even where the configuration loader does not
	// map this variable.
	webSearchEnv = "FORGE_TOOLS_WEBSEARCH_ENDPOINT"
)

// errNoEndpoint is WebSearch's answer when no backend is configured: it says
// exactly what to set.
const errNoEndpoint = "WebSearch has no search endpoint configured. Set tools.WebSearch.endpoint in ~/.config/forge/config.yaml " +
	"(a SearXNG-compatible JSON API, e.g. http://localhost:8888/search) or " + webSearchEnv + "."

var webSearchDescriptor = tools.Descriptor{
	ReadOnly:  true,
	Networked: true,
	Name:      "WebSearch",
	Description: "Search the web. Queries the configured search endpoint (a SearXNG-compatible JSON API, tools.WebSearch.endpoint) " +
		"and returns the results' titles, URLs and snippets. allowed_domains keeps only results from those domains, " +
		"blocked_domains drops results from them (subdomains included).",
	Category: tools.CategoryWeb,
	Parameters: []tools.Parameter{
		{Name: "query", Type: tools.TypeString, Description: "The search query", Required: true, MinLength: tools.Int(2)},
		{Name: "allowed_domains", Type: tools.TypeArray, Description: "Only include results from these domains",
			Items: &tools.Parameter{Type: tools.TypeString, Description: "A domain, e.g. go.dev"}},
		{Name: "blocked_domains", Type: tools.TypeArray, Description: "Never include results from these domains",
			Items: &tools.Parameter{Type: tools.TypeString, Description: "A domain, e.g. example.com"}},
	},
}

// webSearchTool queries a SearXNG-style endpoint. The endpoint is the user's
// own configuration, not a model's choice, so its host may be private (a
// local SearXNG is the common case); anywhere it redirects to is checked
// like a URL a model chose.
type webSearchTool struct {
	described
	endpoint   string
	client     *http.Client
	timeout    time.Duration
	maxResults int
}

// The keys of tools.WebSearch.
var (
	webSearchEndpointKey   = cfg.StringKey("endpoint", "")
	webSearchTimeoutKey    = cfg.DurationKey("timeout", webSearchTimeout)
	webSearchMaxResultsKey = cfg.PositiveIntKey("max_results", webSearchMaxResults)
)

// newWebSearch builds WebSearch from tools.WebSearch: endpoint, timeout
// (default 20s), max_results (default 10).
func newWebSearch(_ context.Context, deps tools.Deps) (tools.Tool, error) {
	ep, err := webSearchEndpointKey.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	if ep == "" {
		ep = os.Getenv(webSearchEnv)
	}
	timeout, err := webSearchTimeoutKey.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	n, err := webSearchMaxResultsKey.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	ep = strings.TrimSpace(ep)
	trusted, _ := url.Parse(ep) // Execute explains an endpoint that does not parse
	return &webSearchTool{described: described{webSearchDescriptor}, endpoint: ep, maxResults: n, timeout: timeout,
		client: guardedClient(netguard.Policy{Trusted: trusted}, timeout)}, nil
}

// Egress is the search endpoint's host: the query goes to it. Without a
// usable endpoint nothing is sent.
func (t *webSearchTool) Egress(_ tools.ExecutionContext, _ tools.Args) tools.Egress {
	u, ok := t.endpointURL()
	if !ok {
		return tools.Egress{}
	}
	return tools.Egress{Hosts: []string{tools.HostName(u.Hostname())}}
}

// endpointURL is the configured endpoint, when it is an http(s) URL.
func (t *webSearchTool) endpointURL() (*url.URL, bool) {
	if t.endpoint == "" {
		return nil, false
	}
	u, err := url.Parse(t.endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, false
	}
	return u, true
}

// Close drops idle connections.
func (t *webSearchTool) Close() error {
	t.client.CloseIdleConnections()
	return nil
}

// DryRun says what would be searched, and where.
func (t *webSearchTool) DryRun(_ tools.ExecutionContext, args tools.Args) string {
	where := t.endpoint
	if where == "" {
		where = "no endpoint configured"
	}
	return fmt.Sprintf("Would search for %q (%s)", args.String("query"), where)
}

// searchResult is one result of a SearXNG JSON answer.
type searchResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Content string `json:"content"`
}

// Execute runs the query.
func (t *webSearchTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	if t.endpoint == "" {
		return tools.Fail(errNoEndpoint)
	}
	query := strings.TrimSpace(args.String("query"))
	if len([]rune(query)) < 2 {
		return tools.Fail("The query must have at least 2 characters.")
	}
	allowed, err := domainList(args.Strings("allowed_domains"))
	if err != nil {
		return tools.Fail("Invalid allowed_domains: " + err.Error())
	}
	blocked, err := domainList(args.Strings("blocked_domains"))
	if err != nil {
		return tools.Fail("Invalid blocked_domains: " + err.Error())
	}
	results, fail := t.search(ctx, query)
	if fail != nil {
		return *fail
	}
	var kept []searchResult
	for _, r := range results {
		if r.URL == "" || !domainAllowed(r.URL, allowed, blocked) {
			continue
		}
		kept = append(kept, r)
		if len(kept) == t.maxResults {
			break
		}
	}
	text := formatResults(query, kept)
	if limit := outputLimit(ec); len(text) > limit {
		text = truncateUTF8(text, limit) + "\n[Results cut at the output cap.]"
	}
	return tools.OK(text, "query", query, "count", len(kept), "total", len(results))
}

// search asks the endpoint for query and returns its results, or the
// failure to report.
func (t *webSearchTool) search(ctx context.Context, query string) ([]searchResult, *tools.Result) {
	fail := func(r tools.Result) ([]searchResult, *tools.Result) { return nil, &r }
	u, ok := t.endpointURL()
	if !ok {
		return fail(tools.Fail(fmt.Sprintf("The search endpoint %q is not an http(s) URL. Set tools.WebSearch.endpoint to a SearXNG-compatible JSON API, e.g. http://localhost:8888/search.", t.endpoint)))
	}
	q := u.Query()
	q.Set("q", query)
	q.Set("format", "json")
	u.RawQuery = q.Encode()
	ctx, cancel := context.WithTimeout(ctx, t.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fail(tools.Fail(fmt.Sprintf("Invalid search endpoint: %v", err)))
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", webUserAgent)
	resp, err := t.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return fail(markStopped(tools.Fail("The search was cancelled or timed out: "+ctx.Err().Error()), ctx.Err()))
		}
		if _, ok := netguard.Blocked(err); ok {
			return fail(tools.Fail(fmt.Sprintf("Refusing to follow the search endpoint %s: %v. Only the configured endpoint itself may be a private address.",
				u.Redacted(), unwrapURLError(err))))
		}
		return fail(tools.Fail(fmt.Sprintf("The search endpoint %s did not answer: %v", u.Redacted(), unwrapURLError(err))))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, webSearchMaxBody))
	if err != nil {
		return fail(tools.Fail(fmt.Sprintf("Reading the search results failed: %v", err)))
	}
	if to, ok := crossHostRedirect(resp); ok {
		return fail(tools.Fail(fmt.Sprintf("The search endpoint redirects to %s, on another host: searches go to the configured endpoint's host only. "+
			"Set tools.WebSearch.endpoint to the URL it redirects to.", to.Redacted())))
	}
	if resp.StatusCode != http.StatusOK {
		return fail(tools.Fail(fmt.Sprintf("The search endpoint answered HTTP %s (is format=json enabled in its settings?)", resp.Status), "status_code", resp.StatusCode))
	}
	var answer struct {
		Results []searchResult `json:"results"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return fail(tools.Fail(fmt.Sprintf("The search endpoint did not return SearXNG JSON ({\"results\": [...]}): %v", err)))
	}
	return answer.Results, nil
}

// formatResults lists the kept results for the model.
func formatResults(query string, kept []searchResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Search results for %q (%d):\n", query, len(kept))
	if len(kept) == 0 {
		b.WriteString("\nNo results.")
	}
	for i, r := range kept {
		fmt.Fprintf(&b, "\n%d. %s\n   %s\n", i+1, oneLine(r.Title, 200), r.URL)
		if c := oneLine(r.Content, 500); c != "" {
			fmt.Fprintf(&b, "   %s\n", c)
		}
	}
	return b.String()
}

// unwrapURLError drops the *url.Error wrapper, whose method and URL the
// messages already give.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// domainList normalises domains: lower case, no scheme, path or leading dot.
func domainList(in []string) ([]string, error) {
	out := make([]string, 0, len(in))
	for _, d := range in {
		d = strings.ToLower(strings.TrimSpace(d))
		if i := strings.Index(d, "://"); i >= 0 {
			d = d[i+3:]
		}
		d = strings.TrimPrefix(strings.SplitN(d, "/", 2)[0], ".")
		d = strings.TrimPrefix(d, "*.")
		if d == "" || strings.ContainsAny(d, " \x00") {
			return nil, fmt.Errorf("%q is not a domain", d)
		}
		out = append(out, d)
	}
	return out, nil
}

// domainAllowed applies the filters to a result URL; a domain matches itself
// and its subdomains.
func domainAllowed(raw string, allowed, blocked []string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	match := func(d string) bool { return host == d || strings.HasSuffix(host, "."+d) }
	for _, d := range blocked {
		if match(d) {
			return false
		}
	}
	if len(allowed) == 0 {
		return true
	}
	for _, d := range allowed {
		if match(d) {
			return true
		}
	}
	return false
}
