package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

const testKey = "sk-ant-test-0123456789abcdef"

func newModel(t testing.TB, srv *llmtest.Server, mod ...func(*Config)) *Model {
	t.Helper()
	cfg := Config{APIKey: testKey, BaseURL: srv.AnthropicURL(), Model: "claude-test"}
	for _, f := range mod {
		f(&cfg)
	}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func user(text string) llm.Request {
	return llm.Request{System: "You are terse.", Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}}
}

type recorder struct{ deltas []llm.Delta }

func (r *recorder) add(d llm.Delta) { r.deltas = append(r.deltas, d) }

func (r *recorder) toolNames() []string {
	var out []string
	for _, d := range r.deltas {
		if d.ToolName != "" {
			out = append(out, d.ToolName)
		}
	}
	return out
}

func dump(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// field decodes one top-level field of a request body.
func field(t *testing.T, body []byte, name string, v any) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m[name], v); err != nil {
		t.Fatalf("%s: %v in %s", name, err, body)
	}
}

func TestStreamText(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{
		Text:  "Hello there, my friend.",
		Model: "claude-test-20250101",
		Usage: &llmtest.Usage{Input: 12, Output: 7, CacheRead: 1000, CacheWrite: 200},
	}}})
	var rec recorder
	resp, err := newModel(t, srv).Stream(context.Background(), user("hi"), rec.add)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Hello ", "there, ", "my ", "friend."}
	if len(rec.deltas) != len(want) {
		t.Fatalf("deltas %+v", rec.deltas)
	}
	for i, d := range rec.deltas {
		if d.Text != want[i] {
			t.Errorf("delta %d = %+v, want %q", i, d, want[i])
		}
	}
	if resp.Message.Text != "Hello there, my friend." || resp.Message.Role != llm.RoleAssistant || resp.Stop != llm.StopEnd || resp.Model != "claude-test-20250101" {
		t.Errorf("%+v", resp)
	}
	if resp.Usage != (llm.Usage{InputTokens: 1212, OutputTokens: 7, CacheReadTokens: 1000, CacheWriteTokens: 200}) {
		t.Errorf("usage %+v", resp.Usage)
	}

	r := srv.Requests()[0]
	if r.Path != "/v1/messages" || r.Model != "claude-test" || !r.Stream || r.MaxTokens != DefaultMaxTokens || r.System != "You are terse." {
		t.Errorf("request %+v", r)
	}
	if r.Header.Get("X-Api-Key") != testKey || r.Header.Get("Authorization") != "" || r.Header.Get("Anthropic-Version") == "" {
		t.Errorf("headers %v", r.Header)
	}
	if r.ToolsField {
		t.Errorf("tools sent without tools: %s", r.Body)
	}
	var system []struct {
		Type         string `json:"type"`
		Text         string `json:"text"`
		CacheControl struct {
			Type string `json:"type"`
		} `json:"cache_control"`
	}
	field(t, r.Body, "system", &system)
	if len(system) != 1 || system[0].Text != "You are terse." || system[0].CacheControl.Type != "ephemeral" {
		t.Errorf("system %s", r.Body)
	}
}

func TestToolCalls(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "Reading.", ToolCalls: []llmtest.ToolCall{
			{Name: "Read", Arguments: json.RawMessage(`{"file_path":"/home/user/project/main.go","limit":50}`)}}},
		{ToolCalls: []llmtest.ToolCall{
			{ID: "toolu_a", Name: "Glob", Arguments: json.RawMessage(`{"pattern":"**/*.go"}`)},
			{ID: "toolu_b", Name: "Grep", Arguments: json.RawMessage(`{"pattern":"func main","path":"/src"}`)},
			{ID: "toolu_c", Name: "Bash", RawArguments: `{"command": "ls`},
			{ID: "toolu_d", Name: "Clock"},
		}},
	}})
	m := newModel(t, srv)
	var rec recorder
	resp, err := m.Stream(context.Background(), user("read"), rec.add)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stop != llm.StopToolUse || resp.Message.Text != "Reading." ||
		dump(resp.Message.ToolCalls) != `[{"id":"toolu_1","name":"Read","arguments":{"file_path":"/home/user/project/main.go","limit":50}}]` {
		t.Errorf("%+v %s", resp, dump(resp.Message.ToolCalls))
	}
	if rec.deltas[len(rec.deltas)-1].ToolName != "Read" {
		t.Errorf("deltas %+v", rec.deltas)
	}
	rec = recorder{}
	resp, err = m.Stream(context.Background(), user("look"), rec.add)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"id":"toolu_a","name":"Glob","arguments":{"pattern":"**/*.go"}},{"id":"toolu_b","name":"Grep","arguments":{"pattern":"func main","path":"/src"}},` +
		`{"id":"toolu_c","name":"Bash","arguments":{"command": "ls},{"id":"toolu_d","name":"Clock","arguments":{}}]`
	if got := fmt.Sprintf("[%s]", joinCalls(resp.Message.ToolCalls)); got != want {
		t.Errorf("calls\n%s\nwant\n%s", got, want)
	}
	if strings.Join(rec.toolNames(), ",") != "Glob,Grep,Bash,Clock" {
		t.Errorf("tool deltas %v", rec.toolNames())
	}
}

// joinCalls prints calls with their raw arguments, broken ones included.
func joinCalls(calls []llm.ToolCall) string {
	parts := make([]string, len(calls))
	for i, c := range calls {
		parts[i] = fmt.Sprintf(`{"id":%q,"name":%q,"arguments":%s}`, c.ID, c.Name, c.Arguments)
	}
	return strings.Join(parts, ",")
}

func TestConversationRoundTrip(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "Done."}}})
	schema := `{"type":"object","properties":{"file_path":{"type":"string"},"limit":{"type":"integer","maximum":10000000000000001}},"required":["file_path"]}`
	req := llm.Request{
		System:    "sys",
		MaxTokens: 1000,
		Tools: []llm.ToolSpec{
			{Name: "Read", Description: "Reads a file.", InputSchema: json.RawMessage(schema)},
			{Name: "Clock"},
		},
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "read a and b"},
			{Role: llm.RoleAssistant, Text: "Reading both.", ToolCalls: []llm.ToolCall{
				{ID: "toolu_1", Name: "Read", Arguments: json.RawMessage(`{"file_path":"a"}`)},
				{ID: "toolu_2", Name: "Read", Arguments: json.RawMessage(`{"file_path":`)},
				{ID: "toolu_3", Name: "Clock", Arguments: json.RawMessage(`[1]`)},
			}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "toolu_1", Name: "Read", Content: "contents of a"}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "toolu_2", Name: "Read", Content: "invalid arguments", IsError: true}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "toolu_3", Name: "Clock", Content: ""}},
			{Role: llm.RoleUser, Text: "and?"},
			{Role: llm.RoleAssistant, Text: ""},
			{Role: llm.RoleUser, Text: "hello?"},
		},
	}
	if _, err := newModel(t, srv).Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Rejected != "" || r.MaxTokens != 1000 {
		t.Fatalf("request %+v", r)
	}
	want := []llm.Message{
		{Role: llm.RoleUser, Text: "read a and b"},
		{Role: llm.RoleAssistant, Text: "Reading both.", ToolCalls: []llm.ToolCall{
			{ID: "toolu_1", Name: "Read", Arguments: json.RawMessage(`{"file_path":"a"}`)},
			{ID: "toolu_2", Name: "Read", Arguments: json.RawMessage(`{}`)},
			{ID: "toolu_3", Name: "Clock", Arguments: json.RawMessage(`{}`)},
		}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "toolu_1", Name: "Read", Content: "contents of a"}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "toolu_2", Name: "Read", Content: "invalid arguments", IsError: true}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "toolu_3", Name: "Clock"}},
		{Role: llm.RoleUser, Text: "and?"},
		{Role: llm.RoleUser, Text: "hello?"},
	}
	if dump(r.Messages) != dump(want) {
		t.Errorf("messages\n%s\nwant\n%s", dump(r.Messages), dump(want))
	}
	// Three messages on the wire: user, assistant, and one user message
	// with the three results and the two texts after them.
	var wireMsgs []struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}
	field(t, r.Body, "messages", &wireMsgs)
	if len(wireMsgs) != 3 || wireMsgs[2].Role != "user" || len(wireMsgs[2].Content) != 5 {
		t.Fatalf("wire messages %s", r.Body)
	}
	last := string(wireMsgs[2].Content[4])
	if !strings.Contains(last, `"cache_control":{"type":"ephemeral"}`) || strings.Contains(string(wireMsgs[2].Content[3]), "cache_control") {
		t.Errorf("no breakpoint on the last block: %s", wireMsgs[2].Content)
	}
	var tools []map[string]json.RawMessage
	field(t, r.Body, "tools", &tools)
	if len(tools) != 2 || string(tools[0]["input_schema"]) != schema || string(tools[0]["description"]) != `"Reads a file."` ||
		tools[0]["cache_control"] != nil || string(tools[1]["cache_control"]) != `{"type":"ephemeral"}` ||
		string(tools[1]["input_schema"]) != `{"type":"object","properties":{}}` || tools[1]["description"] != nil {
		t.Errorf("tools %s", r.Body)
	}
	if n := bytes.Count(r.Body, []byte("cache_control")); n != 3 {
		t.Errorf("%d cache breakpoints, want 3 (the API allows 4)", n)
	}
}

func TestStopReasons(t *testing.T) {
	call := []llmtest.ToolCall{{Name: "A"}}
	cases := []struct {
		turn llmtest.Turn
		want llm.StopReason
	}{
		{llmtest.Turn{Text: "x", Stop: "end_turn"}, llm.StopEnd},
		{llmtest.Turn{Text: "x", Stop: "stop_sequence"}, llm.StopEnd},
		{llmtest.Turn{Text: "x", Stop: "max_tokens"}, llm.StopMaxTokens},
		{llmtest.Turn{Text: "x", Stop: "refusal"}, llm.StopOther},
		{llmtest.Turn{Text: "x", Stop: "pause_turn"}, llm.StopOther},
		{llmtest.Turn{ToolCalls: call, Stop: "tool_use"}, llm.StopToolUse},
		{llmtest.Turn{ToolCalls: call, Stop: "max_tokens"}, llm.StopToolUse},
	}
	for _, c := range cases {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{c.turn}})
		resp, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
		if err != nil || resp.Stop != c.want {
			t.Errorf("stop_reason %q: %q %v, want %q", c.turn.Stop, resp.Stop, err, c.want)
		}
	}
}

func TestRequestErrors(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{})
	m := newModel(t, srv, func(c *Config) { c.Model = "" })
	_, err := m.Stream(context.Background(), user("x"), nil)
	if err == nil || err.Error() != "anthropic: cannot build the request: no model: give one with --model" {
		t.Errorf("no model: %v", err)
	}
	req := user("x")
	req.Model = "m"
	req.Tools = []llm.ToolSpec{{Name: "X", InputSchema: json.RawMessage(`[1]`)}}
	if _, err = m.Stream(context.Background(), req, nil); err == nil || !strings.Contains(err.Error(), `tool "X": input schema: not a JSON object`) {
		t.Errorf("bad schema: %v", err)
	}
	if len(srv.Requests()) != 0 {
		t.Error("a request was sent")
	}
}

func TestEnvironmentIgnored(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-the-environment")
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "token-from-the-environment")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "x"}}})
	if _, err := newModel(t, srv, func(c *Config) { c.APIKey = "" }).Stream(context.Background(), user("x"), nil); err != nil {
		t.Fatal(err)
	}
	h := srv.Requests()[0].Header
	if h.Get("X-Api-Key") != "" || h.Get("Authorization") != "" {
		t.Errorf("environment used: %v", h)
	}
}

func TestErrorsNotRetried(t *testing.T) {
	cases := []struct {
		status int
		msg    string
		line   string
		hint   string
	}{
		{400, "messages.1: roles must alternate", "anthropic: 400 Bad Request: messages.1: roles must alternate", ""},
		{401, "invalid x-api-key", "anthropic: 401 Unauthorized: invalid x-api-key", "check the API key in ANTHROPIC_API_KEY"},
		{403, "Your API key does not have permission", "anthropic: 403 Forbidden: Your API key does not have permission", "check the API key in ANTHROPIC_API_KEY"},
		{404, "model: claude-9", "anthropic: 404 Not Found: model: claude-9", "check --model and --base-url"},
	}
	for _, c := range cases {
		srv := llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
			{Error: &llmtest.ErrorReply{Status: c.status, Message: c.msg}}}})
		_, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
		var e *llm.Error
		if !errors.As(err, &e) || err.Error() != c.line || e.Hint() != c.hint || e.Retryable() {
			t.Errorf("%d: %v", c.status, err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d: %d requests, want 1", c.status, n)
		}
	}
}

func TestErrorsRetried(t *testing.T) {
	for _, status := range []int{429, 500, 503, 529} {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
			{Error: &llmtest.ErrorReply{Status: status, Message: "busy", Headers: map[string]string{"retry-after-ms": "1"}}},
			{Error: &llmtest.ErrorReply{Status: status, Message: "busy", Headers: map[string]string{"Retry-After": "0"}}},
			{Text: "at last"},
		}})
		resp, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
		if err != nil || resp.Message.Text != "at last" {
			t.Errorf("%d: %v", status, err)
		}
		reqs := srv.Requests()
		if len(reqs) != 3 {
			t.Errorf("%d: %d requests, want 3", status, len(reqs))
			continue
		}
		// Each retry sends the whole body again.
		for _, r := range reqs[1:] {
			if len(r.Body) == 0 || !bytes.Equal(r.Body, reqs[0].Body) || r.Rejected != "" {
				t.Errorf("%d: retry %d sent %q (%s), first %q", status, r.N, r.Body, r.Rejected, reqs[0].Body)
			}
		}
	}
	srv := llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{Error: &llmtest.ErrorReply{Status: 529, Message: "Overloaded", Headers: map[string]string{"Retry-After": "0"}}}}})
	_, err := newModel(t, srv, func(c *Config) { c.MaxRetries = 1 }).Stream(context.Background(), user("x"), nil)
	var e *llm.Error
	if !errors.As(err, &e) || err.Error() != "anthropic: 529 Overloaded: Overloaded" || e.Type != "overloaded_error" ||
		e.Hint() != "the provider's trouble: retry later" || !e.Retryable() {
		t.Errorf("%v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests, want 2", n)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Error: &llmtest.ErrorReply{Status: 429, Message: "wait", Headers: map[string]string{"retry-after-ms": "1000"}}},
		{Text: "ok"},
	}})
	start := time.Now()
	if _, err := newModel(t, srv).Stream(context.Background(), user("x"), nil); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("retried after %v, before the second the server asked for", d)
	}
}

func TestKeyNeverInErrorsOrLogs(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key: %s"}}`, r.Header.Get("X-Api-Key"))
	}))
	defer echo.Close()
	var log bytes.Buffer
	m, err := New(Config{APIKey: testKey, BaseURL: echo.URL, Model: "m", Logger: zerolog.New(&log).Level(zerolog.DebugLevel)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Stream(context.Background(), user("x"), nil)
	if err == nil || err.Error() != "anthropic: 401 Unauthorized: invalid x-api-key: [REDACTED]" {
		t.Errorf("error: %v", err)
	}
	if strings.Contains(fmt.Sprintf("%+v %#v", err, err), testKey) {
		t.Error("the key is in the error's fields")
	}
	if !strings.Contains(log.String(), `"status":401`) || !strings.Contains(log.String(), "/v1/messages") || strings.Contains(log.String(), testKey) {
		t.Errorf("log: %s", log.String())
	}
}

func TestCancelMidStream(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "I am thinking about", Stall: true}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got int
	done := make(chan error, 1)
	go func() {
		_, err := newModel(t, srv).Stream(ctx, user("x"), func(llm.Delta) {
			got++
			cancel()
		})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || err.Error() != "anthropic: request cancelled" {
			t.Errorf("%v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
	if got == 0 {
		t.Error("no delta before the cancel")
	}
}

func TestStallThenCancel(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Stall: true}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := newModel(t, srv).Stream(ctx, user("x"), nil)
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
}

func TestHangUps(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "a long answer that the server will not finish", HangUp: &llmtest.HangUp{AfterBytes: 700}},
	}})
	var rec recorder
	_, err := newModel(t, srv).Stream(context.Background(), user("x"), rec.add)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindInterrupted || !e.Retryable() ||
		!strings.HasPrefix(err.Error(), "anthropic: the answer stopped before its end: ") || strings.ContainsAny(err.Error(), "\n") {
		t.Errorf("%v", err)
	}
	if len(rec.deltas) == 0 || len(srv.Requests()) != 1 {
		t.Errorf("%d deltas, %d requests", len(rec.deltas), len(srv.Requests()))
	}

	srv = llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{HangUp: &llmtest.HangUp{}}, {Text: "second try"}}})
	resp, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
	if err != nil || resp.Message.Text != "second try" {
		t.Errorf("hang-up before the answer: %v", err)
	}
}

func TestUnreadableAnswers(t *testing.T) {
	cases := []struct {
		name string
		turn llmtest.Turn
		kind llm.ErrorKind
		line string
	}{
		{"HTML page with 200", llmtest.Turn{Raw: &llmtest.RawReply{Body: "<html><body>Please log in</body></html>"}},
			llm.KindMalformed, "anthropic: unreadable answer from URL: not an event stream (text/html)"},
		{"HTML error page", llmtest.Turn{Raw: &llmtest.RawReply{Status: 403, Body: "<html><head><title>Access denied</title></head></html>"}},
			llm.KindStatus, "anthropic: 403 Forbidden: HTML page: Access denied"},
		{"garbage event", llmtest.Turn{Raw: &llmtest.RawReply{ContentType: "text/event-stream", Body: "event: message_start\ndata: {\"type\": \"message_start\", \"message\": [\n\n"}},
			llm.KindMalformed, "anthropic: unreadable answer from URL: an event is not the API's JSON: "},
		{"stream without its end", llmtest.Turn{Raw: &llmtest.RawReply{ContentType: "text/event-stream",
			Body: "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":1}}}\n\n"}},
			llm.KindInterrupted, "anthropic: the answer stopped before its end: the stream ended without message_stop"},
		{"overloaded mid-stream", llmtest.Turn{Text: "so far", StreamError: &llmtest.ErrorReply{Status: 529, Message: "Overloaded"}},
			llm.KindStatus, "anthropic: 529 Overloaded: Overloaded"},
		{"rate limit mid-stream", llmtest.Turn{Text: "so far", StreamError: &llmtest.ErrorReply{Status: 429, Message: "slow down"}},
			llm.KindStatus, "anthropic: 429 Too Many Requests: slow down"},
	}
	for _, c := range cases {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{c.turn}})
		_, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
		var e *llm.Error
		line := strings.ReplaceAll(c.line, "URL", srv.AnthropicURL())
		if !errors.As(err, &e) || e.Kind != c.kind || !strings.HasPrefix(err.Error(), line) || strings.ContainsAny(err.Error(), "\n") {
			t.Errorf("%s: %v, want %q", c.name, err, line)
		}
	}
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	m, err := New(Config{APIKey: testKey, BaseURL: url, Model: "m", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Stream(context.Background(), user("x"), nil)
	if err == nil || err.Error() != "anthropic: cannot reach "+url+": connection refused" {
		t.Errorf("%v", err)
	}
}

// TestAssemblerBlocks: thinking and redacted_thinking blocks are kept in
// order with their signature and data, their thinking streamed apart from
// the text; blocks of other types are left out, text blocks are joined,
// and a tool_use without input deltas keeps its start input.
func TestAssemblerBlocks(t *testing.T) {
	events := []string{
		`{"type":"message_start","message":{"model":"m","usage":{"input_tokens":5,"output_tokens":1}}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hmm"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"c2ln"}}`,
		`{"type":"content_block_start","index":4,"content_block":{"type":"redacted_thinking","data":"ZW5j"}}`,
		`{"type":"content_block_start","index":5,"content_block":{"type":"server_tool_use","id":"s1","name":"web_search"}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"A"}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"B"}}`,
		`{"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"t1","name":"X","input":{"k":1}}}`,
		`{"type":"content_block_start","index":3,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"C"}}`,
		`{"type":"content_block_delta","index":9,"delta":{"type":"text_delta","text":"lost"}}`,
		`{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":9,"input_tokens":6}}`,
		`{"type":"message_stop"}`,
	}
	var a assembler
	var rec recorder
	for _, raw := range events {
		var ev event
		if err := ev.decode([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		a.add(&ev, rec.add)
	}
	r := a.response()
	if r.Message.Text != "ABC" || joinCalls(r.Message.ToolCalls) != `{"id":"t1","name":"X","arguments":{"k":1}}` ||
		r.Usage != (llm.Usage{InputTokens: 6, OutputTokens: 9}) || !a.finished {
		t.Errorf("%+v", r)
	}
	if got := dump(r.Message.Reasoning); got != `[{"provider":"anthropic","text":"hmm","signature":"c2ln"},{"provider":"anthropic","redacted":"ZW5j"}]` {
		t.Errorf("reasoning %s", got)
	}
	if dump(rec.deltas) != `[{"Text":"","Thinking":"hmm","ToolName":""},{"Text":"A","Thinking":"","ToolName":""},{"Text":"B","Thinking":"","ToolName":""},`+
		`{"Text":"","Thinking":"","ToolName":"X"},{"Text":"C","Thinking":"","ToolName":""}]` {
		t.Errorf("deltas %s", dump(rec.deltas))
	}
}

// TestLongRetryAfterReported: a wait longer than wire.MaxRetryAfter is
// not waited for silently but reported, with the wait in the hint.
func TestLongRetryAfterReported(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{Error: &llmtest.ErrorReply{Status: 429, Message: "Daily limit reached", Headers: map[string]string{"Retry-After": "3600"}}}}})
	_, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
	var e *llm.Error
	if !errors.As(err, &e) || err.Error() != "anthropic: 429 Too Many Requests: Daily limit reached" ||
		e.RetryAfter != time.Hour || e.Hint() != "rate limited: wait 1h0m0s or lower your usage" {
		t.Errorf("%v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests", n)
	}
}

// FuzzAssemble feeds any events, one JSON object a line: the assembler
// never panics, and every call it returns has a unique, non-empty ID.
func FuzzAssemble(f *testing.F) {
	f.Add(`{"type":"message_start","message":{"model":"m","usage":{"input_tokens":5}}}
{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"X","input":{}}}
{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}}
{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t","name":"Y"}}
{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}
{"type":"message_stop"}`)
	f.Add(`{"type":"content_block_start","index":-5,"content_block":{"type":"tool_use","input":null}}
{"type":"content_block_delta","index":-5,"delta":{"type":"text_delta","text":"x"}}`)
	f.Fuzz(func(t *testing.T, lines string) {
		var a assembler
		for _, line := range strings.Split(lines, "\n") {
			var ev event
			if ev.decode([]byte(line)) != nil {
				continue
			}
			a.add(&ev, func(llm.Delta) {})
		}
		r := a.response()
		seen := map[string]bool{}
		for _, c := range r.Message.ToolCalls {
			if c.ID == "" || seen[c.ID] || len(c.Arguments) == 0 {
				t.Fatalf("bad call %+v", c)
			}
			seen[c.ID] = true
		}
	})
}

// TestEventDecoding: a field of another type is left empty and the rest
// kept; an event that is not a JSON object fails the stream.
func TestEventDecoding(t *testing.T) {
	var ev event
	if err := ev.decode([]byte(`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":"many"}}`)); err != nil ||
		ev.Type != "message_delta" || ev.Delta.StopReason != "end_turn" || ev.Usage.OutputTokens != 0 {
		t.Errorf("%+v %v", ev, err)
	}
	for _, raw := range []string{`[1]`, `"s"`, `{"type":`} {
		var ev event
		if err := ev.decode([]byte(raw)); err == nil {
			t.Errorf("%s: no error", raw)
		}
	}
}

// A base URL that ends in /v1, as OpenAI-style settings write it, reaches
// /v1/messages, not /v1/v1/messages.
func TestBaseURLWithV1(t *testing.T) {
	for _, suffix := range []string{"", "/", "/v1", "/v1/"} {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "hi"}}})
		m := newModel(t, srv, func(c *Config) { c.BaseURL = strings.TrimSuffix(srv.AnthropicURL(), "/") + suffix })
		if _, err := m.Stream(context.Background(), user("hi"), nil); err != nil {
			t.Fatalf("%q: %v", suffix, err)
		}
		if p := srv.Requests()[0].Path; p != "/v1/messages" {
			t.Errorf("base URL ending %q: requested %s", suffix, p)
		}
	}
}
