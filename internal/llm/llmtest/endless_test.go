package llmtest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// readSome reads the answer to body at path until want bytes have come
// (or the stream ends) and hangs up.
func readSome(t *testing.T, url, body string, want int) []byte {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	got, _ := io.ReadAll(io.LimitReader(res.Body, int64(want)))
	return got
}

func TestEndlessAndKeepAlive(t *testing.T) {
	const anthropicBody = `{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"x"}]}`
	tests := []struct {
		name string
		turn Turn
		wire Wire
		want []string // in the first 64 KiB
		not  []string
	}{
		{"openai text", Turn{Text: "so far", Endless: "text"}, OpenAI,
			[]string{`"content":"so "`, `"content":"far"`, `"content":"all work and no play`}, []string{"finish_reason\":\"stop", "[DONE]"}},
		{"openai arguments", Turn{Endless: "arguments"}, OpenAI,
			[]string{`"name":"Write"`, `"arguments":"all work`}, []string{"[DONE]"}},
		{"openai thinking", Turn{Endless: "thinking"}, OpenAI, []string{`"reasoning_content":"all work`}, []string{"[DONE]"}},
		{"openai keep-alive", Turn{KeepAlive: true}, OpenAI,
			[]string{": ping\n\n", `"choices":[]`, `"delta":{}`}, []string{"all work", "[DONE]"}},
		{"anthropic text", Turn{Endless: "text"}, Anthropic,
			[]string{"event: message_start", `"type":"text"`, `{"text":"all work`, `"type":"text_delta"`}, []string{"message_stop"}},
		{"anthropic arguments", Turn{Endless: "arguments"}, Anthropic,
			[]string{`"type":"tool_use"`, `"partial_json":"all work`}, []string{"message_stop"}},
		{"anthropic thinking", Turn{Endless: "thinking"}, Anthropic,
			[]string{`"type":"thinking"`, `{"thinking":"all work`, `"type":"thinking_delta"`}, []string{"message_stop"}},
		{"anthropic keep-alive", Turn{KeepAlive: true}, Anthropic,
			[]string{"event: ping", ": keep-alive\n\n"}, []string{"all work", "message_stop"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := NewServer(t, Script{Turns: []Turn{tt.turn}})
			url, body := srv.OpenAIURL()+"/chat/completions", openAIReqBody
			if tt.wire == Anthropic {
				url, body = srv.AnthropicURL()+"/v1/messages", anthropicBody
			}
			// A keep-alive every few milliseconds: a few hundred bytes
			// come quickly; an endless turn fills 64 KiB at once.
			n := 64 << 10
			if tt.turn.KeepAlive {
				n = 600
			}
			got := readSome(t, url, body, n)
			if len(got) < n {
				t.Fatalf("the stream ended after %d bytes: %q", len(got), got)
			}
			for _, w := range tt.want {
				if !bytes.Contains(got, []byte(w)) {
					t.Errorf("no %q in %q", w, got[:min(len(got), 2000)])
				}
			}
			for _, w := range tt.not {
				if bytes.Contains(got, []byte(w)) {
					t.Errorf("%q in the stream", w)
				}
			}
		})
	}
}
