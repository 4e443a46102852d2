// Package llmtest is a scripted fake model provider for tests: an
// httptest server that speaks the real wire formats, streaming, of OpenAI
// Chat Completions (POST .../chat/completions under any prefix), OpenAI
// Responses (POST .../responses) and Anthropic Messages (POST
// .../v1/messages), and lists models (GET .../models) for discovery. No
// network, no key. A script may ask for thinking checked as the APIs
// check it (signatures, encrypted reasoning; "require_reasoning" for
// DeepSeek's rule) and for usage counted as the providers' prompt caches
// would ("prompt_cache").
//
// A Script is a list of turns. Each request gets the first unused turn
// that accepts it (a turn may carry a condition, When or Match, so that
// concurrent conversations such as a subagent beside its parent each get
// their own turns); past the end it is a failure, or the last turn again
// with RepeatLast. A turn streams text (a word at a time, or in the
// pieces given) and tool calls (arguments in several fragments), with its
// usage and stop reason; or it fails: an HTTP error with its headers
// (Retry-After...), a raw body (an HTML page, garbage), a hang-up after
// some bytes of the stream, a stall that holds the connection until the
// client goes away, an error event in the middle of the stream, a stream
// without end (text, tool-call arguments or thinking), or one of nothing
// but keep-alives.
//
// Every request is recorded (Server.Requests) with its raw body and a
// provider-neutral view: system prompt, messages with roles, text, tool
// calls with their IDs, tool results with their call IDs and error flags,
// the tools offered, headers. Unless the script is Lenient, a request
// the real API would reject (a tool call without its result, roles that
// do not alternate on Anthropic, an empty text block, an empty tools
// list...) gets the 400 the real API gives, and Request.Rejected says why.
//
// In Go:
//
//	srv := llmtest.NewServer(t, llmtest.Script{Turns: []llmtest.Turn{
//		{Text: "Let me look.", ToolCalls: []llmtest.ToolCall{
//			{Name: "Read", Arguments: json.RawMessage(`{"file_path":"go.mod"}`)}}},
//		{Error: &llmtest.ErrorReply{Status: 429, Message: "Slow down", Headers: map[string]string{"Retry-After": "0"}}},
//		{Text: "It declares module example.com/m.", Usage: &llmtest.Usage{Input: 120, Output: 9, CacheRead: 100}},
//	}})
//	// point a provider at srv.OpenAIURL() or srv.AnthropicURL() ...
//	reqs := srv.Requests()
//
// A script can live in a JSON file (LoadScript), e.g. inside a
// testscript archive:
//
//	{
//	  "models": ["llmtest-model"],
//	  "turns": [
//	    {"text": "Let me look.",
//	     "tool_calls": [{"name": "Read", "arguments": {"file_path": "go.mod"}}]},
//	    {"when": {"system": "You are a subagent"}, "text": "Subagent's answer."},
//	    {"error": {"status": 429, "message": "Slow down", "headers": {"Retry-After": "0"}}},
//	    {"text": "It declares module example.com/m.",
//	     "usage": {"input": 120, "output": 9, "cache_read": 100}},
//	    {"tool_calls": [{"id": "call_bad", "name": "Read", "raw_arguments": "{\"file_path\": "}]},
//	    {"chunks": ["Hel", "lo"], "stop": "length"},
//	    {"text": "partial answer", "stall": true},
//	    {"text": "cut short", "hang_up": {"after_bytes": 120}},
//	    {"raw": {"status": 200, "content_type": "text/html", "body": "<html>Login</html>"}},
//	    {"text": "so far", "stream_error": {"status": 529, "message": "Overloaded"}},
//	    {"text": "and then", "endless": "arguments"},
//	    {"keep_alive": true},
//	    {"tool_calls": [{"name": "A"}, {"name": "B"}], "quirks": {"index_zero": true, "no_usage": true}}
//	  ],
//	  "repeat_last": false,
//	  "lenient": false,
//	  "require_reasoning": false,
//	  "prompt_cache": false
//	}
//
// The fields of a turn: "text" or "chunks"; "thinking" (a string or a
// list, streamed before the text: signed thinking blocks on Anthropic's
// wire, reasoning_content on OpenAI's, reasoning items with their
// encrypted content on the Responses API); "redacted_thinking" (data of
// redacted_thinking blocks); "tool_calls" (each "name",
// optional "id", "arguments" as a JSON object or "raw_arguments" as text
// sent as it is); "usage" ("input" uncached, "output", "cache_read",
// "cache_write"); "stop" (the wire's stop reason, as it is); "model";
// "quirks" ("index_zero", "whole_calls", "no_usage", "reasoning_field": how Ollama, llama.cpp
// and vLLM differ from OpenAI); "when" ("system", "last", "any": text the
// system prompt, the last message or any message contains; "model";
// "tool": a tool offered; "wire": "openai" or "anthropic"); and at most
// one failure: "error" ("status", "message", "type", "body", "headers"),
// "raw" ("status", "content_type", "body"), "hang_up" ("after_bytes"; 0
// hangs up before the status line), "stall" (true), "stream_error" (like
// "error"), "endless" ("text", "arguments" or "thinking", 1 KiB an event
// until the client goes away), "keep_alive" (true: keep-alives every few
// milliseconds until the client goes away). Unknown fields are errors.
package llmtest
