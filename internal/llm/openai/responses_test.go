package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

func responsesModel(t *testing.T, srv *llmtest.Server) *Model {
	return newModel(t, srv, func(c *Config) { c.API = APIResponses })
}

// The Responses API over several tool rounds: the reasoning summary
// streams as thinking, the text as text, the calls by call id; each
// round's encrypted reasoning items go back unchanged before the calls
// they led to (the fake verifies them, and with store off refuses one
// without its content), with store false, the encrypted content included,
// the effort and the session's cache key on every request.
func TestResponsesRounds(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Thinking: []string{"Read the file first."}, ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path":"a"}`)}}},
		{Thinking: []string{"Then b."}, Text: "Reading b.", ToolCalls: []llmtest.ToolCall{{Name: "Read", Arguments: json.RawMessage(`{"file_path":"b"}`)}}},
		{Text: "Both fine.", Usage: &llmtest.Usage{Input: 20, CacheRead: 80, Output: 7}},
	}})
	m := responsesModel(t, srv)
	req := user("check a and b")
	req.Effort, req.CacheKey = llm.EffortHigh, "sess_1"
	req.Tools = []llm.ToolSpec{{Name: "Read", Description: "reads", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	var thought, said strings.Builder
	var names []string
	var last llm.Response
	for range 3 {
		resp, err := m.Stream(context.Background(), req, func(d llm.Delta) {
			thought.WriteString(d.Thinking)
			said.WriteString(d.Text)
			if d.ToolName != "" {
				names = append(names, d.ToolName)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		last = resp
		req.Messages = append(req.Messages, resp.Message)
		for _, c := range resp.Message.ToolCalls {
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: c.ID, Content: "text of " + c.ID}})
		}
	}
	if thought.String() != "Read the file first.Then b." || said.String() != "Reading b.Both fine." || !slices.Equal(names, []string{"Read", "Read"}) {
		t.Errorf("thinking %q, text %q, calls %q", thought.String(), said.String(), names)
	}
	if last.Stop != llm.StopEnd || last.Usage != (llm.Usage{InputTokens: 100, OutputTokens: 7, CacheReadTokens: 80}) || last.Model != "gpt-test" {
		t.Errorf("last: %+v", last)
	}
	reqs := srv.Requests()
	for _, r := range reqs {
		if r.Rejected != "" || r.Store || r.CacheKey != "sess_1" || r.Effort != "high" || !slices.Contains(r.Include, "reasoning.encrypted_content") ||
			r.System != "You are terse." || !strings.HasSuffix(r.Path, "/responses") {
			t.Fatalf("request %d: rejected %q, store %v, key %q, effort %q, include %q, system %q, path %s", r.N, r.Rejected, r.Store, r.CacheKey, r.Effort, r.Include, r.System, r.Path)
		}
	}
	third := reqs[2].Messages
	if len(third) != 5 || dump(third[3].Reasoning) != `[{"provider":"openai-responses","text":"Then b.","redacted":"`+llmtest.Encrypted("Then b.")+`","id":"rs_2_0"}]` ||
		third[3].Text != "Reading b." || third[3].ToolCalls[0].ID != "call_2" || third[4].Result.Content != "text of call_2" {
		t.Errorf("the third request's conversation: %s", dump(third))
	}

	// A reasoning item that lost its encrypted content is refused, as
	// the API refuses it without store.
	req.Messages[1].Reasoning[0].Redacted = "tampered"
	srv2 := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{{Text: "x"}}})
	if _, err := responsesModel(t, srv2).Stream(context.Background(), req, nil); err == nil || !strings.Contains(err.Error(), "could not be verified") {
		t.Errorf("tampered reasoning: %v", err)
	}
}

// Images go as input_image parts, a result's in a user message after the
// call outputs; a turn cut at max_output_tokens says so; an error event
// is the server's message.
func TestResponsesImagesAndEnds(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
		{Text: "cut", Stop: "max_output_tokens"},
		{Text: "so far", StreamError: &llmtest.ErrorReply{Status: 500, Message: "The server had an error"}},
	}})
	m := responsesModel(t, srv)
	req := llm.Request{Messages: []llm.Message{
		{Role: llm.RoleUser, Text: "look", Images: []llm.Image{{MediaType: "image/png", Data: []byte("\x89PNG")}}},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "Read", Arguments: json.RawMessage(`{}`)}}},
		{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: "shot", Images: []llm.Image{{MediaType: "image/jpeg", Data: []byte{0xff, 0xd8}}}}},
	}}
	resp, err := m.Stream(context.Background(), req, nil)
	if err != nil || resp.Stop != llm.StopMaxTokens || resp.Message.Text != "cut" {
		t.Fatalf("%+v %v", resp, err)
	}
	msgs := srv.Requests()[0].Messages
	if len(msgs) != 4 || len(msgs[0].Images) != 1 || !bytes.Equal(msgs[0].Images[0].Data, []byte("\x89PNG")) ||
		msgs[3].Role != llm.RoleUser || len(msgs[3].Images) != 1 || !strings.Contains(msgs[3].Text, "(c1)") {
		t.Errorf("sent %s", dump(msgs))
	}
	if _, err := m.Stream(context.Background(), req, nil); err == nil || !strings.Contains(err.Error(), "The server had an error") {
		t.Errorf("error event: %v", err)
	}
}

// OpenAI's own API gets the Responses API by default; another server,
// or API chat, gets Chat Completions.
func TestResponsesChosen(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want bool
	}{
		{Config{Provider: "openai"}, true},
		{Config{Provider: "openai", BaseURL: "https://api.openai.com/v1/"}, true},
		{Config{Provider: "openai", API: APIChat}, false},
		{Config{Provider: "openai", BaseURL: "http://localhost:8000/v1"}, false},
		{Config{Provider: "openai", BaseURL: "http://localhost:8000/v1", API: APIResponses}, true},
		{Config{Provider: "ollama"}, false},
	} {
		m, err := New(c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.usesResponses(); got != c.want {
			t.Errorf("%+v: responses %v", c.cfg, got)
		}
	}
}

// FuzzResponseEvents feeds any Responses events, one JSON object a line:
// the assembler never panics, and every call it returns has a unique,
// non-empty ID and arguments.
func FuzzResponseEvents(f *testing.F) {
	f.Add(`{"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c","name":"A"}}
{"type":"response.function_call_arguments.delta","output_index":0,"delta":"{"}
{"type":"response.output_item.added","output_index":1,"item":{"type":"function_call","call_id":"c","name":"B","arguments":""}}
{"type":"response.output_item.done","output_index":1,"item":{"type":"function_call","call_id":"c","name":"B","arguments":"{}"}}
{"type":"response.completed","response":{"usage":{"input_tokens":3}}}`)
	f.Add(`{"type":"response.reasoning_summary_part.added","output_index":-4}
{"type":"response.reasoning_summary_text.delta","output_index":-4,"delta":"x"}
{"type":"response.output_item.done","output_index":-4,"item":{"type":"reasoning","summary":[{"text":"y"}],"encrypted_content":"e"}}
{"type":"response.incomplete","response":{"incomplete_details":{"reason":"max_output_tokens"}}}`)
	f.Fuzz(func(t *testing.T, lines string) {
		var a rAssembler
		for _, line := range strings.Split(lines, "\n") {
			var e rEvent
			if json.Unmarshal([]byte(line), &e) != nil {
				continue
			}
			a.add(&e, func(llm.Delta) {})
		}
		r := a.response()
		seen := map[string]bool{}
		for _, c := range r.Message.ToolCalls {
			if c.ID == "" || seen[c.ID] || len(c.Arguments) == 0 {
				t.Fatalf("bad call %+v", c)
			}
			seen[c.ID] = true
		}
		if len(r.Message.ToolCalls) > 0 && r.Stop != llm.StopToolUse {
			t.Fatalf("calls with stop %q", r.Stop)
		}
	})
}
