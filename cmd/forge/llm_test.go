package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/forgehq/forge/internal/llm"
	"github.com/forgehq/forge/internal/llm/llmtest"
)

// servers are the fake providers the scripts started, by script.
var servers sync.Map // *testscript.TestScript -> *llmtest.Server

// cmdFakeLLM is "fakellm openai|anthropic SCRIPT.json": it starts a fake
// provider (llmtest) speaking that wire, answering from the script, and
// points forge at it through FORGE_PROVIDER and FORGE_BASE_URL.
func cmdFakeLLM(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fakellm openai|anthropic SCRIPT.json")
	}
	srv, err := llmtest.StartFile(ts.MkAbs(args[1]))
	ts.Check(err)
	ts.Defer(srv.Close)
	servers.Store(ts, srv)
	switch args[0] {
	case "openai":
		ts.Setenv("FORGE_PROVIDER", "openai")
		ts.Setenv("FORGE_BASE_URL", srv.OpenAIURL())
	case "anthropic":
		ts.Setenv("FORGE_PROVIDER", "anthropic")
		ts.Setenv("FORGE_BASE_URL", srv.AnthropicURL())
		ts.Setenv("ANTHROPIC_API_KEY", "sk-ant-test-key")
	default:
		ts.Fatalf("fakellm: unknown wire %q", args[0])
	}
}

// cmdLLMCheck is "llmcheck FILE": it fails when the fake provider got a
// request its script had no turn for, or one the real API would refuse,
// and writes the requests it got, one JSON object a line, to FILE for the
// script to grep.
func cmdLLMCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: llmcheck FILE")
	}
	v, ok := servers.Load(ts)
	if !ok {
		ts.Fatalf("llmcheck: no fakellm started")
	}
	srv := v.(*llmtest.Server)
	if f := srv.Failures(); len(f) > 0 {
		ts.Fatalf("the fake provider failed: %s", strings.Join(f, "; "))
	}
	var b bytes.Buffer
	for _, r := range srv.Requests() {
		if r.Rejected != "" {
			ts.Fatalf("request %d was rejected as the real API would: %s", r.N, r.Rejected)
		}
		descs := map[string]string{}
		for _, t := range r.Tools {
			descs[t.Name] = t.Description
		}
		line, err := json.Marshal(struct {
			N        int               `json:"n"`
			Bytes    int               `json:"bytes"`
			Messages []llm.Message     `json:"messages"`
			Tools    []string          `json:"tools"`
			System   string            `json:"system"`
			Descs    map[string]string `json:"tool_descriptions"`
			Path     string            `json:"path"`
		}{r.N, len(r.Body), r.Messages, r.ToolNames(), r.System, descs, r.Path})
		ts.Check(err)
		b.Write(append(line, '\n'))
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o644))
}

// cmdValidEvents is "validevents FILE": every line of FILE (the stdout of
// forge ask -o json, saved with cp stdout) is a valid event of
// docs/events.schema.json.
func cmdValidEvents(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: validevents FILE")
	}
	schema := eventsSchema(ts)
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for i, l := range lines {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(l))
		if err != nil {
			ts.Fatalf("line %d is not JSON: %v\n%s", i+1, err, l)
		}
		if err := schema.Validate(v); err != nil {
			ts.Fatalf("line %d is not a valid event: %v\n%s", i+1, err, l)
		}
	}
	if !strings.Contains(lines[0], `"type":"init"`) || !strings.Contains(lines[len(lines)-1], `"type":"done"`) {
		ts.Fatalf("the stream must start with init and end with done:\n%s", data)
	}
}

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// eventsSchema compiles docs/events.schema.json once.
func eventsSchema(ts *testscript.TestScript) *jsonschema.Schema {
	schemaOnce.Do(func() {
		path, err := filepath.Abs(filepath.Join("..", "..", "docs", "events.schema.json"))
		if err != nil {
			schemaErr = err
			return
		}
		schema, schemaErr = jsonschema.NewCompiler().Compile(path)
	})
	ts.Check(schemaErr)
	return schema
}
