package openai

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

const testKey = "sk-test-0123456789abcdef"

// newModel is a Model on srv with the test key and fast retries.
func newModel(t testing.TB, srv *llmtest.Server, mod ...func(*Config)) *Model {
	t.Helper()
	cfg := Config{APIKey: testKey, BaseURL: srv.OpenAIURL(), Model: "gpt-test"}
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

// recorder collects deltas.
type recorder struct{ deltas []llm.Delta }

func (r *recorder) add(d llm.Delta) { r.deltas = append(r.deltas, d) }

func (r *recorder) text() string {
	var b strings.Builder
	for _, d := range r.deltas {
		b.WriteString(d.Text)
	}
	return b.String()
}

func (r *recorder) toolNames() []string {
	var out []string
	for _, d := range r.deltas {
		if d.ToolName != "" {
			out = append(out, d.ToolName)
		}
	}
	return out
}

func TestStreamText(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{
		Text:  "Hello there, my friend.",
		Model: "gpt-test-2025",
		Usage: &llmtest.Usage{Input: 20, Output: 6, CacheRead: 80},
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
		if d.Text != want[i] || d.ToolName != "" {
			t.Errorf("delta %d = %+v, want %q", i, d, want[i])
		}
	}
	if resp.Message.Role != llm.RoleAssistant || resp.Message.Text != "Hello there, my friend." || len(resp.Message.ToolCalls) != 0 {
		t.Errorf("message %+v", resp.Message)
	}
	if resp.Stop != llm.StopEnd || resp.Model != "gpt-test-2025" {
		t.Errorf("stop %q model %q", resp.Stop, resp.Model)
	}
	if resp.Usage != (llm.Usage{InputTokens: 100, OutputTokens: 6, CacheReadTokens: 80}) {
		t.Errorf("usage %+v", resp.Usage)
	}

	r := srv.Requests()[0]
	if r.Path != "/v1/chat/completions" || r.Model != "gpt-test" || !r.Stream || !r.IncludeUsage || r.MaxTokens != 0 {
		t.Errorf("request %+v", r)
	}
	if r.ToolsField || bytes.Contains(r.Body, []byte(`"tool_choice"`)) {
		t.Errorf("tools sent without tools: %s", r.Body)
	}
	if r.Header.Get("Authorization") != "Bearer "+testKey {
		t.Errorf("Authorization %q", r.Header.Get("Authorization"))
	}
	var body struct {
		Messages []struct{ Role, Content string } `json:"messages"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil || len(body.Messages) != 2 ||
		body.Messages[0] != (struct{ Role, Content string }{"system", "You are terse."}) || body.Messages[1].Role != "user" {
		t.Errorf("messages %s", r.Body)
	}
}

func TestToolCalls(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "Reading.", ToolCalls: []llmtest.ToolCall{
			{Name: "Read", Arguments: json.RawMessage(`{"file_path":"/home/user/project/main.go","limit":50}`)}}},
		{ToolCalls: []llmtest.ToolCall{
			{ID: "call_a", Name: "Glob", Arguments: json.RawMessage(`{"pattern":"**/*.go"}`)},
			{ID: "call_b", Name: "Grep", Arguments: json.RawMessage(`{"pattern":"func main","path":"/src"}`)},
			{ID: "call_c", Name: "Bash", RawArguments: `{"command": "ls`},
		}},
	}})
	m := newModel(t, srv)
	var rec recorder
	resp, err := m.Stream(context.Background(), user("read main.go"), rec.add)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Stop != llm.StopToolUse || resp.Message.Text != "Reading." || len(resp.Message.ToolCalls) != 1 {
		t.Fatalf("%+v", resp)
	}
	c := resp.Message.ToolCalls[0]
	if c.ID != "call_1" || c.Name != "Read" || string(c.Arguments) != `{"file_path":"/home/user/project/main.go","limit":50}` {
		t.Errorf("call %+v %s", c, c.Arguments)
	}
	if got := rec.toolNames(); len(got) != 1 || got[0] != "Read" || rec.deltas[len(rec.deltas)-1].ToolName != "Read" {
		t.Errorf("deltas %+v", rec.deltas)
	}

	rec = recorder{}
	resp, err = m.Stream(context.Background(), user("look around"), rec.add)
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.ToolCall{
		{ID: "call_a", Name: "Glob", Arguments: json.RawMessage(`{"pattern":"**/*.go"}`)},
		{ID: "call_b", Name: "Grep", Arguments: json.RawMessage(`{"pattern":"func main","path":"/src"}`)},
		{ID: "call_c", Name: "Bash", Arguments: json.RawMessage(`{"command": "ls`)},
	}
	if dump(resp.Message.ToolCalls) != dump(want) {
		t.Errorf("calls\n%s\nwant\n%s", dump(resp.Message.ToolCalls), dump(want))
	}
	if strings.Join(rec.toolNames(), ",") != "Glob,Grep,Bash" {
		t.Errorf("tool deltas %v", rec.toolNames())
	}
}

func dump(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

func TestConversationRoundTrip(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "Done."}}})
	schema := json.RawMessage(`{"type":"object","properties":{"file_path":{"type":"string"},"limit":{"type":"integer","maximum":10000000000000001}},"required":["file_path"]}`)
	req := llm.Request{
		System: "sys",
		Tools: []llm.ToolSpec{
			{Name: "Read", Description: "Reads a file.", InputSchema: schema},
			{Name: "Clock"},
		},
		MaxTokens: 512,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: "read a and b"},
			{Role: llm.RoleAssistant, Text: "Reading both.", ToolCalls: []llm.ToolCall{
				{ID: "call_1", Name: "Read", Arguments: json.RawMessage(`{"file_path":"a"}`)},
				{ID: "call_2", Name: "Read", Arguments: json.RawMessage(`{"file_path":`)},
			}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "call_1", Name: "Read", Content: "contents of a"}},
			{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "call_2", Name: "Read", Content: "invalid arguments", IsError: true}},
			{Role: llm.RoleUser, Text: "and?"},
		},
	}
	if _, err := newModel(t, srv).Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.Rejected != "" || r.System != "sys" || r.MaxTokens != 512 || !bytes.Contains(r.Body, []byte(`"max_completion_tokens":512`)) {
		t.Errorf("request %+v", r)
	}
	want := []llm.Message{
		{Role: llm.RoleUser, Text: "read a and b"},
		{Role: llm.RoleAssistant, Text: "Reading both.", ToolCalls: []llm.ToolCall{
			{ID: "call_1", Name: "Read", Arguments: json.RawMessage(`{"file_path":"a"}`)},
			{ID: "call_2", Name: "Read", Arguments: json.RawMessage(`{}`)},
		}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "call_1", Name: "Read", Content: "contents of a"}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "call_2", Name: "Read", Content: "invalid arguments"}},
		{Role: llm.RoleUser, Text: "and?"},
	}
	if dump(r.Messages) != dump(want) {
		t.Errorf("messages\n%s\nwant\n%s", dump(r.Messages), dump(want))
	}
	if len(r.Tools) != 2 || r.Tools[0].Name != "Read" || r.Tools[0].Description != "Reads a file." || r.Tools[1].Description != "" {
		t.Fatalf("tools %+v", r.Tools)
	}
	var got, wantSchema any
	_ = json.Unmarshal(r.Tools[0].InputSchema, &got)
	_ = json.Unmarshal(schema, &wantSchema)
	if dump(got) != dump(wantSchema) || !bytes.Contains(r.Body, []byte(`10000000000000001`)) {
		t.Errorf("parameters %s", r.Tools[0].InputSchema)
	}
	if string(r.Tools[1].InputSchema) != `{"type":"object","properties":{}}` {
		t.Errorf("empty schema sent as %s", r.Tools[1].InputSchema)
	}
	if bytes.Contains(r.Body, []byte(`"strict"`)) || bytes.Contains(r.Body, []byte(`"tool_choice"`)) {
		t.Errorf("strict or tool_choice sent: %s", r.Body)
	}
}

func TestStopReasons(t *testing.T) {
	call := []llmtest.ToolCall{{Name: "A"}}
	cases := []struct {
		turn llmtest.Turn
		want llm.StopReason
	}{
		{llmtest.Turn{Text: "x", Stop: "stop"}, llm.StopEnd},
		{llmtest.Turn{Text: "x", Stop: "length"}, llm.StopMaxTokens},
		{llmtest.Turn{Text: "x", Stop: "content_filter"}, llm.StopOther},
		{llmtest.Turn{Text: "x", Stop: "something_new"}, llm.StopOther},
		{llmtest.Turn{ToolCalls: call, Stop: "tool_calls"}, llm.StopToolUse},
		{llmtest.Turn{ToolCalls: call, Stop: "function_call"}, llm.StopToolUse},
		// Calls are to be run whatever the server says (Ollama says stop).
		{llmtest.Turn{ToolCalls: call, Stop: "stop"}, llm.StopToolUse},
		{llmtest.Turn{ToolCalls: call, Stop: "length"}, llm.StopToolUse},
	}
	for _, c := range cases {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{c.turn}})
		resp, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
		if err != nil || resp.Stop != c.want {
			t.Errorf("finish %q: %q %v, want %q", c.turn.Stop, resp.Stop, err, c.want)
		}
	}
	if stopReason("function_call") != llm.StopToolUse || stopReason("") != llm.StopOther {
		t.Error("stopReason")
	}
}

func TestOllamaQuirks(t *testing.T) {
	calls := []llmtest.ToolCall{
		{ID: "call_x", Name: "Read", Arguments: json.RawMessage(`{"file_path":"a"}`)},
		{ID: "call_y", Name: "Read", Arguments: json.RawMessage(`{"file_path":"b"}`)},
		{ID: "call_z", Name: "Glob", Arguments: json.RawMessage(`{"pattern":"*"}`)},
	}
	for _, q := range []llmtest.Quirks{
		{IndexZero: true},
		{IndexZero: true, WholeCalls: true, NoUsage: true},
		{WholeCalls: true},
	} {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{ToolCalls: calls, Stop: "stop", Quirks: q}}})
		var rec recorder
		resp, err := newModel(t, srv, func(c *Config) { c.Provider, c.APIKey = "ollama", "" }).Stream(context.Background(), user("x"), rec.add)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		if len(resp.Message.ToolCalls) != 3 || resp.Stop != llm.StopToolUse {
			t.Fatalf("%+v: %s", q, dump(resp.Message.ToolCalls))
		}
		for i, c := range resp.Message.ToolCalls {
			if c.ID != calls[i].ID || c.Name != calls[i].Name || string(c.Arguments) != string(calls[i].Arguments) {
				t.Errorf("%+v: call %d = %+v %s", q, i, c, c.Arguments)
			}
		}
		if strings.Join(rec.toolNames(), ",") != "Read,Read,Glob" {
			t.Errorf("%+v: tool deltas %v", q, rec.toolNames())
		}
		if q.NoUsage && resp.Usage != (llm.Usage{}) {
			t.Errorf("usage without usage: %+v", resp.Usage)
		}
		if h := srv.Requests()[0].Header.Get("Authorization"); h != "" {
			t.Errorf("Authorization sent without a key: %q", h)
		}
	}
}

// TestAssembler feeds chunks as servers send them, one by one.
func TestAssembler(t *testing.T) {
	cases := []struct {
		name   string
		chunks []string
		calls  string
	}{
		{"ids only in later fragments",
			[]string{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"A","arguments":"{\"x\""}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"arguments":":1}"}}]}}]}`},
			`[{"id":"c1","name":"A","arguments":{"x":1}}]`},
		{"no ids at all",
			[]string{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"A","arguments":""}},{"index":1,"function":{"name":"B"}}]}}]}`},
			`[{"id":"call_1","name":"A","arguments":{}},{"id":"call_2","name":"B","arguments":{}}]`},
		{"name repeated in every fragment",
			[]string{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"A","arguments":"{\"a\":"}}]}}]}`,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"A","arguments":"2}"}}]}}]}`},
			`[{"id":"c1","name":"A","arguments":{"a":2}}]`},
		{"same id twice in one turn",
			[]string{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c","function":{"name":"A","arguments":"{}"}},{"index":1,"id":"c","function":{"name":"B","arguments":"{}"}}]}}]}`},
			`[{"id":"c","name":"A","arguments":{}},{"id":"c_2","name":"B","arguments":{}}]`},
		{"a made-up id does not collide with a server's",
			[]string{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"A","arguments":"{}"}},{"index":1,"id":"call_1","function":{"name":"B","arguments":"{}"}}]}}]}`},
			`[{"id":"call_1","name":"A","arguments":{}},{"id":"call_1_2","name":"B","arguments":{}}]`},
		{"arguments sent as an object, not as text",
			[]string{`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"A","arguments":{"x": [1, "y"]}}}]}}]}`},
			`[{"id":"c1","name":"A","arguments":{"x":[1,"y"]}}]`},
		{"a field of another type is left empty, the rest kept",
			[]string{`{"choices":[{"index":0,"delta":{"content":5,"tool_calls":[{"index":0,"id":7,"function":{"name":"A","arguments":null}}]}}]}`},
			`[{"id":"call_1","name":"A","arguments":{}}]`},
		{"other choices are ignored",
			[]string{`{"choices":[{"index":1,"delta":{"content":"no","tool_calls":[{"index":0,"id":"z","function":{"name":"Z"}}]}}]}`},
			`null`},
	}
	for _, c := range cases {
		var a assembler
		for _, raw := range c.chunks {
			c := decodeChunk(t, raw)
			a.add(&c, func(llm.Delta) {})
		}
		if got := dump(a.response().Message.ToolCalls); got != c.calls {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.calls)
		}
	}
}

// TestThinkingStreams: the thinking of reasoning models, as compatible
// servers send it, streams as Thinking deltas and stays out of the
// message; a reasoning field that is not text is not shown.
func TestThinkingStreams(t *testing.T) {
	var a assembler
	var thought []string
	for _, raw := range []string{
		`{"choices":[{"index":0,"delta":{"reasoning_content":"Let me "}}]}`,
		`{"choices":[{"index":0,"delta":{"reasoning":"think."}}]}`,
		`{"choices":[{"index":0,"delta":{"reasoning":{"summary":"x"}}}]}`,
		`{"choices":[{"index":0,"delta":{"content":"Answer."}}]}`,
	} {
		c := decodeChunk(t, raw)
		a.add(&c, func(d llm.Delta) {
			if d.Thinking != "" {
				thought = append(thought, d.Thinking)
			}
		})
	}
	if got := strings.Join(thought, "|"); got != "Let me |think." {
		t.Errorf("thinking deltas %q", got)
	}
	if m := a.response().Message; m.Text != "Answer." {
		t.Errorf("message %q", m.Text)
	}
}

// TestChunkNotAnObject: an event that is not a JSON object still fails
// the stream, as with the SDK's decoder.
func TestChunkNotAnObject(t *testing.T) {
	for _, raw := range []string{`[1]`, `"s"`, `{"choices":[`} {
		var c chunk
		if err := c.decode([]byte(raw)); err == nil {
			t.Errorf("%s: no error", raw)
		}
	}
}

func decodeChunk(t testing.TB, raw string) (c chunk) {
	t.Helper()
	if err := c.decode([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestMaxTokensField(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{{Text: "x"}}})
	req := user("x")
	req.MaxTokens = 100
	if _, err := newModel(t, srv, func(c *Config) { c.Provider = "ollama" }).Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	if b := srv.Requests()[0].Body; !bytes.Contains(b, []byte(`"max_tokens":100`)) || bytes.Contains(b, []byte(`max_completion_tokens`)) {
		t.Errorf("ollama: %s", b)
	}
}

func TestRequestErrors(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{})
	m := newModel(t, srv, func(c *Config) { c.Model = "" })
	_, err := m.Stream(context.Background(), user("x"), nil)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindRequest || err.Error() != "openai: cannot build the request: no model: give one with --model" {
		t.Errorf("no model: %v", err)
	}
	req := user("x")
	req.Model = "m"
	req.Tools = []llm.ToolSpec{{Name: "X", InputSchema: json.RawMessage(`{"type":`)}}
	_, err = m.Stream(context.Background(), req, nil)
	if !errors.As(err, &e) || e.Kind != llm.KindRequest || !strings.Contains(err.Error(), `tool "X": input schema: not a JSON object`) {
		t.Errorf("bad schema: %v", err)
	}
	if len(srv.Requests()) != 0 {
		t.Error("a request was sent")
	}
	if _, err := New(Config{Provider: "vllm"}); err == nil || err.Error() != "vllm: no base URL: give the server's URL with --base-url" {
		t.Errorf("no base URL: %v", err)
	}
}

// TestEnvironmentIgnored: the SDK's environment defaults (key, base URL)
// are not used: forge's configuration decides.
func TestEnvironmentIgnored(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-the-environment")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_CUSTOM_HEADERS", "X-Leak: 1")
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "x"}}})
	m := newModel(t, srv, func(c *Config) { c.Provider, c.APIKey = "ollama", "" })
	if _, err := m.Stream(context.Background(), user("x"), nil); err != nil {
		t.Fatal(err)
	}
	h := srv.Requests()[0].Header
	if h.Get("Authorization") != "" || h.Get("X-Leak") != "" {
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
		{400, "Invalid 'messages[1]'", "openai: 400 Bad Request: Invalid 'messages[1]'", ""},
		{401, "Incorrect API key provided", "openai: 401 Unauthorized: Incorrect API key provided", "check the API key in OPENAI_API_KEY"},
		{403, "Project does not have access", "openai: 403 Forbidden: Project does not have access", "check the API key in OPENAI_API_KEY"},
		{404, "The model `gpt-9` does not exist", "openai: 404 Not Found: The model `gpt-9` does not exist", "check --model and --base-url"},
	}
	for _, c := range cases {
		srv := llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
			{Error: &llmtest.ErrorReply{Status: c.status, Message: c.msg}}}})
		_, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
		var e *llm.Error
		if !errors.As(err, &e) || err.Error() != c.line || e.Hint() != c.hint || e.Retryable() {
			t.Errorf("%d: %v (hint %q)", c.status, err, e.Hint())
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d: %d requests, want 1", c.status, n)
		}
	}
}

func TestErrorsRetried(t *testing.T) {
	for _, status := range []int{429, 500, 502, 503, 529} {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
			{Error: &llmtest.ErrorReply{Status: status, Message: "busy", Headers: map[string]string{"Retry-After": "0"}}},
			{Error: &llmtest.ErrorReply{Status: status, Message: "busy", Headers: map[string]string{"retry-after-ms": "1"}}},
			{Text: "at last"},
		}})
		resp, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
		if err != nil || resp.Message.Text != "at last" {
			t.Errorf("%d: %v %+v", status, err, resp)
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
	// Retries end: the last error is reported.
	srv := llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{Error: &llmtest.ErrorReply{Status: 429, Message: "Rate limit reached for gpt-test", Headers: map[string]string{"Retry-After": "0"}}}}})
	_, err := newModel(t, srv, func(c *Config) { c.MaxRetries = 2 }).Stream(context.Background(), user("x"), nil)
	var e *llm.Error
	if !errors.As(err, &e) || err.Error() != "openai: 429 Too Many Requests: Rate limit reached for gpt-test" || !e.Retryable() ||
		e.Hint() != "rate limited: wait a moment or lower your usage" {
		t.Errorf("%v", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (1 + 2 retries)", n)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Error: &llmtest.ErrorReply{Status: 429, Message: "wait", Headers: map[string]string{"Retry-After": "1"}}},
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

// TestKeyNeverInErrorsOrLogs: a server that echoes the Authorization
// header in its error message does not get the key into the error, and
// the debug log holds no key.
func TestKeyNeverInErrorsOrLogs(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprintf(w, `{"error":{"message":"bad credentials: %s (key %s)","type":"invalid_request_error"}}`,
			r.Header.Get("Authorization"), strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	}))
	defer echo.Close()
	var log bytes.Buffer
	m, err := New(Config{APIKey: testKey, BaseURL: echo.URL + "/v1", Model: "m", Logger: zerolog.New(&log).Level(zerolog.DebugLevel)})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Stream(context.Background(), user("x"), nil)
	if err == nil || strings.Contains(err.Error(), testKey) ||
		err.Error() != "openai: 401 Unauthorized: bad credentials: Bearer [REDACTED] (key [REDACTED])" {
		t.Errorf("error: %v", err)
	}
	if strings.Contains(fmt.Sprintf("%+v %#v", err, err), testKey) {
		t.Error("the key is in the error's fields")
	}
	if !strings.Contains(log.String(), `"status":401`) || !strings.Contains(log.String(), `"method":"POST"`) ||
		!strings.Contains(log.String(), "/v1/chat/completions") || strings.Contains(log.String(), testKey) {
		t.Errorf("log: %s", log.String())
	}
}

func TestCancelMidStream(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "I am thinking about", Stall: true}}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rec recorder
	done := make(chan error, 1)
	go func() {
		_, err := newModel(t, srv).Stream(ctx, user("x"), func(d llm.Delta) {
			rec.add(d)
			cancel()
		})
		done <- err
	}()
	select {
	case err := <-done:
		var e *llm.Error
		if !errors.Is(err, context.Canceled) || !errors.As(err, &e) || e.Kind != llm.KindCanceled || err.Error() != "openai: request cancelled" {
			t.Errorf("%v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Stream did not return after cancel")
	}
	if len(rec.deltas) == 0 {
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
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests", n)
	}
}

func TestHangUpMidStream(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{Text: "a long answer that the server will not finish", HangUp: &llmtest.HangUp{AfterBytes: 500}}}})
	var rec recorder
	_, err := newModel(t, srv).Stream(context.Background(), user("x"), rec.add)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindInterrupted || !e.Retryable() || strings.ContainsAny(err.Error(), "\n") ||
		!strings.HasPrefix(err.Error(), "openai: the answer stopped before its end: ") || e.Hint() != "the connection closed mid-answer: retry" {
		t.Errorf("%v", err)
	}
	if len(rec.deltas) == 0 {
		t.Error("no delta before the hang-up")
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("a begun stream was retried: %d requests", n)
	}
}

func TestHangUpBeforeAnswerIsRetried(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{HangUp: &llmtest.HangUp{}},
		{Text: "second try"},
	}})
	resp, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
	if err != nil || resp.Message.Text != "second try" {
		t.Errorf("%v %+v", err, resp)
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
			llm.KindMalformed, "openai: unreadable answer from URL: not an event stream (text/html)"},
		{"HTML error page", llmtest.Turn{Raw: &llmtest.RawReply{Status: 403, Body: "<html><head><title>403 Forbidden</title></head><body>nginx</body></html>"}},
			llm.KindStatus, "openai: 403 Forbidden: HTML page: 403 Forbidden"},
		{"plain text error", llmtest.Turn{Raw: &llmtest.RawReply{Status: 400, ContentType: "text/plain", Body: "bad request\nreally"}},
			llm.KindStatus, "openai: 400 Bad Request: bad request really"},
		{"Ollama's error shape", llmtest.Turn{Error: &llmtest.ErrorReply{Status: 404, Body: `{"error":"model \"llama9\" not found, try pulling it first"}`}},
			llm.KindStatus, `openai: 404 Not Found: model "llama9" not found, try pulling it first`},
		{"garbage event", llmtest.Turn{Raw: &llmtest.RawReply{ContentType: "text/event-stream", Body: "data: {\"choices\": [tru\n\n"}},
			llm.KindMalformed, "openai: unreadable answer from URL: an event is not the API's JSON: "},
		{"empty stream", llmtest.Turn{Raw: &llmtest.RawReply{ContentType: "text/event-stream", Body: ": keep-alive\n\n"}},
			llm.KindMalformed, "openai: unreadable answer from URL: the stream had no events"},
		{"stream without its end", llmtest.Turn{Raw: &llmtest.RawReply{ContentType: "text/event-stream",
			Body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n"}},
			llm.KindInterrupted, "openai: the answer stopped before its end: the stream ended without a finish_reason"},
		{"error event mid-stream", llmtest.Turn{Text: "so far", StreamError: &llmtest.ErrorReply{Status: 500, Message: "The server had an error"}},
			llm.KindStatus, "openai: 500 Internal Server Error: The server had an error"},
	}
	for _, c := range cases {
		srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{c.turn}})
		_, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
		var e *llm.Error
		line := strings.ReplaceAll(c.line, "URL", srv.OpenAIURL())
		if !errors.As(err, &e) || e.Kind != c.kind || !strings.HasPrefix(err.Error(), line) || strings.ContainsAny(err.Error(), "\n") {
			t.Errorf("%s: %v (kind %d), want %q", c.name, err, e.Kind, line)
		}
	}
}

func TestConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	m, err := New(Config{Provider: "ollama", BaseURL: url, Model: "llama3", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Stream(context.Background(), user("x"), nil)
	var e *llm.Error
	if !errors.As(err, &e) || err.Error() != "ollama: cannot reach "+url+": connection refused" ||
		!strings.HasPrefix(e.Hint(), "start Ollama (ollama serve") || !e.Retryable() {
		t.Errorf("%v", err)
	}
}

func TestDiscover(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Models: []string{"qwen3:8b", "llama3.2"}})
	name, err := Discover(context.Background(), srv.OpenAIURL(), nil)
	if err != nil || name != "qwen3:8b" {
		t.Errorf("%q %v", name, err)
	}
	if r := srv.Requests()[0]; r.Method != "GET" || r.Path != "/v1/models" {
		t.Errorf("%s %s", r.Method, r.Path)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	if _, err := Discover(context.Background(), url, nil); err == nil || err.Error() != "ollama: cannot reach "+url+": connection refused" {
		t.Errorf("nothing there: %v", err)
	}

	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[]}`)
	}))
	defer empty.Close()
	if _, err := Discover(context.Background(), empty.URL+"/v1", nil); err == nil || !strings.Contains(err.Error(), "no models at") {
		t.Errorf("empty: %v", err)
	}

	// A server that never answers is given up on after DiscoverTimeout.
	hold := make(chan struct{})
	stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
	}))
	defer stalled.Close()
	defer close(hold)
	_, err = Discover(context.Background(), stalled.URL+"/v1", nil)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindUnreachable || !strings.Contains(err.Error(), "no answer within 2s") {
		t.Errorf("stalled: %v", err)
	}
}

// TestLongRetryAfterReported: the SDK does not wait longer than two
// minutes for a retry; the error carries the wait.
func TestLongRetryAfterReported(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{RepeatLast: true, Turns: []llmtest.Turn{
		{Error: &llmtest.ErrorReply{Status: 429, Message: "Daily limit reached", Headers: map[string]string{"Retry-After": "3600"}}}}})
	_, err := newModel(t, srv).Stream(context.Background(), user("x"), nil)
	var e *llm.Error
	if !errors.As(err, &e) || e.RetryAfter != time.Hour || e.Hint() != "rate limited: wait 1h0m0s or lower your usage" {
		t.Errorf("%v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests", n)
	}
}

// FuzzAssemble feeds any chunks, one JSON object a line: the assembler
// never panics, and every call it returns has a unique, non-empty ID.
func FuzzAssemble(f *testing.F) {
	f.Add(`{"choices":[{"index":0,"delta":{"content":"hi","tool_calls":[{"index":0,"id":"a","function":{"name":"A","arguments":"{"}}]}}]}
{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"arguments":"}"}},{"index":0,"id":"b","function":{"name":"B"}}]},"finish_reason":"stop"}]}`)
	f.Add(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":3,"function":{"name":"A"}},{"index":3,"id":"call_1"}]}}]}
{"usage":{"prompt_tokens":1,"completion_tokens":2,"prompt_tokens_details":{"cached_tokens":1}}}`)
	f.Add(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":-1,"id":"","function":{"name":""}}]},"finish_reason":"length"}]}`)
	f.Fuzz(func(t *testing.T, lines string) {
		var a assembler
		for _, line := range strings.Split(lines, "\n") {
			var c chunk
			if c.decode([]byte(line)) != nil {
				continue
			}
			a.add(&c, func(llm.Delta) {})
		}
		r := a.response()
		seen := map[string]bool{}
		for _, c := range r.Message.ToolCalls {
			if c.ID == "" || seen[c.ID] || len(c.Arguments) == 0 {
				t.Fatalf("bad call %+v in %s", c, dump(r.Message.ToolCalls))
			}
			seen[c.ID] = true
		}
		if len(r.Message.ToolCalls) > 0 && r.Stop != llm.StopToolUse {
			t.Fatalf("calls with stop %q", r.Stop)
		}
	})
}
