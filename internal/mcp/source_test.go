package mcp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgehq/forge/internal/tools"
)

// testServer is the configuration of the test server, with a directory for
// its cancellation marker.
func testServer(t *testing.T, name string, start bool) (ServerConfig, string) {
	t.Helper()
	markers := t.TempDir()
	return ServerConfig{Name: name, Command: serverBin, Env: map[string]string{"MCPSERVER_MARKERS": markers}, Start: start}, markers
}

func newTestManager(t *testing.T, cfgs ...ServerConfig) (*Manager, *tools.Registry, *tools.Executor) {
	t.Helper()
	reg := tools.NewRegistry()
	m := NewManager(reg, cfgs, WithMediaDir(t.TempDir()))
	t.Cleanup(func() { m.Close() })
	return m, reg, tools.NewExecutor(reg)
}

func ec() tools.ExecutionContext {
	e := tools.NewExecutionContext("")
	e.Timeout = 10 * time.Second
	return e
}

func TestManagerStartAndCall(t *testing.T) {
	cfg, _ := testServer(t, "test", true)
	idle, _ := testServer(t, "idle", false)
	m, reg, ex := newTestManager(t, cfg, idle)
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"mcp__test__add", "mcp__test__crash", "mcp__test__echo", "mcp__test__fail", "mcp__test__image", "mcp__test__resource", "mcp__test__slow"}
	if got := reg.ListNames(); !slices.Equal(got, want) {
		t.Fatalf("registered %v", got)
	}
	echo, _ := reg.Get("mcp__test__echo")
	if echo.Category() != tools.CategoryMCP || echo.Description() != "Echo the text back." {
		t.Errorf("echo = %+v", tools.Describe(echo))
	}
	if p := echo.Parameters(); len(p) != 1 || p[0].Name != "text" || p[0].Type != "string" || !p[0].Required || p[0].Description != "What to echo." {
		t.Errorf("echo parameters = %+v", p)
	}
	st := m.Status()
	if len(st) != 2 || st[0].Name != "idle" || st[0].State != StateNotStarted || st[1].State != StateConnected || len(st[1].Tools) != 7 {
		t.Errorf("status = %+v", st)
	}

	for _, tc := range []struct {
		tool string
		args tools.Args
		ok   bool
		kind tools.ErrorKind
		text string
	}{
		{"mcp__test__echo", tools.Args{"text": "hello"}, true, "", "hello"},
		{"mcp__test__add", tools.Args{"a": 2, "b": 40}, true, "", "42"},
		{"mcp__test__echo", tools.Args{}, false, tools.KindValidation, "Missing required parameter: text"},
		{"mcp__test__add", tools.Args{"a": 101, "b": 1}, false, tools.KindValidation, "Invalid value for a: maximum: "},
		{"mcp__test__add", tools.Args{"a": 1, "b": 1, "tags": []any{"ok", "NOT"}}, false, tools.KindValidation, "Invalid value for tags[1]: "},
		{"mcp__test__add", tools.Args{"a": 1.5, "b": 1}, false, tools.KindValidation, "Invalid type for a: expected integer"},
		{"mcp__test__fail", nil, false, tools.KindExecution, "the disk is full"},
		{"mcp__test__image", nil, true, "", "a red dot\n[image: image/png, 70 bytes, saved to " + m.media + "/"},
		{"mcp__test__resource", nil, true, "", "note text\n[resource: file:///blob.bin, application/octet-stream, 3 bytes, saved to " + m.media + "/"},
	} {
		r := ex.Execute(context.Background(), tc.tool, ec(), tc.args)
		if r.Success != tc.ok || r.ErrorKind != tc.kind {
			t.Errorf("%s %v: %+v", tc.tool, tc.args, r)
			continue
		}
		got := r.Error
		if r.Success {
			got, _ = r.Output.(string)
		}
		if tc.tool == "mcp__test__image" && (len(r.Images) != 1 || r.Images[0].MediaType != "image/png" || len(r.Images[0].Data) != 70) {
			t.Errorf("the image does not reach the model: %+v", r.Images)
		}
		if !strings.HasPrefix(got, tc.text) {
			t.Errorf("%s %v: %q, want prefix %q", tc.tool, tc.args, got, tc.text)
		}
	}
	e := ec()
	e.DryRun = true
	if r := ex.Execute(context.Background(), "mcp__test__echo", e, tools.Args{"text": "x"}); r.Status != tools.StatusDryRun || !strings.Contains(r.Display(), "Would call tool echo on MCP server test") {
		t.Errorf("dry run: %+v", r)
	}
}

func TestCrashThenRestart(t *testing.T) {
	cfg, _ := testServer(t, "test", true)
	m, _, ex := newTestManager(t, cfg)
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := ex.Execute(context.Background(), "mcp__test__crash", ec(), nil)
	if r.Success || !strings.HasPrefix(r.Error, "MCP server test stopped during the call (it is restarted on the next call)") {
		t.Fatalf("crash: %+v", r)
	}
	if st := m.Status()[0]; st.State != StateFailed || st.Err == nil {
		t.Errorf("status after crash = %+v", st)
	}
	r = ex.Execute(context.Background(), "mcp__test__echo", ec(), tools.Args{"text": "again"})
	if !r.Success || r.Output != "again" {
		t.Fatalf("after restart: %+v", r)
	}
	if st := m.Status()[0]; st.State != StateConnected {
		t.Errorf("status after restart = %+v", st)
	}
	// The session made inside that call outlives the call's context.
	srv, _ := m.Server("test")
	srv.mu.Lock()
	gen := srv.gen
	srv.mu.Unlock()
	if r := ex.Execute(context.Background(), "mcp__test__echo", ec(), tools.Args{"text": "same"}); r.Output != "same" {
		t.Fatalf("third call: %+v", r)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if srv.gen != gen {
		t.Errorf("the server was restarted again (generation %d -> %d)", gen, srv.gen)
	}
}

func TestTimeoutSendsCancellation(t *testing.T) {
	for _, how := range []string{"timeout", "cancel"} {
		t.Run(how, func(t *testing.T) {
			cfg, markers := testServer(t, "test", true)
			m, _, ex := newTestManager(t, cfg)
			if err := m.Start(context.Background()); err != nil {
				t.Fatal(err)
			}
			e := ec()
			ctx := context.Background()
			want := tools.StatusTimedOut
			if how == "timeout" {
				e.Timeout = 200 * time.Millisecond
			} else {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(200*time.Millisecond, cancel)
				want = tools.StatusCancelled
			}
			r := ex.Execute(ctx, "mcp__test__slow", e, nil)
			if r.Status != want {
				t.Fatalf("slow: %+v", r)
			}
			// The server sees notifications/cancelled and records it.
			marker := filepath.Join(markers, "cancelled")
			deadline := time.Now().Add(5 * time.Second)
			for {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the server never saw the cancellation")
				}
				time.Sleep(10 * time.Millisecond)
			}
			// The session survives a cancelled call.
			if r := ex.Execute(context.Background(), "mcp__test__echo", ec(), tools.Args{"text": "still here"}); r.Output != "still here" {
				t.Errorf("after cancel: %+v", r)
			}
		})
	}
}

func TestLazyConnectAndReload(t *testing.T) {
	cfg, _ := testServer(t, "lazy", false)
	toolsFile := filepath.Join(t.TempDir(), "tools")
	os.WriteFile(toolsFile, []byte("echo,fail,image"), 0o644)
	cfg.Env["MCPSERVER_TOOLSFILE"] = toolsFile
	m, reg, ex := newTestManager(t, cfg)
	if err := m.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if reg.Count() != 0 || m.Status()[0].State != StateNotStarted {
		t.Fatalf("a server without start connected: %v", reg.ListNames())
	}
	if ok, err := m.ConnectFor(context.Background(), "mcp__other__echo"); ok || err != nil {
		t.Errorf("ConnectFor(other server) = %v, %v", ok, err)
	}
	if ok, err := m.ConnectFor(context.Background(), "mcp__lazy__echo"); !ok || err != nil {
		t.Fatalf("ConnectFor = %v, %v", ok, err)
	}
	if got := strings.Join(reg.ListNames(), ","); got != "mcp__lazy__echo,mcp__lazy__fail,mcp__lazy__image" {
		t.Fatalf("after connect: %s", got)
	}
	os.WriteFile(toolsFile, []byte("echo,add"), 0o644)
	if err := m.Reload(context.Background(), "lazy"); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(reg.ListNames(), ","); got != "mcp__lazy__add,mcp__lazy__echo" {
		t.Errorf("after reload: %s", got)
	}
	if r := ex.Execute(context.Background(), "mcp__lazy__add", ec(), tools.Args{"a": 1, "b": 2}); r.Output != "3" {
		t.Errorf("add: %+v", r)
	}
	if err := m.Reload(context.Background(), "nope"); err == nil || !strings.Contains(err.Error(), "Unknown MCP server: nope") {
		t.Errorf("reload unknown: %v", err)
	}
}

func TestFailedServer(t *testing.T) {
	bad := ServerConfig{Name: "broken", Command: filepath.Join(t.TempDir(), "no-such-server"), Start: true}
	m, reg, _ := newTestManager(t, bad)
	err := m.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "MCP server broken") {
		t.Fatalf("Start error = %v", err)
	}
	st := m.Status()[0]
	if st.State != StateFailed || st.Err == nil || reg.Count() != 0 {
		t.Errorf("status = %+v", st)
	}
	// A server that exits at once reports its standard error.
	sh := ServerConfig{Name: "dies", Command: "/bin/sh", Args: []string{"-c", "echo config missing >&2; exit 1"}}
	m2, _, _ := newTestManager(t, sh)
	err = m2.Connect(context.Background(), "dies")
	if err == nil || !strings.Contains(err.Error(), "config missing") {
		t.Errorf("Connect error = %v", err)
	}
}
