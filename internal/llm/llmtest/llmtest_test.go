package llmtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/llm"
)

// post sends body to the server's path and returns the status, headers
// and body.
func post(t *testing.T, url, body string) (int, http.Header, string) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(out)
}

type event struct {
	name string
	data map[string]any
	raw  string
}

// events splits an SSE body into its events.
func events(t *testing.T, body string) []event {
	t.Helper()
	var out []event
	sc := bufio.NewScanner(strings.NewReader(body))
	var cur event
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.raw != "" {
				if cur.raw != "[DONE]" {
					if err := json.Unmarshal([]byte(cur.raw), &cur.data); err != nil {
						t.Fatalf("event data is not JSON: %q", cur.raw)
					}
				}
				out = append(out, cur)
			}
			cur = event{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.raw = strings.TrimPrefix(line, "data: ")
		default:
			t.Fatalf("not an SSE line: %q", line)
		}
	}
	return out
}

const openAIReqBody = `{"model":"gpt-x","stream":true,"stream_options":{"include_usage":true},
	"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"hi"}]}`

const anthropicReqBody = `{"model":"claude-x","max_tokens":100,"stream":true,
	"system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral"}}],
	"messages":[{"role":"user","content":"hi"}]}`

func TestOpenAIStream(t *testing.T) {
	srv := NewServer(t, Script{Turns: []Turn{{
		Text:      "Hello there friend",
		ToolCalls: []ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path":"/tmp/a.txt"}`)}, {ID: "mine", Name: "Glob"}},
		Usage:     &Usage{Input: 7, Output: 3, CacheRead: 5},
	}}})
	status, h, body := post(t, srv.OpenAIURL()+"/chat/completions", openAIReqBody)
	if status != 200 || h.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %v %s", status, h, body)
	}
	evs := events(t, body)
	var text, args0, args1 strings.Builder
	var ids, names []string
	var finish any
	var usage map[string]any
	for _, e := range evs[:len(evs)-1] {
		if u, ok := e.data["usage"].(map[string]any); ok {
			usage = u
			continue
		}
		choice := e.data["choices"].([]any)[0].(map[string]any)
		if f := choice["finish_reason"]; f != nil {
			finish = f
		}
		delta := choice["delta"].(map[string]any)
		if c, ok := delta["content"].(string); ok {
			text.WriteString(c)
		}
		for _, tc := range asList(delta["tool_calls"]) {
			fn := tc["function"].(map[string]any)
			if id, ok := tc["id"].(string); ok {
				ids = append(ids, id)
				names = append(names, fn["name"].(string))
			}
			if tc["index"].(float64) == 0 {
				args0.WriteString(fn["arguments"].(string))
			} else {
				args1.WriteString(fn["arguments"].(string))
			}
		}
	}
	if evs[len(evs)-1].raw != "[DONE]" {
		t.Errorf("last event %q", evs[len(evs)-1].raw)
	}
	if text.String() != "Hello there friend" || finish != "tool_calls" {
		t.Errorf("text %q finish %v", text.String(), finish)
	}
	if strings.Join(ids, ",") != "call_1,mine" || strings.Join(names, ",") != "Read,Glob" {
		t.Errorf("ids %v names %v", ids, names)
	}
	if args0.String() != `{"file_path":"/tmp/a.txt"}` || args1.String() != "{}" {
		t.Errorf("args %q %q", args0.String(), args1.String())
	}
	if usage["prompt_tokens"] != 12.0 || usage["completion_tokens"] != 3.0 ||
		usage["prompt_tokens_details"].(map[string]any)["cached_tokens"] != 5.0 {
		t.Errorf("usage %v", usage)
	}
	// Several text pieces and several argument fragments.
	if n := strings.Count(body, `"content":"`); n < 4 {
		t.Errorf("text in %d pieces", n)
	}
	if n := strings.Count(body, `"arguments":"`); n < 5 {
		t.Errorf("arguments in %d fragments", n)
	}
}

func asList(v any) []map[string]any {
	list, _ := v.([]any)
	out := make([]map[string]any, len(list))
	for i, x := range list {
		out[i] = x.(map[string]any)
	}
	return out
}

func TestOpenAIQuirks(t *testing.T) {
	calls := []ToolCall{{Name: "A", Arguments: json.RawMessage(`{"x":1}`)}, {Name: "B"}}
	srv := NewServer(t, Script{Turns: []Turn{
		{ToolCalls: calls, Quirks: Quirks{IndexZero: true, WholeCalls: true, NoUsage: true}},
		{Text: "no usage asked"},
	}})
	_, _, body := post(t, srv.OpenAIURL()+"/chat/completions", openAIReqBody)
	if strings.Contains(body, `"usage"`) || strings.Contains(body, `"index":1`) {
		t.Errorf("quirks not applied: %s", body)
	}
	if !strings.Contains(body, `{"function":{"arguments":"{\"x\":1}","name":"A"},"id":"call_1","index":0,"type":"function"}`) {
		t.Errorf("not a whole call: %s", body)
	}
	_, _, body = post(t, srv.OpenAIURL()+"/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}`)
	if strings.Contains(body, `"usage"`) {
		t.Errorf("usage sent though not asked: %s", body)
	}
}

func TestAnthropicStream(t *testing.T) {
	srv := NewServer(t, Script{Turns: []Turn{{
		Chunks:    []string{"Hel", "lo"},
		ToolCalls: []ToolCall{{Name: "Read", RawArguments: `{"file_path": "/a`}},
		Usage:     &Usage{Input: 3, Output: 8, CacheRead: 100, CacheWrite: 20},
	}}})
	status, _, body := post(t, srv.AnthropicURL()+"/v1/messages", anthropicReqBody)
	if status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	var names []string
	var text, args strings.Builder
	for _, e := range events(t, body) {
		names = append(names, e.name)
		if e.data["type"] != e.name {
			t.Errorf("event %s has type %v", e.name, e.data["type"])
		}
		if d, ok := e.data["delta"].(map[string]any); ok {
			switch d["type"] {
			case "text_delta":
				text.WriteString(d["text"].(string))
			case "input_json_delta":
				args.WriteString(d["partial_json"].(string))
			}
		}
	}
	want := "message_start content_block_start ping content_block_delta content_block_delta content_block_stop " +
		"content_block_start content_block_delta content_block_delta content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if strings.Join(names, " ") != want {
		t.Errorf("events:\n%s\nwant\n%s", strings.Join(names, " "), want)
	}
	if text.String() != "Hello" || args.String() != `{"file_path": "/a` {
		t.Errorf("text %q args %q", text.String(), args.String())
	}
	for _, s := range []string{`"input_tokens":3`, `"cache_read_input_tokens":100`, `"cache_creation_input_tokens":20`,
		`"stop_reason":"tool_use"`, `"output_tokens":8`, `"id":"toolu_1","input":{},"name":"Read"`, `"model":"claude-x"`} {
		if !strings.Contains(body, s) {
			t.Errorf("stream lacks %s", s)
		}
	}
}

func TestRequestsAreRecorded(t *testing.T) {
	srv := NewServer(t, Script{Turns: []Turn{{Text: "a"}, {Text: "b"}}})
	post(t, srv.OpenAIURL()+"/chat/completions", `{"model":"gpt-x","stream":true,
		"tools":[{"type":"function","function":{"name":"Read","description":"reads","parameters":{"type":"object"}}}],
		"messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"read it"}]},
		{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"Read","arguments":"{\"p\":1}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"file text"}]}`)
	post(t, srv.AnthropicURL()+"/v1/messages", `{"model":"claude-x","max_tokens":10,"stream":true,"system":"sys",
		"tools":[{"name":"Read","description":"reads","input_schema":{"type":"object"}}],
		"messages":[{"role":"user","content":"read it"},
		{"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"t1","name":"Read","input":{"p":1}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"no such file"}],"is_error":true},{"type":"text","text":"go on"}]}]}`)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	o, a := reqs[0], reqs[1]
	if o.N != 1 || o.Wire != OpenAI || o.System != "sys" || o.Model != "gpt-x" || o.Turn != 0 || o.Rejected != "" ||
		strings.Join(o.ToolNames(), ",") != "Read" || !o.ToolsField || o.Header.Get("Content-Type") != "application/json" {
		t.Errorf("openai request: %+v", o)
	}
	wantO := []llm.Message{
		{Role: llm.RoleUser, Text: "read it"},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "Read", Arguments: json.RawMessage(`{"p":1}`)}}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Name: "Read", Content: "file text"}},
	}
	if !sameMessages(o.Messages, wantO) {
		t.Errorf("openai messages: %s", dump(o.Messages))
	}
	if a.N != 2 || a.Wire != Anthropic || a.System != "sys" || a.MaxTokens != 10 || a.Turn != 1 {
		t.Errorf("anthropic request: %+v", a)
	}
	wantA := []llm.Message{
		{Role: llm.RoleUser, Text: "read it"},
		{Role: llm.RoleAssistant, Text: "ok", ToolCalls: []llm.ToolCall{{ID: "t1", Name: "Read", Arguments: json.RawMessage(`{"p":1}`)}}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "t1", Name: "Read", Content: "no such file", IsError: true}},
		{Role: llm.RoleUser, Text: "go on"},
	}
	if !sameMessages(a.Messages, wantA) {
		t.Errorf("anthropic messages: %s", dump(a.Messages))
	}
	if r := a.Results(); len(r) != 1 || !r[0].IsError {
		t.Errorf("results %+v", r)
	}
}

func sameMessages(a, b []llm.Message) bool { return dump(a) == dump(b) }

func dump(v any) string {
	out, _ := json.Marshal(v)
	return string(out)
}

func TestTurnSelection(t *testing.T) {
	srv := NewServer(t, Script{RepeatLast: true, Turns: []Turn{
		{When: &When{System: "subagent"}, Text: "sub 1"},
		{Text: "parent 1"},
		{Match: func(r *Request) bool { return strings.Contains(r.System, "subagent") }, Text: "sub 2"},
		{When: &When{Last: "again"}, Text: "parent 2"},
	}})
	ask := func(system, user string) string {
		body := `{"model":"m","stream":true,"messages":[{"role":"system","content":"` + system + `"},{"role":"user","content":"` + user + `"}]}`
		_, _, out := post(t, srv.OpenAIURL()+"/chat/completions", body)
		var text strings.Builder
		for _, e := range events(t, out) {
			if e.data == nil {
				continue
			}
			for _, c := range e.data["choices"].([]any) {
				if s, ok := c.(map[string]any)["delta"].(map[string]any)["content"].(string); ok {
					text.WriteString(s)
				}
			}
		}
		return text.String()
	}
	got := []string{ask("parent", "go"), ask("you are a subagent", "go"), ask("you are a subagent", "go"), ask("parent", "again"), ask("parent", "again")}
	want := []string{"parent 1", "sub 1", "sub 2", "parent 2", "parent 2"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if srv.Remaining() != 0 {
		t.Errorf("remaining %d", srv.Remaining())
	}
}

func TestUnscriptedRequestFails(t *testing.T) {
	srv, err := Start(Script{Turns: []Turn{{Text: "only"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	post(t, srv.OpenAIURL()+"/chat/completions", openAIReqBody)
	status, h, body := post(t, srv.OpenAIURL()+"/chat/completions", openAIReqBody)
	if status != 500 || h.Get("x-should-retry") != "false" || !strings.Contains(body, "llmtest: request 2 has no scripted turn (the script has 1 turns)") {
		t.Errorf("%d %v %s", status, h, body)
	}
	if f := srv.Failures(); len(f) != 1 {
		t.Errorf("failures %v", f)
	}
	// NewServer reports it to the test.
	ft := &fakeT{TB: t}
	srv2 := NewServer(ft, Script{})
	post(t, srv2.AnthropicURL()+"/v1/messages", anthropicReqBody)
	if !strings.Contains(ft.errs, "no scripted turn") {
		t.Errorf("not reported: %q", ft.errs)
	}
}

type fakeT struct {
	testing.TB
	errs string
}

func (f *fakeT) Errorf(format string, args ...any) { f.errs += fmt.Sprintf(format, args...) + "\n" }
func (f *fakeT) Helper()                           {}

func TestErrorTurns(t *testing.T) {
	srv := NewServer(t, Script{Turns: []Turn{
		{Error: &ErrorReply{Status: 429, Message: "Slow down", Headers: map[string]string{"Retry-After": "3"}}},
		{Error: &ErrorReply{Status: 529, Message: "Overloaded"}},
		{Error: &ErrorReply{Status: 502, Body: "<html><title>Bad Gateway</title></html>"}},
		{Raw: &RawReply{Body: "garbage"}},
	}})
	status, h, body := post(t, srv.OpenAIURL()+"/chat/completions", openAIReqBody)
	if status != 429 || h.Get("Retry-After") != "3" || body != `{"error":{"code":null,"message":"Slow down","param":null,"type":"rate_limit_error"}}` {
		t.Errorf("429: %d %v %s", status, h, body)
	}
	status, _, body = post(t, srv.AnthropicURL()+"/v1/messages", anthropicReqBody)
	if status != 529 || body != `{"error":{"message":"Overloaded","type":"overloaded_error"},"type":"error"}` {
		t.Errorf("529: %d %s", status, body)
	}
	status, _, body = post(t, srv.AnthropicURL()+"/v1/messages", anthropicReqBody)
	if status != 502 || !strings.HasPrefix(body, "<html>") {
		t.Errorf("502: %d %s", status, body)
	}
	status, h, body = post(t, srv.AnthropicURL()+"/v1/messages", anthropicReqBody)
	if status != 200 || h.Get("Content-Type") != "text/html" || body != "garbage" {
		t.Errorf("raw: %d %s", status, body)
	}
}

func TestStreamErrorAndHangUp(t *testing.T) {
	srv := NewServer(t, Script{Turns: []Turn{
		{Text: "so far", StreamError: &ErrorReply{Status: 529, Message: "Overloaded"}},
		{Text: "so far", StreamError: &ErrorReply{Status: 500, Message: "boom"}},
		{Text: "a long answer that is cut", HangUp: &HangUp{AfterBytes: 300}},
		{HangUp: &HangUp{}},
	}})
	_, _, body := post(t, srv.AnthropicURL()+"/v1/messages", anthropicReqBody)
	evs := events(t, body)
	last := evs[len(evs)-1]
	if last.name != "error" || last.raw != `{"error":{"message":"Overloaded","type":"overloaded_error"},"type":"error"}` {
		t.Errorf("anthropic error event: %+v", last)
	}
	_, _, body = post(t, srv.OpenAIURL()+"/chat/completions", openAIReqBody)
	if !strings.HasSuffix(body, `data: {"error":{"code":null,"message":"boom","param":null,"type":"api_error"}}`+"\n\n") {
		t.Errorf("openai error line: %s", body)
	}
	res, err := http.Post(srv.OpenAIURL()+"/chat/completions", "application/json", strings.NewReader(openAIReqBody))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(res.Body)
	res.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) || len(got) != 300 {
		t.Errorf("hang-up: %d bytes, %v", len(got), err)
	}
	if _, err := http.Post(srv.OpenAIURL()+"/chat/completions", "application/json", strings.NewReader(openAIReqBody)); err == nil {
		t.Error("hang-up before the status line gave a response")
	}
}

func TestStall(t *testing.T) {
	srv := NewServer(t, Script{Turns: []Turn{{Text: "thinking", Stall: true}, {Stall: true}}})
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.OpenAIURL()+"/chat/completions", strings.NewReader(openAIReqBody))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	n, _ := res.Body.Read(buf)
	if !bytes.Contains(buf[:n], []byte(`"role":"assistant"`)) {
		t.Errorf("stall sent %q", buf[:n])
	}
	cancel()
	_, err = io.ReadAll(res.Body)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("after cancel: %v", err)
	}
	// A stall before the status line is released by Close.
	done := make(chan error, 1)
	go func() {
		_, err := http.Post(srv.OpenAIURL()+"/chat/completions", "application/json", strings.NewReader(openAIReqBody))
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(srv.Requests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	srv.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Error("a stalled request got a response")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not release a stalled request")
	}
}

func TestRejections(t *testing.T) {
	cases := []struct {
		name, path, body, want string
	}{
		{"openai: unanswered tool call", "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"},
			{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"A","arguments":"{}"}}]},{"role":"user","content":"y"}]}`,
			"The following tool_call_ids did not have response messages: c1"},
		{"openai: tool message without a call", "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"},{"role":"tool","tool_call_id":"c9","content":"r"}]}`,
			"messages with role 'tool' must be a response to a preceeding message with 'tool_calls'"},
		{"openai: empty tools", "/v1/chat/completions", `{"model":"m","stream":true,"tools":[],"messages":[{"role":"user","content":"x"}]}`, "[] is too short - 'tools'"},
		{"openai: arguments not a string", "/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"},
			{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"A","arguments":{}}}]},{"role":"tool","tool_call_id":"c1","content":"r"}]}`,
			"expected a string"},
		{"openai: no model", "/v1/chat/completions", `{"stream":true,"messages":[{"role":"user","content":"x"}]}`, "you must provide a model parameter"},
		{"openai: not streaming", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"x"}]}`, "only streaming requests"},
		{"openai: not JSON", "/v1/chat/completions", `{"model":`, "We could not parse the JSON body"},
		{"anthropic: no max_tokens", "/v1/messages", `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}`, "max_tokens: Field required"},
		{"anthropic: roles not alternating", "/v1/messages", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"},{"role":"user","content":"y"}]}`,
			"roles must alternate"},
		{"anthropic: unanswered tool_use", "/v1/messages", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"},
			{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"A","input":{}}]},{"role":"user","content":"y"}]}`,
			"`tool_use` ids were found without `tool_result` blocks immediately after: t1"},
		{"anthropic: stray tool_result", "/v1/messages", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t9","content":"r"}]}]}`,
			"unexpected `tool_use_id` found in `tool_result` blocks: t9"},
		{"anthropic: text before tool_result", "/v1/messages", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"},
			{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"A","input":{}}]},
			{"role":"user","content":[{"type":"text","text":"y"},{"type":"tool_result","tool_use_id":"t1","content":"r"}]}]}`,
			"tool_result blocks must come first"},
		{"anthropic: empty text block", "/v1/messages", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":[{"type":"text","text":""}]}]}`,
			"text content blocks must be non-empty"},
		{"anthropic: input not an object", "/v1/messages", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"},
			{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"A","input":"oops"}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"r"}]}]}`,
			"Input should be a valid dictionary"},
		{"anthropic: first message not user", "/v1/messages", `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"assistant","content":"x"}]}`,
			"the first message must use the \"user\" role"},
		{"anthropic: bad tool", "/v1/messages", `{"model":"m","max_tokens":5,"stream":true,"tools":[{"name":"a b","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"x"}]}`,
			"String should match pattern"},
	}
	srv := NewServer(t, Script{})
	for _, c := range cases {
		status, _, body := post(t, srv.URL+c.path, c.body)
		if status != 400 || !strings.Contains(body, "invalid_request_error") || !strings.Contains(body, jsonEscape(c.want)) {
			t.Errorf("%s: %d %s", c.name, status, body)
		}
	}
	for _, r := range srv.Requests() {
		if r.Rejected == "" || r.Turn != -1 {
			t.Errorf("request %d: rejected %q turn %d", r.N, r.Rejected, r.Turn)
		}
	}
	// Lenient lets them through.
	lenient := NewServer(t, Script{Lenient: true, RepeatLast: true, Turns: []Turn{{Text: "ok"}}})
	for _, c := range cases[:6] {
		if status, _, body := post(t, lenient.URL+c.path, c.body); status != 200 {
			t.Errorf("lenient %s: %d %s", c.name, status, body)
		}
	}
}

func jsonEscape(s string) string {
	out, _ := json.Marshal(s)
	return string(out[1 : len(out)-1])
}

func TestModelsAndUnknownPaths(t *testing.T) {
	srv := NewServer(t, Script{Models: []string{"qwen3:8b", "llama3.2"}})
	res, err := http.Get(srv.OpenAIURL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	_ = json.NewDecoder(res.Body).Decode(&list)
	res.Body.Close()
	if list.Object != "list" || len(list.Data) != 2 || list.Data[0].ID != "qwen3:8b" {
		t.Errorf("models: %+v", list)
	}
	status, _, body := post(t, srv.URL+"/v1/completions", "{}")
	if status != 404 || !strings.Contains(body, "llmtest: no endpoint POST /v1/completions") {
		t.Errorf("unknown path: %d %s", status, body)
	}
}

func TestLoadScript(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	err := os.WriteFile(good, []byte(`{
	  "turns": [
	    {"text": "Let me look.", "tool_calls": [{"name": "Read", "arguments": {"file_path": "go.mod"}}]},
	    {"when": {"system": "subagent"}, "text": "sub"},
	    {"error": {"status": 429, "message": "Slow down", "headers": {"Retry-After": "0"}}},
	    {"text": "done", "usage": {"input": 120, "output": 9, "cache_read": 100}},
	    {"tool_calls": [{"id": "x", "name": "Read", "raw_arguments": "{\"file_path\": "}], "quirks": {"index_zero": true}},
	    {"chunks": ["Hel", "lo"], "stop": "length"},
	    {"text": "partial", "stall": true},
	    {"text": "cut", "hang_up": {"after_bytes": 120}},
	    {"raw": {"body": "<html>Login</html>"}},
	    {"text": "so far", "stream_error": {"status": 529, "message": "Overloaded"}}
	  ],
	  "models": ["m"], "repeat_last": true
	}`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadScript(good)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Turns) != 10 || !s.RepeatLast || s.Turns[1].When.System != "subagent" || s.Turns[3].Usage.CacheRead != 100 ||
		s.Turns[4].ToolCalls[0].RawArguments != `{"file_path": ` || !s.Turns[4].Quirks.IndexZero || s.Turns[7].HangUp.AfterBytes != 120 {
		t.Errorf("%+v", s)
	}
	bad := []struct{ json, want string }{
		{`{"turns":[{"txt":"typo"}]}`, `unknown field "txt"`},
		{`{"turns":[{"error":{"status":200}}]}`, "turn 1: error status 200 is not an error"},
		{`{"turns":[{"text":"a"},{"error":{"status":500},"text":"b"}]}`, "turn 2: an error or raw turn has no text or tool calls"},
		{`{"turns":[{"stall":true,"hang_up":{"after_bytes":1}}]}`, "turn 1: give at most one of"},
		{`{"turns":[{"endless":"text","keep_alive":true}]}`, "turn 1: give at most one of"},
		{`{"turns":[{"endless":"words"}]}`, `turn 1: endless "words": give text, arguments or thinking`},
		{`{"turns":[{"tool_calls":[{"arguments":{}}]}]}`, "turn 1: tool call 1 has no name"},
		{`{"turns":[{"tool_calls":[{"name":"A","arguments":[1]}]}]}`, "arguments must be a JSON object"},
		{`{"turns":[{"text":"a","chunks":["a"]}]}`, "give text or chunks, not both"},
		{`[`, "invalid script"},
	}
	for _, b := range bad {
		if _, err := ParseScript([]byte(b.json)); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: %v, want %q", b.json, err, b.want)
		}
	}
	if _, err := LoadScript(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("a missing file loaded")
	}
}

func TestSplitting(t *testing.T) {
	if got := splitWords("Hello there,  friend\nbye"); strings.Join(got, "|") != "Hello |there,  |friend\n|bye" {
		t.Errorf("words %q", got)
	}
	if got := splitArgs(`{"k":"ééééééé"}`); strings.Join(got, "") != `{"k":"ééééééé"}` || len(got) != 2 || got[1] != `ééééé"}` {
		t.Errorf("args %q", got)
	}
}

func TestStartFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(`{"turns":[{"text":"from a file"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, err := StartFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, _, body := post(t, srv.OpenAIURL()+"/chat/completions", openAIReqBody); !strings.Contains(body, `"content":"file"`) {
		t.Errorf("%s", body)
	}
	if _, err := StartFile(filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("a missing script started")
	}
}

// FuzzParseScript: any bytes give a script or an error, never a panic,
// and a script that parses is valid and serves its first turn.
func FuzzParseScript(f *testing.F) {
	f.Add([]byte(`{"turns":[{"text":"a b","tool_calls":[{"name":"A","arguments":{"x":1}}],"usage":{"input":1}}]}`))
	f.Add([]byte(`{"turns":[{"hang_up":{"after_bytes":3},"text":"x"},{"raw":{"body":"<html>"}},{"stall":true}],"repeat_last":true}`))
	f.Add([]byte(`{"turns":[{"chunks":["é",""],"tool_calls":[{"name":"B","raw_arguments":"{"}],"quirks":{"index_zero":true,"whole_calls":true}}]}`))
	f.Add([]byte(`{"turns":[{"error":{"status":429,"headers":{"Retry-After":"0"}}}],"models":[],"lenient":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseScript(data)
		if err != nil {
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("parsed but invalid: %v", err)
		}
		for _, turn := range s.Turns {
			if turn.Stall || turn.HangUp != nil {
				return // these hold or drop the connection by design
			}
		}
		if len(s.Turns) == 0 {
			return
		}
		s.Turns = s.Turns[:1]
		s.Turns[0].When = nil
		srv, err := Start(s)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		res, err := http.Post(srv.OpenAIURL()+"/chat/completions", "application/json", strings.NewReader(openAIReqBody))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.ReadAll(res.Body)
		res.Body.Close()
		if r := srv.Requests(); len(r) != 1 || r[0].Turn != 0 {
			t.Fatalf("the first turn did not answer: %+v", r)
		}
	})
}
