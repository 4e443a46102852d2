package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// localTool is a forge tool for the serve tests.
type localTool struct {
	name     string
	cat      tools.Category
	params   []tools.Parameter
	readOnly bool
	run      func(ctx context.Context, args tools.Args) tools.Result
	started  chan struct{} // closed when a call begins, for Slow
	observed atomic.Bool   // the call saw its context end
}

func (l *localTool) IsReadOnly() bool { return l.readOnly }

func (l *localTool) Name() string                  { return l.name }
func (l *localTool) Description() string           { return "test tool " + l.name }
func (l *localTool) Category() tools.Category      { return l.cat }
func (l *localTool) Parameters() []tools.Parameter { return l.params }
func (l *localTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	return l.run(ctx, args)
}

func serveRegistry(t *testing.T) (*tools.Executor, *localTool) {
	t.Helper()
	reg := tools.NewRegistry()
	slow := &localTool{name: "Slow", cat: tools.CategoryExecution, started: make(chan struct{})}
	var once sync.Once
	slow.run = func(ctx context.Context, args tools.Args) tools.Result {
		once.Do(func() { close(slow.started) })
		<-ctx.Done()
		slow.observed.Store(true)
		return tools.Fail("stopped")
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(reg.Register(&localTool{name: "Greet", cat: tools.CategoryOther, readOnly: true,
		params: []tools.Parameter{{Name: "name", Type: "string", Description: "Who.", Required: true}, {Name: "times", Type: "integer", Default: 1}},
		run: func(ctx context.Context, args tools.Args) tools.Result {
			return tools.OK(strings.Repeat("hello "+args.String("name")+" ", args.Int("times")), "times", args.Int("times"))
		}}))
	must(reg.Register(&localTool{name: "Info", cat: tools.CategoryFile, readOnly: true,
		run: func(ctx context.Context, args tools.Args) tools.Result { return tools.OK(map[string]any{"k": 1}) }}))
	must(reg.Register(slow))
	return tools.NewExecutor(reg), slow
}

// connect serves ex in process and returns a go-sdk client session.
func connect(t *testing.T, ex *tools.Executor, opts ServeOptions) *mcp.ClientSession {
	t.Helper()
	srv, err := serverOf(ex, opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

func TestServeListAndCall(t *testing.T) {
	ex, _ := serveRegistry(t)
	cs := connect(t, ex, ServeOptions{Context: tools.NewExecutionContext(""), Tools: []string{AllTools}})
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if names := toolNames(list); names != "Greet,Info,Slow" {
		t.Fatalf("tools = %s", names)
	}
	// tools/list carries forge's mcp export, schema and all.
	want, _ := tools.ExportSchema(tools.Describe(mustGet(t, ex, "Greet")), tools.FormatMCP)
	var wantDef struct {
		InputSchema any `json:"inputSchema"`
	}
	json.Unmarshal(want, &wantDef)
	got, _ := json.Marshal(list.Tools[0].InputSchema)
	wantSchema, _ := json.Marshal(wantDef.InputSchema)
	if string(got) != string(wantSchema) || list.Tools[0].Description != "test tool Greet" {
		t.Errorf("Greet schema = %s, want %s", got, wantSchema)
	}

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Greet", Arguments: map[string]any{"name": "ada", "times": 2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError || res.Content[0].(*mcp.TextContent).Text != "hello ada hello ada " {
		t.Errorf("Greet = %+v", res)
	}
	if meta, _ := res.Meta["forge"].(map[string]any); meta["status"] != "success" {
		t.Errorf("meta = %v", res.Meta)
	}
	res, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: "Info"})
	if res.Content[0].(*mcp.TextContent).Text != `{"k":1}` {
		t.Errorf("Info = %+v", res.Content[0])
	}
	// Validation runs in the executor; the failure is a tool error.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "Greet", Arguments: map[string]any{"times": "x"}})
	if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != "Missing required parameter: name" {
		t.Errorf("invalid call = %+v, %v", res, err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Nope"}); err == nil {
		t.Error("an unknown tool was called")
	}
	if n := len(ex.Executions()); n != 3 {
		t.Errorf("history has %d executions", n)
	}
}

// toolNames is the names of a tools/list answer, comma-separated.
func toolNames(list *mcp.ListToolsResult) string {
	names := make([]string, len(list.Tools))
	for i, tl := range list.Tools {
		names[i] = tl.Name
	}
	return strings.Join(names, ",")
}

func mustGet(t *testing.T, ex *tools.Executor, name string) tools.Tool {
	t.Helper()
	tl, ok := ex.Registry().Get(name)
	if !ok {
		t.Fatalf("no %s", name)
	}
	return tl
}

func TestServeCancellationAndTimeout(t *testing.T) {
	ex, slow := serveRegistry(t)
	ec := tools.NewExecutionContext("")
	cs := connect(t, ex, ServeOptions{Context: ec, Tools: []string{"Slow"}})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "Slow"}); err == nil {
		t.Error("cancelled call returned no error")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !slow.observed.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the tool never saw the client's cancellation")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// forge's own timeout applies to served calls.
	ec.Timeout = 100 * time.Millisecond
	cs = connect(t, ex, ServeOptions{Context: ec, Tools: []string{"Slow"}})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Slow"})
	if err != nil || !res.IsError || res.Content[0].(*mcp.TextContent).Text != "Tool timed out after 0.1s" {
		t.Errorf("timeout = %+v, %v", res, err)
	}
}

func TestServeFilterAndDryRun(t *testing.T) {
	ex, _ := serveRegistry(t)
	cs := connect(t, ex, ServeOptions{Tools: []string{"Greet", "Slow"}, Category: tools.CategoryOther, DryRun: true})
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(list.Tools) != 1 || list.Tools[0].Name != "Greet" {
		t.Fatalf("list = %+v, %v", list, err)
	}
	res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Greet", Arguments: map[string]any{"name": "x"}})
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, "[Dry Run]") || res.IsError {
		t.Errorf("dry run = %q", text)
	}
	if _, err := serverOf(ex, ServeOptions{Category: "files"}); err == nil || !strings.HasPrefix(err.Error(), "Unknown category: files") {
		t.Errorf("unknown category: %v", err)
	}
}

func TestServeGarbage(t *testing.T) {
	ex, _ := serveRegistry(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), ex, ServeOptions{}, inR, outW); outW.Close() }()
	replies := bufio.NewScanner(outR)
	replies.Buffer(nil, 1<<20)
	send := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		if !replies.Scan() {
			t.Fatalf("no reply to %q", line)
		}
		var m map[string]any
		if err := json.Unmarshal(replies.Bytes(), &m); err != nil {
			t.Fatalf("reply %q: %v", replies.Text(), err)
		}
		return m
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	if m := send("this is not json"); code(m) != -32700 || m["id"] != nil {
		t.Errorf("garbage: %v", m)
	}
	if m := send("[1, 2]"); code(m) != -32600 {
		t.Errorf("batch: %v", m)
	}
	if m := send(`{"jsonrpc":"2.0","id":7,"method":5}`); code(m) != -32600 || m["id"] != float64(7) {
		t.Errorf("bad method: %v", m)
	}
	if m := send(`{"id":8,"method":"ping"}`); code(m) != -32600 {
		t.Errorf("no version: %v", m)
	}
	m := send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if m := send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":"abc"}`); m["error"] == nil {
		t.Errorf("bad params: %v", m)
	}
	if m := send(`{"jsonrpc":"2.0","id":3,"method":"no/such/method"}`); code(m) != -32601 {
		t.Errorf("unknown method: %v", m)
	}
	if m := send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"Greet","arguments":{"name":"bob"}}}`); m["result"] == nil {
		t.Errorf("call after garbage: %v", m)
	}
	inW.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return at end of input")
	}
}

func TestGuardCheck(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, true},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, true},
		{`{"jsonrpc":"2.0","id":{},"method":"ping"}`, false},
		{`{"jsonrpc":"2.0"}`, false},
		{`"just a string"`, false},
		{`{`, false},
	} {
		if got := check([]byte(tc.line), false) == nil; got != tc.ok {
			t.Errorf("check(%s) ok = %v", tc.line, got)
		}
	}
}

// A script that writes its requests and closes its input at once
// (printf ... | forge mcp serve) gets every answer before Serve returns.
func TestServeAnswersEverythingBeforeEOF(t *testing.T) {
	ex, _ := serveRegistry(t)
	in := strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"Greet","arguments":{"name":"ann"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"Greet","arguments":{}}}`,
	}, "\n") + "\n")
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), ex, ServeOptions{}, in, &syncBuffer{b: &out}) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after answering")
	}
	got := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if id, ok := messageID([]byte(line), false); ok {
			got[id] = true
		}
	}
	for _, id := range []string{"1", "2", `"c"`, "4"} {
		if !got[id] {
			t.Errorf("no answer to request %s; output:\n%s", id, out.String())
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the server's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serverOf is newServer for a test that needs only the server.
func serverOf(ex *tools.Executor, opts ServeOptions) (*mcp.Server, error) {
	s, _, err := newServer(ex, opts, context.Background())
	return s, err
}
