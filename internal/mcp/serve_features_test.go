package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgehq/forge/internal/tools"
)

// clientOf connects a go-sdk client with opts to forge's server, at the
// protocol version clients speak today.
func clientOf(t *testing.T, ex *tools.Executor, serve ServeOptions, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	srv, err := serverOf(ex, serve)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

// TestServeAnnotationsAndCapabilities: tools say what forge knows of them
// (a tool that runs commands, as Slow's category says, can reach any
// host), and the server does not promise list changes it never makes.
func TestServeAnnotationsAndCapabilities(t *testing.T) {
	ex, _ := serveRegistry(t)
	cs := clientOf(t, ex, ServeOptions{Tools: []string{AllTools}}, nil)
	if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || caps.Tools.ListChanged || caps.Logging == nil {
		t.Errorf("capabilities %+v", caps)
	}
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tl := range list.Tools {
		b, _ := json.Marshal(tl.Annotations)
		got[tl.Name] = string(b)
	}
	want := map[string]string{
		"Greet": `{"idempotentHint":true,"openWorldHint":false,"readOnlyHint":true,"title":"Greet"}`,
		"Slow":  `{"destructiveHint":true,"idempotentHint":false,"openWorldHint":true,"readOnlyHint":false,"title":"Slow"}`,
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s annotations %s, want %s", name, got[name], w)
		}
	}
}

// TestServeProgressAndLogs: a call made with a progress token reports what
// the tool prints as progress; the client gets log lines at the level it
// set; calls go through ServeOptions.Call.
func TestServeProgressAndLogs(t *testing.T) {
	reg := tools.NewRegistry()
	err := reg.Register(&ecTool{localTool{name: "Build", cat: tools.CategoryExecution}, func(ec tools.ExecutionContext) tools.Result {
		if ec.LiveOutput != nil {
			io.WriteString(ec.LiveOutput, "compiling a\ncompiling b\n")
		}
		if ec.Progress != nil {
			ec.Progress(tools.Progress{Progress: 9, Total: 10, Message: "linking"})
		}
		return tools.OK("built")
	}})
	if err != nil {
		t.Fatal(err)
	}
	ex := tools.NewExecutor(reg)
	var mu sync.Mutex
	var progress []string
	var logs []string
	opts := &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			b, _ := json.Marshal(req.Params)
			progress = append(progress, string(b))
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, string(req.Params.Level)+" "+jsonText(req.Params.Data))
		},
	}
	var called []string
	serve := ServeOptions{Tools: []string{AllTools}, Call: func(ctx context.Context, c Served) tools.Result {
		called = append(called, c.Name)
		return ex.ExecuteJSON(ctx, c.Name, c.Exec, c.Args)
	}}
	cs := clientOf(t, ex, serve, opts)
	ctx := context.Background()
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	params := &mcp.CallToolParams{Name: "Build"}
	params.SetProgressToken("p1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	eventually(t, "progress and a log line", func() bool { mu.Lock(); defer mu.Unlock(); return len(progress) >= 2 && len(logs) >= 1 })
	mu.Lock()
	defer mu.Unlock()
	if progress[0] != `{"progressToken":"p1","message":"compiling b","progress":2}` || progress[1] != `{"progressToken":"p1","message":"linking","progress":9,"total":10}` {
		t.Errorf("progress %q", progress)
	}
	if !strings.HasPrefix(logs[0], "info ") || !strings.Contains(logs[0], `"msg":"Tool Build succeeded"`) {
		t.Errorf("logs %q", logs)
	}
	if len(called) != 1 || called[0] != "Build" {
		t.Errorf("ServeOptions.Call saw %v", called)
	}
}

// ecTool is a tool whose run reads its execution context.
type ecTool struct {
	localTool
	run func(tools.ExecutionContext) tools.Result
}

func (e *ecTool) Execute(_ context.Context, ec tools.ExecutionContext, _ tools.Args) tools.Result {
	return e.run(ec)
}

// TestServeHTTPUnauthorizedNamesMetadata: a request without the token gets
// a 401 whose WWW-Authenticate names the protected-resource metadata,
// which is served.
func TestServeHTTPUnauthorizedNamesMetadata(t *testing.T) {
	url, _ := serveHTTPTest(t, ServeOptions{Tools: []string{AllTools}}, testToken)
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	meta := strings.TrimSuffix(url, "/") + resourceMetadataPath
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(resp.Header.Get("WWW-Authenticate"), `resource_metadata="`+meta+`"`) {
		t.Fatalf("%s %q", resp.Status, resp.Header.Get("WWW-Authenticate"))
	}
	resp, err = http.Get(meta)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var prm map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&prm); err != nil || prm["resource"] != url {
		t.Errorf("metadata %v %v", prm, err)
	}
}
